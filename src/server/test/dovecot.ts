// Test support: a real IMAP server on loopback, Debian's Dovecot run as an ordinary process with a
// configuration of its own in a temp dir (its sockets, state and Maildirs there too) and one test
// user, so no system service is needed. Messages arrive and are read over IMAP, as a mail server's
// delivery and the owner's mail client would.
// Plain Node (no test-runner APIs), so unit tests and browser tests both use it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';

const DOVECOT = '/usr/sbin/dovecot';

export const dovecotAvailable = existsSync(DOVECOT);
if (!dovecotAvailable) console.info('IMAP tests are skipped here: install dovecot-imapd to run them.');

export interface TestDovecot {
  port: number;
  user: string;
  password: string;
  /** imap://user:password@127.0.0.1:port/mailbox (INBOX unless named). */
  url(mailbox?: string): string;
  /** Puts a message into INBOX (an IMAP APPEND, unread), as the mail server's delivery would. */
  deliver(raw: string): Promise<void>;
  /** The full source of every message in a folder, oldest first; none when the folder does not exist. */
  list(folder: string): Promise<string[]>;
  /** Stops the server for a while (an outage): its mail stays, for resume(). */
  pause(): Promise<void>;
  /** Starts it again on the same port, with the same mail, after pause(). */
  resume(): Promise<void>;
  /** Stops the server and removes its mail and configuration. */
  stop(): Promise<void>;
}

interface Account {
  uid: number;
  gid: number;
  user: string;
  group: string;
}

/** The first line of /etc/passwd or /etc/group, split into its fields, that matches. */
function lookUp(file: string, match: (fields: string[]) => boolean): string[] | undefined {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find(match);
}

/**
 * Who Dovecot runs as: ourselves, or `nobody` when the tests run as root (Dovecot will not read
 * mail as root, and a rootless Dovecot runs every one of its processes as one account).
 */
function account(): Account {
  if (process.getuid?.() === 0) {
    const nobody = lookUp('/etc/passwd', (fields) => fields[0] === 'nobody');
    if (!nobody) throw new Error('Running as root, Dovecot needs the account `nobody` to run as.');
    const gid = Number(nobody[3]);
    return { uid: Number(nobody[2]), gid, user: 'nobody', group: groupName(gid) };
  }
  const me = userInfo();
  return { uid: me.uid, gid: me.gid, user: me.username, group: groupName(me.gid) };
}

function groupName(gid: number): string {
  const group = lookUp('/etc/group', (fields) => fields[2] === String(gid))?.[0];
  if (!group) throw new Error(`Dovecot needs a name for group ${gid} (in /etc/group).`);
  return group;
}

function configuration(dir: string, port: number, runAs: Account): string {
  // Rootless Dovecot (doc.dovecot.org, "Running Dovecot without root"): its internal and login
  // processes run as the same account, and nothing chroots.
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = scamsavvy-test
log_path = ${dir}/dovecot.log
default_internal_user = ${runAs.user}
default_internal_group = ${runAs.group}
default_login_user = ${runAs.user}
first_valid_uid = ${runAs.uid}
first_valid_gid = ${runAs.gid}
listen = 127.0.0.1
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# A wrong password is refused at once, not after the usual 2 s.
auth_failure_delay = 0
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = passwd-file
  args = username_format=%u ${dir}/users
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
  # No growing delay for a client that gave a wrong password (the tests do, on purpose).
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** True once an IMAP greeting comes from the port. */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('* OK'));
    });
    for (const event of ['error', 'timeout', 'close']) socket.once(event, () => (socket.destroy(), resolve(false)));
  });
}

export async function startDovecot(): Promise<TestDovecot> {
  if (!dovecotAvailable) throw new Error(`${DOVECOT} is missing: install dovecot-imapd.`);
  const runAs = account();
  const dir = mkdtempSync(join(tmpdir(), 'dovecot-'));
  const user = 'bounces';
  const password = randomBytes(12).toString('hex');
  for (const sub of ['run', 'state', 'mail']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'users'), `${user}:{PLAIN}${password}:${runAs.uid}:${runAs.gid}::${dir}/mail/${user}::\n`);

  try {
    // Another process may take the free port before Dovecot binds it: then start again on another.
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      writeFileSync(join(dir, 'dovecot.conf'), configuration(dir, port, runAs));
      if (process.getuid?.() === 0) chownTree(dir, runAs);
      const stop = await run(dir, port, runAs);
      if (stop) return dovecotAt({ dir, port, user, password, runAs }, stop);
      if (attempt === 3) throw new Error(`Dovecot did not start on 127.0.0.1:${port}: the port was taken.`);
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function chownTree(dir: string, runAs: Account): void {
  for (const path of [dir, ...['run', 'state', 'mail', 'users', 'dovecot.conf'].map((name) => join(dir, name))])
    chownSync(path, runAs.uid, runAs.gid);
}

/** Starts Dovecot in the foreground and waits for its greeting; a stop function, or undefined if it did not start. */
async function run(dir: string, port: number, runAs: Account): Promise<(() => Promise<void>) | undefined> {
  const asRoot = process.getuid?.() === 0;
  // A process group of its own (detached), so that one signal reaches Dovecot's every process.
  const child = spawn(DOVECOT, ['-F', '-c', join(dir, 'dovecot.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(asRoot ? { uid: runAs.uid, gid: runAs.gid } : {}),
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  let output = '';
  child.stdout.on('data', (data) => (output += data));
  child.stderr.on('data', (data) => (output += data));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => signalGroup('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Told alone, Dovecot's master takes a second to stop its processes; told together, they stop at once.
    signalGroup('SIGTERM');
    await exited;
  };

  const deadline = performance.now() + 10_000; // a hang guard, on the monotonic clock
  while (performance.now() < deadline && child.exitCode === null && child.signalCode === null) {
    if (await greets(port)) return stop;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  const log = existsSync(join(dir, 'dovecot.log')) ? readFileSync(join(dir, 'dovecot.log'), 'utf8') : '';
  if (/in use/i.test(output + log)) return undefined;
  throw new Error(`Dovecot did not start:\n${output}${log}`);
}

interface Instance {
  dir: string;
  port: number;
  user: string;
  password: string;
  runAs: Account;
}

function dovecotAt({ dir, port, user, password, runAs }: Instance, stopFirst: () => Promise<void>): TestDovecot {
  let stopRunning: (() => Promise<void>) | undefined = stopFirst;
  const withClient = async <T>(work: (client: ImapFlow) => Promise<T>): Promise<T> => {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      auth: { user, pass: password },
      logger: false,
    });
    client.on('error', () => undefined); // a failed command rejects its own promise
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.logout().catch(() => undefined);
    }
  };

  return {
    port,
    user,
    password,
    url: (mailbox = 'INBOX') =>
      `imap://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(mailbox)}`,
    deliver: (raw) =>
      withClient(async (client) => {
        await client.append('INBOX', raw);
      }),
    list: (folder) =>
      withClient(async (client) => {
        const folders = await client.list();
        if (!folders.some((mailbox) => mailbox.path === folder)) return [];
        const lock = await client.getMailboxLock(folder);
        try {
          const sources: string[] = [];
          if (client.mailbox && client.mailbox.exists > 0)
            for await (const message of client.fetch('1:*', { source: true }))
              if (message.source) sources.push(message.source.toString());
          return sources;
        } finally {
          lock.release();
        }
      }),
    async pause() {
      await stopRunning?.();
      stopRunning = undefined;
    },
    async resume() {
      if (stopRunning) throw new Error('Dovecot is running: pause() it first.');
      stopRunning = await run(dir, port, runAs);
      if (!stopRunning) throw new Error(`Dovecot could not listen on 127.0.0.1:${port} again (taken).`);
    },
    async stop() {
      await stopRunning?.();
      stopRunning = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
