// Numbered schema changes for PostgreSQL, applied in order on start; never edit one that has shipped.
// Same version and name as SQLite's for the same change (sqlite-migrations.ts).

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

export const postgresMigrations: PostgresMigration[] = [
  {
    version: 1,
    name: 'create-signups',
    sql: `
      CREATE TABLE signups (
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id uuid PRIMARY KEY,
        name text NOT NULL,
        phone text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL UNIQUE,
        beta_testing boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        signup_count integer NOT NULL DEFAULT 1,
        utm_source text,
        utm_medium text,
        utm_campaign text,
        utm_term text,
        utm_content text,
        referrer text,
        landing_path text,
        button text,
        source text NOT NULL DEFAULT '(direct)',
        consent_version text
      );
      CREATE INDEX signups_created_at ON signups (created_at);
    `,
  },
  {
    version: 2,
    name: 'one-record-per-email-and-attribution',
    // Nothing to do: PostgreSQL's version 1 already creates these columns and the unique email_key.
    // It is here so that both engines number the same change the same way. Databases from before the numbers were unified recorded 3..6
    // as 2..5; the runner (migrate.ts) moves those rows forward by name.
    sql: '',
  },
  {
    version: 3,
    name: 'create-analytics-events',
    // The page's first-party events: what happened and on which page, never who or from where.
    sql: `
      CREATE TABLE analytics_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        page_name text NOT NULL,
        params jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX analytics_events_created_at ON analytics_events (created_at);
    `,
  },
  {
    version: 4,
    name: 'messaging',
    // Confirmation, opt-outs and leaving live on the sign-up; every change of consent is a row of
    // consent_events; the suppression list keeps keyed hashes only, so it can outlive a deletion.
    sql: `
      ALTER TABLE signups
        ADD COLUMN confirmed_at timestamptz,
        ADD COLUMN confirm_requested_at timestamptz,
        ADD COLUMN confirm_sent_at timestamptz,
        ADD COLUMN confirm_attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN confirm_error text,
        ADD COLUMN email_opt_out_at timestamptz,
        ADD COLUMN sms_opt_out_at timestamptz,
        ADD COLUMN left_at timestamptz;
      CREATE INDEX signups_confirm_due ON signups (confirm_requested_at) WHERE confirm_requested_at IS NOT NULL;
      CREATE INDEX signups_phone ON signups (phone);
      CREATE TABLE consent_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        signup_id uuid NOT NULL,
        kind text NOT NULL,
        source text NOT NULL,
        consent_version text,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX consent_events_signup ON consent_events (signup_id, id);
      CREATE TABLE suppressions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('email', 'phone')),
        address_hash text NOT NULL,
        reason text NOT NULL,
        source text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX suppressions_address ON suppressions (kind, address_hash, created_at);
    `,
  },
  {
    version: 5,
    name: 'broadcasts',
    // Launch day (docs/launch-day.md, decision 023): a broadcast, its outbox (one row per person
    // and channel, unique, with its state), and the senders working on it, who claim rows with
    // FOR UPDATE SKIP LOCKED.
    sql: `
      CREATE TABLE broadcasts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL UNIQUE,
        template text NOT NULL,
        segment text NOT NULL,
        channels text NOT NULL,
        include_unconfirmed boolean NOT NULL,
        content text NOT NULL,
        state text NOT NULL,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        finished_at timestamptz
      );
      CREATE TABLE broadcast_messages (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        broadcast_id bigint NOT NULL REFERENCES broadcasts (id),
        signup_id uuid NOT NULL,
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        state text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        claimed_by text,
        claimed_at timestamptz,
        sent_at timestamptz,
        provider_id text,
        error text,
        UNIQUE (broadcast_id, signup_id, channel)
      );
      CREATE INDEX broadcast_messages_due ON broadcast_messages (broadcast_id, channel, next_attempt_at, id)
        WHERE state IN ('queued', 'failed_temporary');
      CREATE INDEX broadcast_messages_state ON broadcast_messages (broadcast_id, state);
      CREATE TABLE broadcast_senders (
        id text PRIMARY KEY,
        broadcast_id bigint NOT NULL,
        slot integer UNIQUE,
        host text NOT NULL,
        pid integer NOT NULL,
        started_at timestamptz NOT NULL,
        heartbeat_at timestamptz NOT NULL,
        stopped_at timestamptz
      );
    `,
  },
  {
    version: 6,
    name: 'owners',
    // The owner's dashboard (docs/owner-guide.md, decision 024): who may sign in, their one-time
    // links and sessions (hashes of the secrets only), and the audit log of what they did.
    sql: `
      CREATE TABLE owners (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE owner_sign_in_links (
        token_hash text PRIMARY KEY,
        owner_id bigint NOT NULL REFERENCES owners (id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE TABLE owner_sessions (
        id_hash text PRIMARY KEY,
        owner_id bigint NOT NULL REFERENCES owners (id),
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        ended_at timestamptz
      );
      CREATE INDEX owner_sessions_owner ON owner_sessions (owner_id);
      CREATE TABLE owner_audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL,
        owner_email text NOT NULL,
        action text NOT NULL,
        subject text,
        detail text
      );
    `,
  },
  {
    version: 7,
    name: 'broadcast-pauses',
    // Launch day recovers (docs/launch-day.md, decision 026): whose fault each failure was, and a
    // channel paused by a failure of ours (credentials, an outage), with the reason the owner reads.
    sql: `
      ALTER TABLE broadcast_messages ADD COLUMN failure_kind text
        CHECK (failure_kind IN ('recipient', 'message', 'sender', 'unknown'));
      CREATE TABLE broadcast_pauses (
        broadcast_id bigint NOT NULL REFERENCES broadcasts (id),
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        cause text NOT NULL,
        reason text NOT NULL,
        answer text,
        paused_at timestamptz NOT NULL,
        PRIMARY KEY (broadcast_id, channel)
      );
    `,
  },
  {
    version: 8,
    name: 'feedback',
    // What comes back after a send (docs/messaging.md, "Hearing back"): every message sent, by its
    // signed token and the provider's ids, and every report about one, stored once per source and id.
    sql: `
      CREATE TABLE sent_messages (
        token text PRIMARY KEY,
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        purpose text NOT NULL,
        signup_id uuid,
        broadcast_id bigint,
        outbox_id bigint,
        address_hash text,
        message_id text,
        provider_id text,
        state text NOT NULL,
        created_at timestamptz NOT NULL,
        state_at timestamptz NOT NULL
      );
      CREATE INDEX sent_messages_provider_id ON sent_messages (provider_id);
      CREATE INDEX sent_messages_message_id ON sent_messages (message_id);
      CREATE INDEX sent_messages_broadcast ON sent_messages (broadcast_id, channel);
      CREATE INDEX sent_messages_signup ON sent_messages (signup_id);
      CREATE TABLE feedback_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source text NOT NULL,
        event_id text NOT NULL,
        kind text NOT NULL,
        token text,
        code text,
        detail text,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        UNIQUE (source, event_id)
      );
      CREATE INDEX feedback_events_token ON feedback_events (token, occurred_at);
      ALTER TABLE broadcasts ADD COLUMN health_accepted_at timestamptz;
    `,
  },
  {
    version: 9,
    name: 'broadcast-confirmation-rule',
    // Who a broadcast takes among the unconfirmed (decision 032): 'asked' (the default: everyone but
    // those asked to confirm who did not), 'confirmed_only', or 'everyone'. Broadcasts made before
    // keep what they meant.
    sql: `
      ALTER TABLE broadcasts ADD COLUMN confirmation text NOT NULL DEFAULT 'asked'
        CHECK (confirmation IN ('asked', 'confirmed_only', 'everyone'));
      UPDATE broadcasts SET confirmation = CASE WHEN include_unconfirmed THEN 'everyone' ELSE 'confirmed_only' END;
    `,
  },
  {
    version: 10,
    name: 'confirmation-reminder',
    // The one reminder an unconfirmed sign-up gets before it is deleted (CONFIRMATION_REMINDER_DAYS).
    sql: `ALTER TABLE signups ADD COLUMN confirm_reminded_at timestamptz;`,
  },
  {
    version: 11,
    name: 'phone-change-requests',
    // A repeat sign-up with another phone number asks the address on record first (decision 031):
    // the number asked for, when, when the email asking went out, and a sender's claim on it (a
    // lease, so a sender that dies mid-send leaves it for another). The index is small (only
    // waiting changes are in it): the mailer looks for them after every sign-up.
    sql: `
      ALTER TABLE signups ADD COLUMN phone_change_to text;
      ALTER TABLE signups ADD COLUMN phone_change_at timestamptz;
      ALTER TABLE signups ADD COLUMN phone_change_sent_at timestamptz;
      ALTER TABLE signups ADD COLUMN phone_change_claimed_at timestamptz;
      CREATE INDEX signups_phone_change_at ON signups (phone_change_at) WHERE phone_change_at IS NOT NULL;
    `,
  },
];
