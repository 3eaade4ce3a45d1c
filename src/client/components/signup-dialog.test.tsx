// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allowConsoleError } from '../../../vitest.setup';
import { PUBLIC_CONFIG_ELEMENT_ID, serialisePublicConfig, type PublicConfig } from '../../shared/public-config.js';
import { signupMessages } from '../../shared/signup-schema.js';
import { privacyNotice } from '../content';
import { signupDialog } from '../signup-content';
import { PrivacyNotice } from './privacy-notice';
import { SignupDialog } from './signup-dialog';

/** The dialog as the page uses it: a button opens it, closing hands control back. */
function Harness() {
  const [open, setOpen] = useState(false);
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  return (
    <>
      <button
        type="button"
        onClick={(event) => {
          setOpener(event.currentTarget);
          setOpen(true);
        }}
      >
        Open sign-up
      </button>
      <SignupDialog open={open} source="hero_section" onClose={() => setOpen(false)} opener={opener} />
      <PrivacyNotice />
    </>
  );
}

/** The settings block the server writes into every page. */
function serverSays(config: PublicConfig) {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = PUBLIC_CONFIG_ELEMENT_ID;
  block.textContent = serialisePublicConfig(config);
  document.body.append(block);
}

interface PendingSave {
  resolve: (response: Response) => void;
  reject: (error: Error) => void;
  body: unknown;
}

let saves: PendingSave[];

beforeEach(() => {
  saves = [];
  Element.prototype.scrollIntoView = vi.fn(); // jsdom has no layout
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve, reject) =>
          saves.push({ resolve, reject, body: JSON.parse(String(init.body)) }),
        ),
    ),
  );
});

afterEach(() => {
  cleanup();
  document.getElementById(PUBLIC_CONFIG_ELEMENT_ID)?.remove();
  vi.unstubAllGlobals();
});

async function openDialog() {
  const user = userEvent.setup();
  render(<Harness />);
  await user.click(screen.getByRole('button', { name: 'Open sign-up' }));
  return { user, dialog: await screen.findByRole('dialog') };
}

async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(signupDialog.fields.name.label), 'Rosa Díaz');
  await user.type(screen.getByLabelText(signupDialog.fields.phone.label), '+1 (555) 123-4567');
  await user.type(screen.getByLabelText(signupDialog.fields.email.label), 'rosa@example.com');
}

const submitButton = () => screen.getByRole('button', { name: signupDialog.submit });

/** Opens the dialog, fills it in, presses the button, and the server takes the sign-up (201). */
async function signUp() {
  const opened = await openDialog();
  await fillValid(opened.user);
  await opened.user.click(submitButton());
  await waitFor(() => expect(saves).toHaveLength(1), { timeout: 4000 }); // the page waits out MIN_FORM_TIME_MS first
  await act(async () => saves[0]?.resolve(new Response('{}', { status: 201 })));
  return opened;
}

describe('sign-up dialog', () => {
  it('opens on the form, named by its title and described by its subtitle', async () => {
    const { dialog } = await openDialog();
    expect(dialog).toHaveAccessibleName(signupDialog.title);
    expect(dialog).toHaveAccessibleDescription(signupDialog.subtitle);
    expect(screen.getByLabelText(signupDialog.fields.name.label)).toHaveAttribute('autocomplete', 'name');
    expect(screen.getByLabelText(signupDialog.fields.phone.label)).toHaveAttribute('type', 'tel');
    expect(screen.getByLabelText(signupDialog.fields.email.label)).toHaveAttribute('type', 'email');
    expect(screen.getByRole('checkbox', { name: signupDialog.betaTesting.label })).not.toBeChecked();
    expect(screen.getByText(signupDialog.consent)).toBeInTheDocument();
  });

  it("the consent text's privacy link closes the dialog, unfolds the notice and puts focus on it", async () => {
    const { user } = await openDialog();
    const notice = document.getElementById(privacyNotice.id);
    expect(notice).not.toHaveAttribute('open');
    const link = screen.getByRole('link', { name: signupDialog.privacyLink });
    expect(link).toHaveAttribute('href', `#${privacyNotice.id}`);

    await user.click(link);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(notice).toHaveAttribute('open');
    const summary = screen.getByText(privacyNotice.summary);
    await waitFor(() => expect(summary).toHaveFocus());
    expect(summary.scrollIntoView).toHaveBeenCalled();

    // The next opening and closing hand focus back to the button as usual.
    await user.click(screen.getByRole('button', { name: 'Open sign-up' }));
    await user.click(await screen.findByRole('button', { name: signupDialog.maybeLater }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open sign-up' })).toHaveFocus());
  });

  it('shows every error under its field on submit, focuses the summary, and sends nothing', async () => {
    const { user } = await openDialog();
    await user.click(submitButton());
    const name = screen.getByLabelText(signupDialog.fields.name.label);
    // Validation settles after the click's own events: waited for, never assumed (a busy machine is slower).
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription(`Error: ${signupMessages.nameRequired}`);
    expect(screen.getByLabelText(signupDialog.fields.phone.label)).toHaveAccessibleDescription(
      `${signupDialog.fields.phone.hint} Error: ${signupMessages.phoneRequired}`,
    );
    const summary = screen.getByRole('alert');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(summary).toHaveTextContent(signupMessages.emailRequired);
    expect(saves).toHaveLength(0);
  });

  it('re-checks a field as the visitor corrects it, keeping what was typed', async () => {
    const { user } = await openDialog();
    const phone = screen.getByLabelText(signupDialog.fields.phone.label);
    await user.type(phone, '0123');
    await user.click(submitButton());
    expect(await screen.findAllByText(signupMessages.phoneInvalid)).not.toHaveLength(0);
    await user.clear(phone);
    await user.type(phone, '555 123 4567');
    await waitFor(() => expect(screen.queryByText(signupMessages.phoneInvalid)).not.toBeInTheDocument());
    expect(phone).toHaveValue('555 123 4567');
  });

  it('the summary links move focus to their field', async () => {
    const { user } = await openDialog();
    await user.click(submitButton());
    await user.click(await screen.findByRole('link', { name: signupMessages.emailRequired }));
    expect(screen.getByLabelText(signupDialog.fields.email.label)).toHaveFocus();
  });

  it('while submitting: everything is disabled, the label changes, and closing is ignored', async () => {
    const { user } = await openDialog();
    await fillValid(user);
    await user.click(screen.getByRole('checkbox', { name: signupDialog.betaTesting.label }));
    await user.click(submitButton());
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 4000 }); // the page waits out MIN_FORM_TIME_MS first
    expect(saves[0]?.body).toEqual({
      name: 'Rosa Díaz',
      phone: '+15551234567',
      email: 'rosa@example.com',
      betaTesting: true,
      attribution: { button: 'hero_section' },
      consentVersion: signupDialog.consentVersion,
      // The page's language (issue 45): this build's, English.
      language: 'en',
      openedForMs: expect.any(Number),
    });

    expect(screen.getByRole('button', { name: signupDialog.submitting })).toBeDisabled();
    expect(screen.getByRole('button', { name: signupDialog.maybeLater })).toBeDisabled();
    expect(screen.getByRole('button', { name: signupDialog.close })).toBeDisabled();
    expect(screen.getByLabelText(signupDialog.fields.name.label)).toBeDisabled();
    expect(screen.getByRole('checkbox')).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    await act(async () => saves[0]?.resolve(new Response('{"status":"ok"}', { status: 201 })));
    expect(await screen.findByRole('heading', { name: signupDialog.success.title })).toHaveFocus();
  });

  it('on success shows the success view; its button closes the dialog', async () => {
    const { user } = await signUp();
    expect(screen.getByRole('dialog')).toHaveAccessibleName(signupDialog.success.title);
    expect(screen.getByText(signupDialog.success.text)).toBeInTheDocument();
    // No confirmation email unless the server says so.
    expect(screen.queryByText(/Pressing the button/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: signupDialog.success.button }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open sign-up' })).toHaveFocus();
  });

  it('says an email is on its way, that pressing its button keeps them on the list, and when details go without it', async () => {
    serverSays({ consentMode: 'opt-in', emailConfirmation: true, unconfirmedRetentionDays: 14 });
    await signUp();
    expect(await screen.findByRole('heading', { name: signupDialog.success.title })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(signupDialog.success.text);
    expect(screen.getByRole('status')).toHaveTextContent(
      'If this email is new to our list, we are sending you an email now. Pressing the button in it is what keeps you on the list. If you do not press it, we will delete your details after 14 days. Nothing more comes unless this form is used with your email again.',
    );
  });

  it('says the one reminder when the server will send one, never "we will not write to you again"', async () => {
    serverSays({
      consentMode: 'opt-in',
      emailConfirmation: true,
      unconfirmedRetentionDays: 14,
      confirmationReminderDays: 7,
    });
    await signUp();
    expect(await screen.findByRole('heading', { name: signupDialog.success.title })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent(
      'If you do not press it, we will send you one reminder in 7 days and delete your details after 14 days. Nothing more comes unless this form is used with your email again.',
    );
    expect(screen.getByRole('status')).not.toHaveTextContent('we will not write to you again');
  });

  it('says nothing of an email when the server has confirmation off', async () => {
    serverSays({ consentMode: 'opt-out', ga4: { measurementId: 'G-TEST12345' } });
    await signUp();
    expect(await screen.findByRole('heading', { name: signupDialog.success.title })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(signupDialog.success.text);
    expect(screen.queryByText(/Pressing the button/)).not.toBeInTheDocument();
  });

  it('after a failed save: logs the spec error, stays on the filled form, and says kindly it did not go through', async () => {
    allowConsoleError(/^Error submitting signup/);
    const errors = vi.mocked(console.error);
    const { user } = await openDialog();
    await fillValid(user);
    await user.click(submitButton());
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 4000 }); // the page waits out MIN_FORM_TIME_MS first
    await act(async () => saves[0]?.resolve(new Response('{}', { status: 503 })));

    expect(errors).toHaveBeenCalledWith('Error submitting signup', expect.any(Error));
    const message = await screen.findByText(signupDialog.saveFailed);
    expect(message).toHaveFocus();
    expect(screen.getByLabelText(signupDialog.fields.name.label)).toHaveValue('Rosa Díaz');
    expect(submitButton()).toBeEnabled();

    await user.click(submitButton()); // trying again works
    await waitFor(() => expect(saves).toHaveLength(2));
    await act(async () => saves[1]?.resolve(new Response('{}', { status: 201 })));
    expect(await screen.findByRole('heading', { name: signupDialog.success.title })).toBeInTheDocument();
  });

  it('a number the server cannot read is shown beside the number, in the page words, not as "try again"', async () => {
    allowConsoleError(/^Error submitting signup/);
    const { user } = await openDialog();
    await fillValid(user);
    await user.click(submitButton());
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 4000 }); // the page waits out MIN_FORM_TIME_MS first
    const refusal = {
      error: { code: 'validation_failed', message: 'x', fields: { phone: signupMessages.phoneNeedsAreaCode } },
    };
    await act(async () => saves[0]?.resolve(new Response(JSON.stringify(refusal), { status: 400 })));

    const phone = screen.getByLabelText(signupDialog.fields.phone.label);
    await waitFor(() => expect(phone).toHaveAttribute('aria-invalid', 'true'));
    expect(phone).toHaveAccessibleDescription(
      `${signupDialog.fields.phone.hint} Error: ${signupDialog.validation.phoneNeedsAreaCode}`,
    );
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
    expect(screen.queryByText(signupDialog.saveFailed)).not.toBeInTheDocument();
    expect(screen.getByLabelText(signupDialog.fields.name.label)).toHaveValue('Rosa Díaz');

    // Corrected, it clears and goes.
    await user.clear(phone);
    await user.type(phone, '212 555 0142');
    await waitFor(() => expect(phone).not.toHaveAttribute('aria-invalid', 'true'));
    await user.click(submitButton());
    await waitFor(() => expect(saves).toHaveLength(2), { timeout: 4000 });
    expect(saves[1]?.body).toMatchObject({ phone: '2125550142' });
    await act(async () => saves[1]?.resolve(new Response('{}', { status: 201 })));
    expect(await screen.findByRole('heading', { name: signupDialog.success.title })).toBeInTheDocument();
  });

  it('a network failure counts as a failed save too', async () => {
    allowConsoleError(/^Error submitting signup/);
    const { user } = await openDialog();
    await fillValid(user);
    await user.click(submitButton());
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 4000 }); // the page waits out MIN_FORM_TIME_MS first
    await act(async () => saves[0]?.reject(new TypeError('Failed to fetch')));
    expect(await screen.findByText(signupDialog.saveFailed)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toHaveAccessibleName(signupDialog.title);
  });

  it('closing resets the form and the success flag: reopening gives an empty form', async () => {
    const { user } = await signUp();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open sign-up' }));
    expect(await screen.findByRole('dialog')).toHaveAccessibleName(signupDialog.title);
    expect(screen.getByLabelText(signupDialog.fields.name.label)).toHaveValue('');

    await user.type(screen.getByLabelText(signupDialog.fields.name.label), 'Half typed');
    await user.click(screen.getByRole('button', { name: signupDialog.maybeLater }));
    await user.click(screen.getByRole('button', { name: 'Open sign-up' }));
    expect(await screen.findByLabelText(signupDialog.fields.name.label)).toHaveValue('');
  });
});
