// The funnel's one query, for both engines: what counts as a landing-page view, a sign-up, a failure.
import { SCROLL_THRESHOLDS } from '../../shared/analytics-events.js';
import type { FunnelDay } from './signup-store.js';

/** The page name the landing page's events carry; anything else is another page (the 404 page). */
export const LANDING_PAGE_NAME = 'home';

/** Where the engines differ: reading a day out of created_at, a field out of params, and the window. */
export interface FunnelDialect {
  /** created_at's UTC day as YYYY-MM-DD text. */
  day: string;
  /** A field of params as JSON text (false, 25), so one comparison works in both engines. */
  param: (name: string) => string;
  /** The condition that keeps created_at in the window (first day inclusive, end day exclusive). */
  window: string;
}

/** One pass over the window's rows, grouped by day: the counting happens in the database, not here. */
export function funnelQuery({ day, param, window }: FunnelDialect): string {
  const onLanding = `page_name = '${LANDING_PAGE_NAME}'`;
  const counts: [alias: keyof StoredFunnelColumns, condition: string][] = [
    ['landing_views', `name = 'page_view' AND ${onLanding}`],
    ['dialog_opens', `name = 'sign_up_start'`],
    ['signups', `name = 'sign_up'`],
    ['form_failures', `name = 'form_submission' AND ${param('success')} = 'false'`],
    ['download_intents', `name = 'download_intent'`],
    ...SCROLL_THRESHOLDS.map((threshold): [keyof StoredFunnelColumns, string] => [
      `scroll_${threshold}`,
      `name = 'scroll_depth' AND ${onLanding} AND ${param('scroll_percentage')} = '${threshold}'`,
    ]),
  ];
  return `SELECT ${day} AS day,
    ${counts.map(([alias, condition]) => `count(*) FILTER (WHERE ${condition}) AS ${alias}`).join(',\n    ')}
    FROM analytics_events WHERE ${window} GROUP BY 1 ORDER BY 1`;
}

/** The funnel's counts as either engine returns them (PostgreSQL's count() is a bigint, so text). */
export interface StoredFunnelColumns {
  day: string;
  landing_views: number | string;
  dialog_opens: number | string;
  signups: number | string;
  form_failures: number | string;
  download_intents: number | string;
  scroll_25: number | string;
  scroll_50: number | string;
  scroll_75: number | string;
  scroll_100: number | string;
}

export function funnelDayFromColumns(row: StoredFunnelColumns): FunnelDay {
  return {
    day: row.day,
    landingViews: Number(row.landing_views),
    dialogOpens: Number(row.dialog_opens),
    signups: Number(row.signups),
    formFailures: Number(row.form_failures),
    downloadIntents: Number(row.download_intents),
    scrollDepth: {
      25: Number(row.scroll_25),
      50: Number(row.scroll_50),
      75: Number(row.scroll_75),
      100: Number(row.scroll_100),
    },
  };
}
