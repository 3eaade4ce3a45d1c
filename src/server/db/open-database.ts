// Opens the database DATABASE_URL names (an SQLite file, or PostgreSQL), brings its schema up to
// date, and hands out one repository per domain over one Kysely<Database>.
import { RestoreMarksRepository } from './restore-marks-repository.js';
import { WebhookSignaturesRepository } from './webhook-signatures-repository.js';
import { CarryOverRepository } from './carry-over.js';
import { SecretKeysRepository } from './secret-keys-repository.js';
import { JoiningTextsRepository } from './joining-texts-repository.js';
import { MessageQueueRepository } from './message-queue-repository.js';
import { InboundTextsRepository } from './inbound-texts-repository.js';
import { SmsRepliesRepository } from './sms-replies-repository.js';
import { NumbersRepository } from './numbers-repository.js';
import { oneTransaction } from './one-transaction.js';
import { BackgroundJobsRepository } from './background-jobs-repository.js';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { ImmediateSqliteDialect, keepingStatements } from './sqlite-immediate-dialect.js';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Engine } from './column-types.js';
import { ConfirmationQueueRepository } from './confirmation-queue-repository.js';
import { ConsentEventsRepository } from './consent-events-repository.js';
import { OptOutsRepository } from './opt-outs-repository.js';
import { PhoneChangeQueueRepository } from './phone-change-queue-repository.js';
import { SubscribersRepository } from './subscribers-repository.js';
import type { Database } from './database.js';
import { EventsRepository } from './events-repository.js';
import { FeedbackEventsRepository } from './feedback-events-repository.js';
import { MessageHealthRepository } from './message-health-repository.js';
import { SentMessagesRepository } from './sent-messages-repository.js';
import { SuppressionsRepository } from './suppressions-repository.js';
import { BroadcastPausesRepository } from './broadcast-pauses-repository.js';
import { BroadcastRecipientsRepository } from './broadcast-recipients-repository.js';
import { BroadcastSendersRepository } from './broadcast-senders-repository.js';
import { BroadcastsRepository } from './broadcasts-repository.js';
import { OutboxRepository } from './outbox-repository.js';
import { OutboxRefusalsRepository } from './outbox-refusals-repository.js';
import { OwnerRepository } from './owner-repository.js';
import { ApiKeysRepository } from './api-keys-repository.js';
import { WebhooksRepository } from './webhooks-repository.js';
import { ConsentTextsRepository } from './consent-texts-repository.js';
import { BackupRunsRepository } from './backup-runs-repository.js';
import { assertPostgresMigrated, assertSqliteMigrated, migratePostgres, migrateSqlite } from './migrate.js';
import { PostgresSignupWriter, withSynchronousCommit } from './postgres-signup-writer.js';
import type { SignupWriter, SignupWriterOptions } from './signup-writer.js';
import { SignupsRepository } from './signups-repository.js';
import { postgresDialect, sqliteDialect, type SqlDialect } from './sql-dialect.js';
import { openSqlite } from './sqlite-shared.js';
import { SqliteSignupWriter } from './sqlite-signup-writer.js';

/** The open database: one repository per domain, each written once for both engines. */
export interface Db {
  readonly engine: Engine;
  readonly signups: SignupsRepository;
  /** The page's first-party events and the funnel. */
  readonly events: EventsRepository;
  /** The people on the list as messaging reads them; confirming, preferences, details. */
  readonly subscribers: SubscribersRepository;
  /** Leaving, deleting, STOP and START, undeliverable addresses: each with its suppression. */
  readonly optOuts: OptOutsRepository;
  /** Every change of someone's consent. */
  readonly consentEvents: ConsentEventsRepository;
  /** The confirmation emails and their reminder, as a queue. */
  readonly confirmations: ConfirmationQueueRepository;
  /** The emails about a new phone number, as a queue. */
  readonly phoneChanges: PhoneChangeQueueRepository;
  /** The suppression list (its entries; what they mean is consent/contact-rule.ts's to say). */
  readonly suppressions: SuppressionsRepository;
  /** Launch-day broadcasts: what each sends, and its state. */
  readonly broadcasts: BroadcastsRepository;
  /** The processes sending a broadcast, and their heartbeats. */
  readonly broadcastSenders: BroadcastSendersRepository;
  /** Channels paused by a failure of ours, until the owner resumes. */
  readonly broadcastPauses: BroadcastPausesRepository;
  /** The outbox: a broadcast's messages, one per person and channel. */
  readonly outbox: OutboxRepository;
  /** What the outbox says about refusals (by domain, and each person's last answer). */
  readonly outboxRefusals: OutboxRefusalsRepository;
  /** Who a broadcast goes to, read from the sign-ups. */
  readonly broadcastRecipients: BroadcastRecipientsRepository;
  /** The message log: every message sent, by its token, and its state. */
  readonly sentMessages: SentMessagesRepository;
  /** The reports about our messages, each stored once. */
  readonly feedbackEvents: FeedbackEventsRepository;
  /** How the messages are faring: a broadcast channel's rates, the list's health. */
  readonly messageHealth: MessageHealthRepository;
  /** The dashboard's owners, their sign-in links and sessions, and the audit log. */
  readonly owners: OwnerRepository;
  /** The owner's API keys (issue 56), kept as hashes. */
  readonly apiKeys: ApiKeysRepository;
  /** The owner's webhook endpoints and the events they are told of (issue 56). */
  readonly webhooks: WebhooksRepository;
  /** The exact words each place a choice is made on showed, kept for the proof of consent (issue 56). */
  readonly consentTexts: ConsentTextsRepository;
  /** Every backup made and how it ended. */
  readonly backupRuns: BackupRunsRepository;
  /** Who is due the joining text (decision 041), and whether a number had one. */
  readonly joiningTexts: JoiningTextsRepository;
  /** The outbox's rows of every kind but a broadcast's: claimed, sent, tried again (decision 052). */
  readonly messageQueue: MessageQueueRepository;
  /** Inbound texts already acted on, by provider id. */
  readonly inboundTexts: InboundTextsRepository;
  readonly smsReplies: SmsRepliesRepository;
  /** The stored numbers not yet in E.164, for the job that rewrites them (issue 54). */
  readonly numbers: NumbersRepository;
  /** The SECRET_KEYs this database's hashes and links were made with, by fingerprint. */
  readonly secretKeys: SecretKeysRepository;
  /** What a restore carries from the database it replaces (decision 041). */
  readonly carryOver: CarryOverRepository;
  /** Restores that could not read what they replaced: broadcasts wait until each is settled. */
  readonly restoreMarks: RestoreMarksRepository;
  /** One-use signature tokens of provider webhooks that do not sign the body (Mailgun). */
  readonly webhookSignatures: WebhookSignaturesRepository;
  /** The recurring jobs' record: last run, next run, last failure, and one-instance leases. */
  readonly backgroundJobs: BackgroundJobsRepository;
  /**
   * A batch of provider reports' writes as one transaction (bounces/act-on-reports.ts): the
   * signatures remembered, the messages moved on, the reports stored; one commit a batch.
   */
  reportsTransaction<T>(work: (stores: ReportStores) => Promise<T>): Promise<T>;
  /** Resolves if the database answers a trivial query; rejects if it cannot be reached. */
  ping(): Promise<void>;
  /** Writes what was already accepted, then closes every connection. */
  close(): Promise<void>;
}

/** The repositories a batch of reports writes, bound to one transaction. */
export type ReportStores = Pick<Db, 'sentMessages' | 'feedbackEvents' | 'webhookSignatures'>;

/** What a broadcast's parts read and write: the broadcasts, their senders, pauses, outbox and recipients. */
export type BroadcastDb = Pick<
  Db,
  | 'broadcasts'
  | 'broadcastSenders'
  | 'broadcastPauses'
  | 'outbox'
  | 'outboxRefusals'
  | 'broadcastRecipients'
  | 'restoreMarks'
> & {
  /** The message log, for the gate's "each kind of text to each number once, ever". */
  sentMessages?: Pick<Db['sentMessages'], 'addressesSent'>;
};

export interface OpenDatabaseOptions extends Partial<SignupWriterOptions> {
  /** Create or update the schema (the server and db:migrate do; export and stats only read). */
  migrate?: boolean;
  /**
   * SQLite: how long a write waits its turn while another process writes. The server waits a few
   * seconds (a request must not hang); an owner's command waits as long as a launch send may take.
   */
  busyTimeoutMs?: number;
}

/** How long the server's own writes wait for another process's lock (SQLite). */
export const SERVER_BUSY_TIMEOUT_MS = 5000;
/** How long an owner's command waits its turn: a deletion or an import during a launch send succeeds. */
export const COMMAND_BUSY_TIMEOUT_MS = 120_000;

export async function openDatabase(
  database: DatabaseConfig,
  {
    migrate = true,
    confirmSignups = false,
    now = () => new Date(),
    newId = randomUUID,
    busyTimeoutMs = SERVER_BUSY_TIMEOUT_MS,
  }: OpenDatabaseOptions = {},
): Promise<Db> {
  const writerOptions = { confirmSignups, now, newId };
  switch (database.kind) {
    case 'sqlite': {
      if (migrate) mkdirSync(path.dirname(database.file), { recursive: true });
      // The owner's commands must not create an empty database where they expected one.
      const connection = openSqlite(database.file, { fileMustExist: !migrate }, busyTimeoutMs);
      try {
        if (migrate) await migrateSqlite(connection);
        else await assertSqliteMigrated(connection);
      } catch (error) {
        connection.close();
        throw error;
      }
      // Reads and the repositories' few writes share this thread's connection (one Kysely, one
      // queue, so their transactions never interleave); sign-ups go through the writer thread's.
      const kysely = new Kysely<Database>({
        dialect: new ImmediateSqliteDialect({ database: keepingStatements(connection) }),
      });
      // Kysely closes the connection only if a query of its own opened its driver: closed here as well.
      return handle(kysely, sqliteDialect, new SqliteSignupWriter(database.file, writerOptions), now, () => {
        if (connection.open) connection.close();
      });
    }
    case 'postgres': {
      const pool = new pg.Pool({
        connectionString: withSynchronousCommit(database.url),
        max: database.poolSize,
        connectionTimeoutMillis: 2000, // an unreachable database is answered with 503 quickly
      });
      // An idle connection that drops (a database restart) must not crash the process.
      pool.on('error', () => undefined);
      // Nor one in use: pg emits 'error' on a checked-out client whose connection ends (the network
      // to the database cut mid-transaction), and the pool listens only to idle ones. The query in
      // flight is rejected all the same, and the pool drops the broken client when it comes back.
      pool.on('connect', (client) => client.on('error', () => undefined));
      try {
        if (migrate) await migratePostgres(pool);
        else await assertPostgresMigrated(pool);
      } catch (error) {
        await pool.end();
        throw error;
      }
      const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      return handle(kysely, postgresDialect, new PostgresSignupWriter(pool, writerOptions), now);
    }
  }
}

function handle(
  kysely: Kysely<Database>,
  dialect: SqlDialect,
  writer: SignupWriter,
  now: () => Date,
  closeConnection: () => void = () => undefined,
): Db {
  const { engine } = dialect;
  const context = { db: kysely, dialect, writer, now };
  let closing: Promise<void> | undefined;
  const webhookSignatures = new WebhookSignaturesRepository(context);
  return {
    engine,
    signups: new SignupsRepository({ db: kysely, dialect, writer, now }),
    events: new EventsRepository({ db: kysely, dialect, writer, now }),
    subscribers: new SubscribersRepository(context),
    optOuts: new OptOutsRepository(context),
    consentEvents: new ConsentEventsRepository(context),
    confirmations: new ConfirmationQueueRepository(context),
    phoneChanges: new PhoneChangeQueueRepository(context),
    suppressions: new SuppressionsRepository(context),
    broadcasts: new BroadcastsRepository(context),
    broadcastSenders: new BroadcastSendersRepository(context),
    broadcastPauses: new BroadcastPausesRepository(context),
    outbox: new OutboxRepository(context),
    outboxRefusals: new OutboxRefusalsRepository(context),
    broadcastRecipients: new BroadcastRecipientsRepository(context),
    sentMessages: new SentMessagesRepository(context),
    feedbackEvents: new FeedbackEventsRepository(context),
    messageHealth: new MessageHealthRepository(context),
    owners: new OwnerRepository(context),
    apiKeys: new ApiKeysRepository(context),
    webhooks: new WebhooksRepository(context),
    consentTexts: new ConsentTextsRepository(context),
    backupRuns: new BackupRunsRepository(context),
    joiningTexts: new JoiningTextsRepository(context),
    messageQueue: new MessageQueueRepository(context),
    inboundTexts: new InboundTextsRepository(context),
    smsReplies: new SmsRepliesRepository(context),
    numbers: new NumbersRepository(context),
    secretKeys: new SecretKeysRepository(context),
    carryOver: new CarryOverRepository(context),
    restoreMarks: new RestoreMarksRepository(context),
    webhookSignatures,
    backgroundJobs: new BackgroundJobsRepository(context),
    reportsTransaction: (work) =>
      oneTransaction(kysely, engine, (trx) => {
        const bound = { ...context, db: trx };
        return work({
          sentMessages: new SentMessagesRepository(bound),
          feedbackEvents: new FeedbackEventsRepository(bound),
          webhookSignatures: webhookSignatures.on(bound),
        });
      }),
    async ping() {
      await sql`SELECT 1 FROM signups LIMIT 1`.execute(kysely);
    },
    close() {
      // Everything already accepted is written before the connections close.
      closing ??= writer
        .close()
        .then(() => kysely.destroy())
        .then(closeConnection);
      return closing;
    },
  };
}
