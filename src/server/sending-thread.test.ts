// The server's own messages go from a thread of their own (issue 54): a job the runner asks for runs
// there, over the same database and settings, and says what it did; stopped, it ends cleanly.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { openDatabase, type Db } from './db/open-database.js';
import { startSendingThread, type SendingThread } from './sending-thread.js';
import { startSmtpSink, type SmtpSink } from './test/smtp-sink.js';
import { testSettings } from './test/build-test-app.js';
import { tempDatabaseFile } from './test/temp-database.js';
import { SITE } from './test/site.js';

let sink: SmtpSink | undefined;
let thread: SendingThread | undefined;
let db: Db | undefined;
afterEach(async () => {
  await thread?.stop();
  await db?.close();
  await sink?.stop();
  thread = undefined;
  db = undefined;
  sink = undefined;
});

describe('the sending thread', () => {
  it('runs a kind’s job over the same database and says what it did; a job it does not have fails', async () => {
    sink = await startSmtpSink();
    const config = testSettings({
      siteUrl: SITE,
      database: { kind: 'sqlite', file: tempDatabaseFile() },
      messaging: {
        email: { smtpUrl: sink.url, from: 'ScamSavvy <hello@scamsavvy.example>' },
        secretKey: 'test-secret-key-that-is-long-enough-123',
        emailConfirmation: true,
      },
    });
    db = await openDatabase(config.database, { confirmSignups: true });
    await db.signups.add({ name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com', betaTesting: false });
    thread = startSendingThread(config);
    const signal = new AbortController().signal;
    expect(await thread.runner('confirmation-emails')(signal)).toBe('1 sent, 0 later, 0 failed, 0 skipped');
    const mail = await sink.waitFor((received) => received.envelope.to.includes('rosa@example.com'));
    expect(mail.parsed.subject).toBe('Please confirm you want launch news from ScamSavvy');
    // Recorded in the one outbox, by the thread's own connection; its record in the message log says
    // "sent" with the Message-ID it left with (written in the same transaction as its outbox row), so a
    // bounce that quotes only that ID still finds it.
    const [row] = await db.messageQueue.rows('confirmation');
    expect(row?.state).toBe('sent');
    const logged = await db.sentMessages.find({ messageId: mail.parsed.messageId ?? 'none' });
    expect(logged).toMatchObject({ state: 'sent', purpose: 'confirmation', signupId: row?.signupId });
    // The sweep of the never confirmed runs there too (it sends their one reminder): none is due yet.
    expect(await thread.runner('unconfirmed-sign-ups')(signal)).toBe('none due');
    // Nothing more is due: a second run has nothing to say.
    expect(await thread.runner('confirmation-emails')(signal)).toBeUndefined();
    await expect(thread.runner('no-such-job')(signal)).rejects.toThrow('no job no-such-job here');
  });
});

describe('stopping the sending thread', () => {
  it('ends it after its grace when a mail server never answers, failing the run it held', async () => {
    // A mail server that takes the connection and never says a word: the send waits on it.
    const connected: Socket[] = [];
    const silent = createServer((socket) => connected.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    onTestFinished(async () => {
      for (const socket of connected) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const config = testSettings({
      siteUrl: SITE,
      database: { kind: 'sqlite', file: tempDatabaseFile() },
      messaging: {
        email: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'ScamSavvy <hello@scamsavvy.example>' },
        secretKey: 'test-secret-key-that-is-long-enough-123',
        emailConfirmation: true,
      },
    });
    db = await openDatabase(config.database, { confirmSignups: true });
    await db.signups.add({ name: 'Rosa Díaz', phone: '+15551234567', email: 'rosa@example.com', betaTesting: false });
    const stuck = startSendingThread(config);
    const run = stuck.runner('confirmation-emails')(new AbortController().signal);
    run.catch(() => undefined);
    await vi.waitFor(() => expect(connected.length).toBeGreaterThan(0), { timeout: 30_000 });
    expect(await stuck.stop(50)).toBe(false);
    await expect(run).rejects.toThrow(/the sending thread stopped/);
    // The email it was sending is still in the outbox, held by its lease, to be tried again.
    expect((await db.messageQueue.rows('confirmation')).map((row) => row.state)).toEqual(['sending']);
  });
});
