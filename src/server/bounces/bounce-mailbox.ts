// The bounce mailbox: what any mail server sends back to BOUNCE_ADDRESS (bounces, delays,
// complaints), read over IMAP at each check (the job "bounce-mailbox", jobs/job-list.ts, on one
// instance: two readers never move the same message). Each report is turned into FeedbackEvents
// (delivery-reports.ts) and handed on; then it leaves the mailbox: a report acted on is deleted (or
// filed in processedFolder), anything else is moved to unmatchedFolder for a person to read, never
// deleted. A message larger than maxBytes is never fetched: it goes to tooLargeFolder; one whose
// reading runs out of time (in the server, it is read in a worker thread) goes to tooSlowFolder. A report
// whose events could not be stored stays where it is and is read again while the database is away;
// one that fails while the database answers is the report's own fault: it goes to notStoredFolder,
// with the reason in the log, and the reports after it are read (no message stops the mailbox).
import type { FastifyBaseLogger } from 'fastify';
import { ImapFlow } from 'imapflow';
import { withoutAddresses } from '../messaging/log-safe.js';
import type { MessageTokens } from '../messaging/message-tokens.js';
import { parseDeliveryReport, type ReadReport } from './parse-mail-report.js';
import type { ReportReader } from './report-reader.js';
import type { FeedbackEvent } from './report-event.js';

export interface BounceMailboxOptions {
  /** BOUNCE_IMAP_URL: imaps://user:password@host:993/INBOX (imap:// for a server on this machine). */
  url: string;
  /** BOUNCE_ADDRESS: the reports come back to bounces+<token>@ this address. */
  bounceAddress: string;
  tokens: MessageTokens;
  /** Stores and acts on one report's events; it stores each once, so a report read twice acts once. A throw leaves the report in the mailbox. */
  onEvents: (events: FeedbackEvent[]) => Promise<unknown>;
  logger: FastifyBaseLogger;
  /** Where a message that is not a report of ours goes (created if missing). */
  unmatchedFolder?: string;
  /** Where a report acted on goes; by default it is deleted. */
  processedFolder?: string;
  /** BOUNCE_MAX_BYTES: a larger message is never fetched, and goes to tooLargeFolder. */
  maxBytes?: number;
  tooLargeFolder?: string;
  /** Where a report goes that could not be stored while the database answered. */
  notStoredFolder?: string;
  /** Whether the database answers now: tells a report that cannot be stored from storage that is away. */
  storageUp?: () => Promise<boolean>;
  /**
   * Reads a message: the server's reads in a worker thread with a time limit (report-reader.ts);
   * by default here, in this thread. A message it gives up on goes to tooSlowFolder.
   */
  reader?: ReportReader;
  tooSlowFolder?: string;
}

/** BOUNCE_MAX_BYTES by default: a bounce or a complaint is a few kilobytes; 2 MB holds one with its message. */
export const DEFAULT_BOUNCE_MAX_BYTES = 2 * 1024 * 1024;

export interface MailboxCheck {
  /** Reports acted on and gone from the mailbox. */
  matched: number;
  /** Messages moved to the unmatched folder. */
  unmatched: number;
  /** Messages moved aside (too large, or a report that could not be stored), when there were any. */
  setAside?: number;
}

export interface BounceMailbox {
  /** Lets a check under way finish (closing its connection if it will not), and closes the reader. */
  stop(): Promise<void>;
  /** Reads every message in the mailbox once; rejects when the mailbox cannot be read. */
  checkNow(): Promise<MailboxCheck>;
}

/** Where BOUNCE_IMAP_URL points. */
export interface ImapLocation {
  host: string;
  port: number;
  /** imaps://: TLS from the first byte. */
  secure: boolean;
  /** imap:// to another machine: the connection must upgrade with STARTTLS before the password is sent. */
  requireStartTls: boolean;
  user: string;
  password: string;
  mailbox: string;
}

/** How long stop() waits for the report being handled before it closes the connection. */
const STOP_GRACE_MS = 10_000;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1)$/i;

export function parseImapUrl(url: string): ImapLocation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('The bounce mailbox URL is not a URL (imaps://user:password@host:993/INBOX).');
  }
  if (parsed.protocol !== 'imaps:' && parsed.protocol !== 'imap:')
    throw new Error('The bounce mailbox URL must start with imaps:// (or imap:// for a server on this machine).');
  if (!parsed.username || !parsed.password)
    throw new Error('The bounce mailbox URL needs a user name and a password (imaps://user:password@host:993/INBOX).');
  const secure = parsed.protocol === 'imaps:';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return {
    host,
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    requireStartTls: !secure && !LOOPBACK.test(host),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    mailbox: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'INBOX',
  };
}

/** A connection to the mailbox's server (not yet opened), as every reader of a mailbox makes it. */
export function imapConnection(location: ImapLocation): ImapFlow {
  const connection = new ImapFlow({
    host: location.host,
    port: location.port,
    secure: location.secure,
    ...(location.requireStartTls ? { doSTARTTLS: true } : {}),
    auth: { user: location.user, pass: location.password },
    disableAutoIdle: true,
    logger: false,
  });
  // A failed command rejects its own promise; the 'error' event only repeats it.
  connection.on('error', () => undefined);
  return connection;
}

/** The fields imapflow (and Node's sockets) put on their errors. */
interface ImapError {
  authenticationFailed?: boolean;
  mailboxMissing?: boolean;
  code?: string;
  serverResponseCode?: string;
  responseText?: string;
  message?: string;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'NoConnection',
  'ClosedAfterConnectText',
  'ClosedAfterConnectTLS',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
]);

/** What an error said, addresses removed, cut short. */
function errorWords(error: unknown): string {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as ImapError;
  const words = withoutAddresses(fields.responseText ?? fields.message ?? String(error));
  return words.length > 200 ? `${words.slice(0, 199)}…` : words;
}

/** Why the mailbox could not be read: a kind (one log line per streak of it) and plain words for the owner. */
function trouble(error: unknown, mailbox: string): { kind: string; reason: string } {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as ImapError;
  if (fields.authenticationFailed)
    return { kind: 'sign-in', reason: 'the mail server refused the user name or password in BOUNCE_IMAP_URL' };
  if (fields.mailboxMissing || fields.serverResponseCode === 'NONEXISTENT')
    return { kind: 'mailbox', reason: `the mail server has no mailbox "${mailbox}" for this user` };
  if (UNREACHABLE.has(fields.code ?? ''))
    return { kind: 'unreachable', reason: `the mail server did not answer (${fields.code})` };
  return { kind: 'other', reason: `the mail server answered "${errorWords(error)}"` };
}

export function createBounceMailbox(options: BounceMailboxOptions): BounceMailbox {
  const {
    bounceAddress,
    tokens,
    onEvents,
    logger,
    unmatchedFolder = 'Unmatched',
    processedFolder,
    maxBytes = DEFAULT_BOUNCE_MAX_BYTES,
    tooLargeFolder = 'Too large',
    notStoredFolder = 'Not stored',
    storageUp,
    reader = {
      read: (raw: Buffer) => parseDeliveryReport(raw, { bounceAddress, tokens }),
      close: async () => undefined,
    },
    tooSlowFolder = 'Too slow',
  } = options;
  const location = parseImapUrl(options.url);
  let running: Promise<MailboxCheck> | undefined;
  /** The check's connection, and whether it is still being opened. */
  let client: { connection: ImapFlow; opening: boolean } | undefined;
  let stopped = false;
  /** The kind of trouble the owner was told about, until a check goes through again. */
  let failing: string | undefined;

  /** Tells the owner once per failing streak (and again if its kind changes). */
  const reportTrouble = (kind: string, what: string, err: string) => {
    if (failing === kind) return;
    failing = kind;
    logger.error({ err, kind }, `bounce mailbox: ${what}; it is read again at the next check`);
  };

  async function check(): Promise<MailboxCheck> {
    const result: MailboxCheck = { matched: 0, unmatched: 0 };
    const connection = imapConnection(location);
    const current = { connection, opening: true };
    client = current;
    /** Something went wrong in this check that the owner was told of: it is no sign of recovery. */
    let troubled = false;
    try {
      await connection.connect();
      current.opening = false;
      const lock = await connection.getMailboxLock(location.mailbox);
      try {
        const created = new Set<string>();
        const moveTo = async (uid: number, folder: string) => {
          if (!created.has(folder)) {
            await connection.mailboxCreate(folder); // answers "already there" without failing
            created.add(folder);
          }
          // false: it is gone already (another instance of the site reading the same mailbox).
          await connection.messageMove(String(uid), folder, { uid: true });
        };
        /** Moves a message aside for a person to read; false (and said once) when the folder cannot be made. */
        const setAside = async (uid: number, folder: string, reason: string): Promise<boolean> => {
          try {
            await moveTo(uid, folder);
          } catch (error) {
            // A server that will not make the folder must not hold up the reports after this one.
            troubled = true;
            reportTrouble(
              `folder ${folder}`,
              `messages cannot be moved to "${folder}", and stay in the mailbox`,
              errorWords(error),
            );
            return false;
          }
          logger.warn({ reason }, `bounce mailbox: a message moved to ${folder}`);
          result.setAside = (result.setAside ?? 0) + 1;
          return true;
        };
        const uids = (await connection.search({ all: true }, { uid: true })) || [];
        for (const uid of uids) {
          if (stopped) break;
          // Its size first: a message too large to be a report is never fetched whole.
          const head = await connection.fetchOne(String(uid), { size: true }, { uid: true });
          if (!head) continue;
          if ((head.size ?? 0) > maxBytes) {
            await setAside(uid, tooLargeFolder, `${head.size} bytes, more than BOUNCE_MAX_BYTES (${maxBytes})`);
            continue;
          }
          const message = await connection.fetchOne(String(uid), { source: true }, { uid: true });
          if (!message || !message.source) continue;
          let report: ReadReport;
          try {
            const answer = await reader.read(message.source);
            if ('tooSlow' in answer) {
              await setAside(uid, tooSlowFolder, 'reading it took longer than its time limit');
              continue;
            }
            report = answer;
          } catch (error) {
            report = { events: [], unmatched: `it could not be read: ${errorWords(error)}` };
          }
          if (report.unmatched !== undefined) {
            try {
              await moveTo(uid, unmatchedFolder);
            } catch (error) {
              // A server that will not make the folder must not hold up the reports after this one.
              troubled = true;
              reportTrouble(
                'unmatched-folder',
                `messages that are not reports of ours cannot be moved to "${unmatchedFolder}", and stay in the mailbox`,
                errorWords(error),
              );
              continue;
            }
            result.unmatched += 1;
            logger.info({ reason: report.unmatched }, `bounce mailbox: a message moved to ${unmatchedFolder}`);
            continue;
          }
          try {
            await onEvents(report.events);
          } catch (error) {
            // The database answers, so this report itself could not be stored: set aside, and on.
            if (storageUp && (await storageUp().catch(() => false))) {
              await setAside(uid, notStoredFolder, `could not be stored: ${errorWords(error)}`);
              continue;
            }
            // Storage is away: this report and the rest wait in the mailbox for the next check.
            troubled = true;
            reportTrouble(
              'storage',
              'the reports read could not be stored, and wait in the mailbox',
              errorWords(error),
            );
            break;
          }
          if (processedFolder) await moveTo(uid, processedFolder);
          else await connection.messageDelete(String(uid), { uid: true });
          result.matched += 1;
        }
      } finally {
        lock.release();
      }
      await connection.logout().catch(() => connection.close());
    } catch (error) {
      connection.close();
      if (!stopped) {
        const { kind, reason } = trouble(error, location.mailbox);
        reportTrouble(kind, `it cannot be read just now: ${reason}`, errorWords(error));
      }
      throw error;
    } finally {
      if (client === current) client = undefined;
    }
    if (!troubled && failing !== undefined) {
      failing = undefined;
      logger.info('bounce mailbox: reading it again');
    }
    return result;
  }

  function checkNow(): Promise<MailboxCheck> {
    running ??= check().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    async stop() {
      stopped = true;
      // A report being handled is finished (handed on and removed), unless the server stops answering.
      if (client?.opening) client.connection.close();
      const finished = running?.then(
        () => true,
        () => true,
      );
      const grace = new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS).unref());
      if (finished && !(await Promise.race([finished, grace]))) client?.connection.close();
      await finished;
      await reader.close();
    },
    checkNow,
  };
}
