// POST /api/signups: validates with the shared schema, stores, answers 201 once the write is durable.
import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import { describeSignupIssues, looksAutomated, signupInputSchema, signupMessages } from '../../shared/signup-schema.js';
import { AppError } from '../errors.js';
import { StoreUnavailableError } from '../db/database-errors.js';
import type { SignupsRepository } from '../db/signups-repository.js';
import { newReferralCode } from '../../shared/referral.js';
import type { CountryCode } from 'libphonenumber-js/max';
import { signupE164 } from '../messaging/phone.js';

/** A sign-up is a few hundred bytes; anything much larger is not one. */
export const SIGNUP_BODY_LIMIT_BYTES = 10 * 1024;

/** Seconds a client is asked to wait before trying again while the database is away. */
export const RETRY_AFTER_SECONDS = 10;

export interface SignupRoutesOptions {
  signups: Pick<SignupsRepository, 'add'>;
  /** Rate limits, run before the body is validated or stored. */
  limits: preHandlerAsyncHookHandler[];
  /** Told once a sign-up is durable (its confirmation email, if any, goes out after). */
  onStored?: () => void;
  /** SMS_DEFAULT_COUNTRY: the country of a number typed without its country code (US unless set). */
  phoneCountry?: string;
}

export const signupRoutes: FastifyPluginAsync<SignupRoutesOptions> = async (
  app,
  { signups, limits, onStored, phoneCountry = 'US' },
) => {
  const outage: { since: number | undefined } = { since: undefined };
  app.post('/api/signups', { bodyLimit: SIGNUP_BODY_LIMIT_BYTES, preHandler: limits }, async (request, reply) => {
    const parsed = signupInputSchema.safeParse(request.body);
    if (!parsed.success) {
      throw new AppError(400, 'validation_failed', 'Some details need attention.', {
        ...describeSignupIssues(parsed.error),
      });
    }
    // Doubted (the hidden trap filled in, or sent faster than a person could): refused, never
    // answered as a success for something thrown away (decision 033). The page itself waits out the
    // minimum time before it sends, so a person is never doubted for being quick.
    if (looksAutomated(parsed.data)) {
      request.log.info(
        { trapFilled: Boolean(parsed.data.comments?.trim()), openedForMs: parsed.data.openedForMs },
        'refused a sign-up that looks automated',
      );
      throw new AppError(422, 'not_accepted', 'We could not take this sign-up. Please press the button again.');
    }
    // Kept in E.164 (+12125550142), whatever way it was typed. A number the numbering plan cannot read
    // (a local number without its area code) could never be texted: refused with a field message the
    // form shows beside the number, rather than stored and promised texts that never come (issue 54).
    const e164 = signupE164(parsed.data.phone, phoneCountry as CountryCode);
    if (e164 === undefined)
      throw new AppError(400, 'validation_failed', 'Some details need attention.', {
        fields: { phone: signupMessages.phoneNeedsAreaCode },
        other: [],
      });
    const signup = { ...parsed.data, phone: e164 };
    let added: { referralCode: string | null };
    try {
      added = await signups.add(signup);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      // Log the start of an outage once, not once per request.
      if (!outage.since) {
        outage.since = Date.now();
        request.log.error(
          { reason: error.reason },
          'the sign-up database is unavailable: answering 503 until it is back',
        );
      }
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw new AppError(503, 'unavailable', 'We could not save your sign-up just now. Please try again in a minute.');
    }
    if (outage.since) {
      request.log.info({ downForMs: Date.now() - outage.since }, 'the sign-up database is back');
      outage.since = undefined;
    }
    onStored?.();
    // The spec reads the answer only as success or failure. A new record's answer carries the person's
    // own link code, for the page's "Tell a family member". Anyone can type an address, so a repeat's
    // must not hand out what the record holds, nor differ from a new one's (that would say who is on
    // the list): it carries a fresh code held nowhere, a working link to the page that credits nobody
    // (decision 041).
    return reply
      .code(201)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ status: 'ok', referralCode: added.referralCode ?? newReferralCode() }));
  });
};
