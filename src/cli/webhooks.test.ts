// `webhooks create|list|deliveries|test|resume|delete` in-process against a temporary SQLite
// database and a real HTTP server on loopback: the secret printed once, a test event signed and
// answered, the rules an endpoint keeps, and the audit log.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { openDatabase } from '../server/db/open-database.js';
import { runCommand } from '../server/test/run-command.js';
import { tempDatabaseFile } from '../server/test/temp-database.js';
import { COMMAND_LINE, main } from './webhooks.js';

let file: string;
const run = (...argv: string[]) => runCommand(main, argv);
const closers: (() => void)[] = [];

beforeEach(async () => {
  file = tempDatabaseFile();
  vi.stubEnv('DATABASE_URL', `sqlite:${file}`);
  vi.stubEnv('SITE_URL', 'https://scamsavvy.example');
  await (await openDatabase({ kind: 'sqlite', file })).close();
});

afterEach(() => {
  vi.unstubAllEnvs();
  for (const close of closers.splice(0)) close();
});

async function receiver(status: number) {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('webhooks commands', () => {
  it('makes an endpoint with its secret shown once, sends it a signed test, lists and deletes it', async () => {
    const hook = await receiver(200);
    const made = await run('create', '--name', 'CRM', '--url', hook.url, '--events', 'signup.created,consent.changed');
    expect(made.code).toBe(0);
    const secret = /^(whsec_[A-Za-z0-9+/=]{44})\n/.exec(made.out)?.[1] ?? '';
    expect(secret).not.toBe('');
    expect(made.out).toContain('shown only now');
    expect((await run('create', '--name', 'CRM', '--url', hook.url)).err).toContain('already exists');

    expect(await run('test', '--name', 'CRM')).toEqual({ code: 0, out: 'The test was accepted (200).\n', err: '' });
    const [test] = hook.received;
    const payload = new Webhook(secret).verify(test!.body, test!.headers) as { type: string };
    expect(payload.type).toBe('webhook.test');

    const listed = (await run('list')).out;
    expect(listed).toContain(`CRM  standard, ${hook.url}`);
    expect(listed).toContain('events: signup.created, consent.changed; 0 waiting');
    expect(listed).not.toContain(secret);
    expect((await run('deliveries', '--name', 'CRM')).out).toBe('Nothing delivered to it yet.\n');
    expect(await run('delete', '--name', 'CRM')).toEqual({
      code: 0,
      out: '"CRM" is deleted: it is told nothing more.\n',
      err: '',
    });
    expect((await run('list')).out).toContain('No webhook endpoints yet.');

    const store = await openDatabase({ kind: 'sqlite', file }, { migrate: false });
    try {
      const log = await store.owners.auditLog(5);
      expect(log.map((entry) => [entry.ownerEmail, entry.subject, entry.detail])).toEqual([
        [COMMAND_LINE, 'CRM', 'Deleted'],
        [COMMAND_LINE, 'CRM', 'Made (standard, to 127.0.0.1:' + new URL(hook.url).port + ')'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('says when a test is not accepted, and what is wrong with a name, an address, an event or a kind', async () => {
    const down = await receiver(503);
    await run('create', '--name', 'Down', '--url', down.url);
    expect(await run('test', '--name', 'Down')).toEqual({
      code: 1,
      out: '',
      err: 'The test was not accepted: answered 503.\n',
    });
    expect((await run('create', '--name', 'Plain', '--url', 'http://crm.example/hook')).err).toContain(
      'must be https://',
    );
    expect(
      (await run('create', '--name', 'Bad', '--url', 'https://crm.example/hook', '--events', 'signup.deleted')).err,
    ).toContain('"signup.deleted" is not an event.');
    expect((await run('create', '--name', 'K', '--url', 'https://crm.example/hook', '--kind', 'teams')).err).toContain(
      'The kind is one of: standard, slack.',
    );
    expect(
      (
        await run(
          'create',
          '--name',
          '#launch',
          '--url',
          'https://hooks.slack.com/services/T/B/x',
          '--kind',
          'slack',
          '--with-personal-data',
        )
      ).err,
    ).toContain('never gets a person’s details');
    const slack = await run(
      'create',
      '--name',
      '#launch',
      '--url',
      'https://hooks.slack.com/services/T/B/x',
      '--kind',
      'slack',
    );
    expect(slack.out).toContain('told of new sign-ups and the launch');
    expect(slack.out).not.toContain('whsec_');
    expect((await run('list')).out).toContain(
      'events: signup.created, broadcast.started, broadcast.paused, broadcast.completed',
    );
    expect((await run('resume', '--name', 'Nobody')).err).toContain('No endpoint is named "Nobody"');
  });
});
