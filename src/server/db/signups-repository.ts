// Sign-ups: written through the engine's hand-tuned writer (group commit), read back once in
// Kysely for both engines (the export, counts and the owner's figures).
import { LANGUAGES, type Language } from '../../shared/languages.js';
import { sql } from 'kysely';
import type { SignupInput, SignupRecord } from '../../shared/signup-schema.js';
import { recordFromColumns } from './signup-row.js';
import { isSignupId } from './column-types.js';
import { NO_CAMPAIGN } from './signup-row.js';
import type { QueryContext } from './sql-dialect.js';
import { firstDay } from './utc-days.js';
import type { SignupAdded, SignupVia } from './signup-writer.js';

export interface SignupFilter {
  /** Only sign-ups first stored at or after this moment. */
  since?: Date;
  /** Only sign-ups that asked to beta test. */
  betaOnly?: boolean;
}

export interface CountedLabel {
  label: string;
  count: number;
}

export interface SignupStats {
  /** People on the list (one record per email). */
  total: number;
  /** Sign-up submissions, repeats included. */
  submissions: number;
  /** People who asked to beta test. */
  betaTesting: number;
  /** People who confirmed their email (EMAIL_CONFIRMATION); 0 while confirmation has never been on. */
  confirmed: number;
  /** New people per UTC day, oldest first, for the days asked (days without any are left out). */
  byDay: CountedLabel[];
  /** People who came through a family member's link (?ref=) whose owner is on record. */
  throughFamily: number;
  /** Of the new people per day, those who came through a family member's link (days without any left out). */
  throughFamilyByDay: CountedLabel[];
  /** utm_source, else the referring site, else "(direct)". */
  topSources: CountedLabel[];
  /** utm_campaign, else "(none)". */
  topCampaigns: CountedLabel[];
  /** People by the language their messages go in (issue 45), every language listed. */
  byLanguage: { language: Language; count: number }[];
}

export interface StatsOptions {
  /** How many UTC days back, counting today, `byDay` covers. */
  days: number;
  /** How many entries the top lists keep. */
  top: number;
  now?: Date;
}

const LIST_BATCH_SIZE = 1000;

export class SignupsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Stores a sign-up and resolves once it is durable. A second sign-up with the same email
   * (compared by `emailKey`) keeps the first record: beta interest is turned on if either asked,
   * and `lastSeenAt` and `signupCount` are updated (signup-upsert.ts). Either way it only says
   * "stored" (spec section 7 reads the answer only as success or failure), which keeps writes lean.
   */
  add(input: SignupInput, via?: SignupVia): Promise<SignupAdded> {
    return this.context.writer.add(input, via);
  }

  /** Records in the order they were first stored, read in batches so a large list never sits in memory. */
  async *list(filter: SignupFilter = {}): AsyncIterable<SignupRecord> {
    // rowid (SQLite) and seq (PostgreSQL) are insertion order, so sign-ups within one millisecond keep theirs too.
    const position = sql.ref<number | string>(this.context.dialect.insertionOrder);
    let query = this.context.db
      .selectFrom('signups')
      .selectAll()
      .select(position.as('position'))
      .orderBy(position)
      .limit(LIST_BATCH_SIZE);
    if (filter.since) query = query.where('created_at', '>=', filter.since.toISOString());
    if (filter.betaOnly) query = query.where(sql<boolean>`beta_testing`);
    let after: number | string = 0;
    for (;;) {
      const rows = await query.where(position, '>', after).execute();
      for (const row of rows) yield recordFromColumns(row);
      const last = rows.at(-1);
      if (!last || rows.length < LIST_BATCH_SIZE) return;
      after = last.position;
    }
  }

  /**
   * A page of records, newest first (issue 56's API): those stored before the record at `before` (an
   * insertion position a page handed out), first stored at or after `since`. `next` is the position
   * to ask for the page after, or undefined on the last page. Cursor-paged, never by offset, so a
   * sign-up stored meanwhile neither repeats nor skips a record.
   */
  async newestFirst({
    before,
    since,
    limit,
  }: {
    before?: string | undefined;
    since?: Date | undefined;
    limit: number;
  }) {
    const position = sql.ref<number | string>(this.context.dialect.insertionOrder);
    let query = this.context.db
      .selectFrom('signups')
      .selectAll()
      .select(position.as('position'))
      .orderBy(position, 'desc')
      .limit(limit + 1);
    if (before !== undefined) query = query.where(position, '<', before);
    if (since) query = query.where('created_at', '>=', since.toISOString());
    const rows = await query.execute();
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? page.at(-1)?.position : undefined;
    return { records: page.map((row) => recordFromColumns(row)), next: next === undefined ? undefined : String(next) };
  }

  /** One record by its id, as the export shows it; undefined for none. */
  async record(id: string): Promise<SignupRecord | undefined> {
    if (!isSignupId(id)) return undefined;
    const row = await this.context.db.selectFrom('signups').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? recordFromColumns(row) : undefined;
  }

  /** People in all, those first stored since `dayStart`, and those who came through a family link: one pass (Slack's line). */
  async growth(dayStart: Date): Promise<{ total: number; today: number; throughFamily: number }> {
    const row = await this.context.db
      .selectFrom('signups')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('total'),
        sql<number | string>`count(*) FILTER (WHERE created_at >= ${dayStart.toISOString()})`.as('today'),
        eb.fn.count<number | string>('referred_by').as('family'),
      ])
      .executeTakeFirst();
    return { total: Number(row?.total ?? 0), today: Number(row?.today ?? 0), throughFamily: Number(row?.family ?? 0) };
  }

  async count(): Promise<number> {
    const row = await this.context.db
      .selectFrom('signups')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The owner's figures, counted by the database (GROUP BY), never by reading every row here. */
  /** How many people joined through this person's link (while they are on record). */
  async joinedThrough(id: string): Promise<number> {
    const row = await this.context.db
      .selectFrom('signups')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('referred_by', 'in', (eb) => eb.selectFrom('signups').select('referral_code').where('id', '=', id))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private newPerDay(day: ReturnType<QueryContext['dialect']['utcDay']>, since: string) {
    return this.context.db
      .selectFrom('signups')
      .select((eb) => [day.as('label'), eb.fn.countAll().as('count')])
      .where('created_at', '>=', this.context.dialect.dayStart(since))
      .groupBy(sql`label`)
      .orderBy('label');
  }

  async stats({ days, top, now = this.context.now() }: StatsOptions): Promise<SignupStats> {
    const day = this.context.dialect.utcDay('created_at');
    const counted = (rows: { label: string; count: number | string | bigint }[]) =>
      rows.map((row) => ({ label: row.label, count: Number(row.count) }));
    const campaign = sql<string>`coalesce(utm_campaign, ${NO_CAMPAIGN})`;
    const [totals, byDay, throughFamilyByDay, topSources, topCampaigns] = await Promise.all([
      this.context.db
        .selectFrom('signups')
        .select((eb) => [
          eb.fn.countAll().as('total'),
          sql<number | string>`coalesce(sum(signup_count), 0)`.as('submissions'),
          sql<number | string>`count(*) FILTER (WHERE beta_testing)`.as('beta'),
          eb.fn.count('confirmed_at').as('confirmed'),
          eb.fn.count('referred_by').as('throughFamily'),
          // People by the language their messages go in (issue 45), in the same pass.
          ...LANGUAGES.map((language) =>
            sql<number | string>`count(*) FILTER (WHERE language = ${sql.lit(language)})`.as(`language_${language}`),
          ),
        ])
        .executeTakeFirst(),
      this.newPerDay(day, firstDay(now, days)).execute(),
      this.newPerDay(day, firstDay(now, days)).where('referred_by', 'is not', null).execute(),
      this.context.db
        .selectFrom('signups')
        .select((eb) => ['source as label', eb.fn.countAll().as('count')])
        .groupBy('source')
        .orderBy('count', 'desc')
        .orderBy('label')
        .limit(top)
        .execute(),
      this.context.db
        .selectFrom('signups')
        .select((eb) => [campaign.as('label'), eb.fn.countAll().as('count')])
        .groupBy(sql`label`)
        .orderBy('count', 'desc')
        .orderBy('label')
        .limit(top)
        .execute(),
    ]);
    return {
      total: Number(totals?.total ?? 0),
      submissions: Number(totals?.submissions ?? 0),
      betaTesting: Number(totals?.beta ?? 0),
      confirmed: Number(totals?.confirmed ?? 0),
      byDay: counted(byDay),
      throughFamily: Number(totals?.throughFamily ?? 0),
      throughFamilyByDay: counted(throughFamilyByDay),
      topSources: counted(topSources),
      topCampaigns: counted(topCampaigns),
      byLanguage: LANGUAGES.map((language) => ({
        language,
        count: Number((totals as Record<string, unknown> | undefined)?.[`language_${language}`] ?? 0),
      })),
    };
  }
}
