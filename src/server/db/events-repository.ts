// The page's first-party events: recorded through the engine's writer (a few batches a second,
// never in a sign-up's transaction), counted once in Kysely for both engines (the funnel).
import { SCROLL_THRESHOLDS, type AnalyticsEvent, type ScrollPercentage } from '../../shared/analytics-events.js';
import { sql } from 'kysely';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../shared/languages.js';
import type { QueryContext } from './sql-dialect.js';
import { dayAfter, firstDay } from './utc-days.js';

/** The page name the landing page's events carry; anything else is another page (the 404 page). */
export const LANDING_PAGE_NAME = 'home';

export interface FunnelOptions {
  /** How many UTC days back, counting today, the funnel covers. */
  days: number;
  now?: Date;
  /** A row per day and page language (issue 45), each with its `language`; else a row per day. */
  byLanguage?: boolean;
}

/** One UTC day of the landing page's first-party events, counted in SQL. */
export interface FunnelDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** With `byLanguage`: the language of the page the events came from (events from before languages: English). */
  language?: Language;
  /** page_view events on the landing page (page_name "home"). */
  landingViews: number;
  /** sign_up_start: the sign-up dialog opened. */
  dialogOpens: number;
  /** sign_up: a sign-up the server accepted. */
  signups: number;
  /** form_submission events with success false. */
  formFailures: number;
  /** download_intent: an app-store button pressed. */
  downloadIntents: number;
  /** share: someone passed their link on ("Tell a family member"), any way, on any page. */
  shares: number;
  /** scroll_depth events on the landing page, per threshold reached. */
  scrollDepth: Record<ScrollPercentage, number>;
}

/** An analytics event as both engines store it: no visitor, address or browser, only the event. */
export interface EventRow {
  name: AnalyticsEvent['name'];
  pageName: string;
  /** The validated params, page_name included, as JSON: enough to re-validate the event as it was. */
  params: string;
  /** ISO 8601, or null for the database's clock. */
  createdAt: string | null;
}

export function toEventRow(event: AnalyticsEvent, at: Date | undefined): EventRow {
  return {
    name: event.name,
    pageName: event.params.page_name,
    params: JSON.stringify(event.params),
    createdAt: at ? at.toISOString() : null,
  };
}

export class EventsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Stores first-party analytics events (already validated) and resolves once they are written.
   * They are written in batches a little later than sign-ups and never ahead of them, since losing
   * an event is acceptable and losing a sign-up is not. `at` is when they happened; left out, the
   * database's clock at the write.
   */
  record(events: AnalyticsEvent[], at?: Date): Promise<void> {
    return this.context.writer.recordEvents(events, at);
  }

  /**
   * The landing page's funnel per UTC day, oldest first, for the days asked (days without events
   * are left out): one pass over the window's rows, counted by the database.
   */
  async funnel({ days, now = this.context.now(), byLanguage = false }: FunnelOptions): Promise<FunnelDay[]> {
    const day = this.context.dialect.utcDay('created_at');
    const language = sql<string>`coalesce(${this.context.dialect.jsonString('params', 'page_language')}, ${sql.lit(DEFAULT_LANGUAGE)})`;
    const param = (name: string) => this.context.dialect.jsonText('params', name);
    const rows = await this.context.db
      .selectFrom('analytics_events')
      .select((eb) => {
        const count = () => eb.fn.countAll();
        const onLanding = eb('page_name', '=', LANDING_PAGE_NAME);
        return [
          day.as('day'),
          ...(byLanguage ? [language.as('language')] : []),
          count()
            .filterWhere(eb.and([eb('name', '=', 'page_view'), onLanding]))
            .as('landing_views'),
          count().filterWhere('name', '=', 'sign_up_start').as('dialog_opens'),
          count().filterWhere('name', '=', 'sign_up').as('signups'),
          count()
            .filterWhere(eb.and([eb('name', '=', 'form_submission'), eb(param('success'), '=', 'false')]))
            .as('form_failures'),
          count().filterWhere('name', '=', 'download_intent').as('download_intents'),
          count().filterWhere('name', '=', 'share').as('shares'),
          ...SCROLL_THRESHOLDS.map((threshold) =>
            count()
              .filterWhere(
                eb.and([
                  eb('name', '=', 'scroll_depth'),
                  onLanding,
                  eb(param('scroll_percentage'), '=', String(threshold)),
                ]),
              )
              .as(`scroll_${threshold}`),
          ),
        ];
      })
      .where('created_at', '>=', this.context.dialect.dayStart(firstDay(now, days)))
      .where('created_at', '<', this.context.dialect.dayStart(dayAfter(now)))
      .$if(byLanguage, (query) => query.groupBy([day, language]).orderBy('day').orderBy(language))
      .$if(!byLanguage, (query) => query.groupBy(day).orderBy('day'))
      .execute();
    return rows.map((row) => {
      const counts = row as unknown as Record<string, number | string | bigint>;
      const scrollDepth = Object.fromEntries(
        SCROLL_THRESHOLDS.map((threshold) => [threshold, Number(counts[`scroll_${threshold}`])]),
      ) as Record<ScrollPercentage, number>;
      const said = (row as { language?: unknown }).language;
      return {
        day: row.day,
        ...(byLanguage ? { language: isLanguage(said) ? said : DEFAULT_LANGUAGE } : {}),
        landingViews: Number(row.landing_views),
        dialogOpens: Number(row.dialog_opens),
        signups: Number(row.signups),
        formFailures: Number(row.form_failures),
        downloadIntents: Number(row.download_intents),
        shares: Number(row.shares),
        scrollDepth,
      };
    });
  }
}
