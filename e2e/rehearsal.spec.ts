// Issue 55: the rehearsal in docs/launch-day.md runs as written. Its shell lines are read from the doc
// and typed into one bash, line by line, in a copy of this checkout's folder (its files linked, its
// rehearsal/ its own); after `npm start &` a visitor signs up in the browser and presses the button
// in the confirmation email the folder holds, as the doc says. It ends with the launch email to that
// person and the launch text in the rehearsal's folders.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { expect, test } from './fixtures';

/** The shell lines of the doc's rehearsal, as an owner would type them. */
function rehearsalLines(): string[] {
  const doc = readFileSync('docs/launch-day.md', 'utf8');
  const section = doc.slice(doc.indexOf('## Rehearse with no account'));
  const block = /```sh\n([^]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/launch-day.md has no sh block under "Rehearse with no account"');
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

/** One bash, typed into: each line's output and exit status, in turn. */
function shell(cwd: string, env: NodeJS.ProcessEnv) {
  // A process group of its own: whatever it started is stopped with it, even if a line failed.
  const bash: ChildProcessWithoutNullStreams = spawn('bash', ['--norc', '--noprofile'], { cwd, env, detached: true });
  let output = '';
  bash.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  bash.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let count = 0;
  return {
    output: () => output,
    /** Types the line, and waits for its exit status. */
    async run(line: string): Promise<{ status: number; said: string }> {
      count += 1;
      const marker = `__line_${count}_done__`;
      const from = output.length;
      bash.stdin.write(`${line}\necho "${marker} $?"\n`);
      await expect.poll(() => output.includes(marker), { timeout: 120_000, message: line }).toBe(true);
      const said = output.slice(from, output.indexOf(marker));
      const status = Number(new RegExp(`${marker} (\\d+)`).exec(output)?.[1] ?? -1);
      return { status, said };
    },
    end: () => {
      bash.stdin.end();
      try {
        if (bash.pid) process.kill(-bash.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

test('the rehearsal in docs/launch-day.md runs line by line and ends with the launch email and the launch text in its folders', async ({
  page,
}) => {
  test.setTimeout(300_000); // a hang guard: six npm commands, each a Node start, on a busy machine
  const port = 4840 + test.info().workerIndex;
  // The checkout's files, linked into a folder of the test's own: the rehearsal's files land there.
  const folder = mkdtempSync(path.join(tmpdir(), 'scamsavvy-rehearsal-'));
  // The built site is copied (the server serves no file through a link); the rest is linked.
  for (const name of readdirSync('.'))
    if (name === 'dist') cpSync('dist', path.join(folder, 'dist'), { recursive: true });
    else if (!['rehearsal', 'test-results', '.git', 'data'].includes(name))
      symlinkSync(path.resolve(name), path.join(folder, name));
  const bash = shell(folder, { ...process.env, PORT: String(port), ENV_FILE: '' });
  try {
    for (const line of rehearsalLines()) {
      const { status, said } = await bash.run(line);
      expect(status, `${line}\n${said}`).toBe(0);
      if (!line.startsWith('npm start')) continue;

      // "Before the next line, sign up on http://localhost:3000 as a visitor would."
      const site = `http://localhost:${port}`;
      await expect
        .poll(async () => (await fetch(`${site}/api/ready`).catch(() => undefined))?.ok ?? false, {
          timeout: 120_000,
        })
        .toBe(true);
      await page.goto(site);
      await page.getByRole('button', { name: 'Protect My Family — Notify Me On App Release!' }).click();
      await page.getByLabel('Your Name').fill('Rosa Díaz');
      await page.getByLabel('Phone Number').fill('+1 212 555 0123');
      await page.getByLabel('Email Address').fill('rosa@example.com');
      await page.getByRole('button', { name: 'Protect My Family - Notify Me!' }).click();
      await expect(page.getByRole('heading', { name: "You're On the Protection List!" })).toBeVisible();

      // "Open it and press its button, as a person would."
      const emails = path.join(folder, 'rehearsal', 'email');
      await expect.poll(() => existsSync(emails) && readdirSync(emails).length > 0, { timeout: 30_000 }).toBe(true);
      const [first] = readdirSync(emails);
      const confirmation = await simpleParser(readFileSync(path.join(emails, first ?? '')));
      const confirm = new RegExp(`${site}/confirm/[A-Za-z0-9_-]+`).exec(confirmation.text ?? '')?.[0];
      expect(confirm, confirmation.text).toBeTruthy();
      await page.goto(confirm ?? '');
      await page.getByRole('button', { name: 'Yes, keep me on the list' }).click();
      await expect(page.getByRole('main')).toContainText(/confirmed/i);
      await page.goto('about:blank'); // nothing on the page talks to the server once it stops
    }

    const read = (kind: string) => {
      const dir = path.join(folder, 'rehearsal', kind);
      return readdirSync(dir).map((name) => readFileSync(path.join(dir, name), 'utf8'));
    };
    const launchEmails = await Promise.all(read('email').map((raw) => simpleParser(raw)));
    const toRosa = launchEmails.filter(
      (mail) => mail.subject?.startsWith('ScamSavvy is here') && JSON.stringify(mail.to).includes('rosa@example.com'),
    );
    expect(toRosa, 'the launch email to the person who signed up and confirmed').toHaveLength(1);
    const launchText = read('texts')
      .map((raw) => JSON.parse(raw) as { to: string; body: string })
      .filter((text) => text.to === '+15555550123');
    expect(launchText, 'the launch text, tested to a phone').toHaveLength(1);
    expect(launchText[0]?.body).toMatch(/ScamSavvy/);
    // `kill %1` stopped the site.
    await expect
      .poll(async () => (await fetch(`http://localhost:${port}/api/ready`).catch(() => undefined)) === undefined)
      .toBe(true);
  } finally {
    bash.end();
    rmSync(folder, { recursive: true, force: true });
  }
});
