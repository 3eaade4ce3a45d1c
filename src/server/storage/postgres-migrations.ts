// Numbered schema changes for PostgreSQL, applied in order on start; never edit one that has shipped.

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
];
