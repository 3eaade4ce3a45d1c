// The facts an owner must make true before the launch, as settings (issue 55, decision 059): the
// privacy contact and each statistic's figure, words and source. The built page carries the
// repository's words, each marked (`data-fact`); the server writes the owner's in at start, so a
// change needs a restart, never a rebuild, and an upgrade leaves them alone. The postal address, the
// site's address and the store links were settings already (MAIL_POSTAL_ADDRESS, SITE_URL, APP_STORE_URL…).
import { z } from 'zod';
import type { Language } from '../shared/languages.js';

/** The three figures (spec section 2), then the heading's own source. */
export const STATISTICS = ['1', '2', '3', 'HEADLINE'] as const;
export type StatisticId = (typeof STATISTICS)[number];

const text = (pattern: RegExp, message: string) =>
  z
    .string()
    .trim()
    .regex(pattern, { error: message })
    .optional()
    .or(z.literal('').transform(() => undefined));
const words = (max: number) =>
  text(new RegExp(`^[^\\n<>]{1,${max}}$`), `must be one line of at most ${max} characters`);
const link = text(/^https:\/\/[^\s<>"]+$/, 'must be the https:// address where the source can be read');

/** The settings (merged into environment.ts's schema: README.md and .env.example list each). */
export const siteFactsSettings = {
  PRIVACY_EMAIL: text(
    /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/,
    'must be the email address people write to about their details (the privacy notice shows it)',
  ),
  ...Object.fromEntries(
    STATISTICS.flatMap((id) => [
      ...(id === 'HEADLINE'
        ? []
        : [
            [`STATISTIC_${id}_FIGURE`, words(20)],
            [`STATISTIC_${id}_FIGURE_ES`, words(20)],
            [`STATISTIC_${id}_WORDS`, words(80)],
            [`STATISTIC_${id}_WORDS_ES`, words(80)],
          ]),
      [`STATISTIC_${id}_SOURCE`, words(300)],
      [`STATISTIC_${id}_SOURCE_ES`, words(300)],
      [`STATISTIC_${id}_SOURCE_URL`, link],
    ]),
  ),
  SHOW_UNCONFIRMED_STATISTICS: z.enum(['yes', 'no']).default('no'),
} as Record<string, z.ZodType<string | undefined>> & {
  SHOW_UNCONFIRMED_STATISTICS: z.ZodDefault<z.ZodEnum<{ yes: 'yes'; no: 'no' }>>;
};

export interface StatisticFacts {
  figure?: Partial<Record<Language, string>>;
  words?: Partial<Record<Language, string>>;
  source?: Partial<Record<Language, string>>;
  sourceUrl?: string;
}

export interface SiteFacts {
  privacyEmail?: string;
  statistics: Partial<Record<StatisticId, StatisticFacts>>;
  /** SHOW_UNCONFIRMED_STATISTICS=yes: the owner chose to show a statistic whose source is unconfirmed. */
  showUnconfirmed: boolean;
}

/** The owner's facts from the checked settings; every half-made change goes into `problems`. */
export function siteFactsFrom(env: Record<string, unknown>, problems: string[]): SiteFacts {
  const value = (name: string) => (typeof env[name] === 'string' && env[name] !== '' ? env[name] : undefined);
  const statistics: SiteFacts['statistics'] = {};
  for (const id of STATISTICS) {
    const fact: StatisticFacts = {};
    for (const [field, name] of [
      ['figure', 'FIGURE'],
      ['words', 'WORDS'],
      ['source', 'SOURCE'],
    ] as const) {
      const en = value(`STATISTIC_${id}_${name}`);
      const es = value(`STATISTIC_${id}_${name}_ES`);
      // A new figure or new words need their Spanish too, or the two pages would say different things;
      // a source is a name, and the Spanish page may show it as written.
      if (field !== 'source' && Boolean(en) !== Boolean(es))
        problems.push(
          `STATISTIC_${id}_${name}${en ? '_ES' : ''}: set it too (the Spanish page must say what the English one says)`,
        );
      if (en || es) fact[field] = { ...(en ? { en } : {}), ...((es ?? en) ? { es: es ?? en } : {}) };
    }
    const url = value(`STATISTIC_${id}_SOURCE_URL`);
    if (url) fact.sourceUrl = url;
    if (Object.keys(fact).length > 0) statistics[id] = fact;
  }
  const privacyEmail = value('PRIVACY_EMAIL');
  return {
    ...(privacyEmail ? { privacyEmail } : {}),
    statistics,
    showUnconfirmed: env.SHOW_UNCONFIRMED_STATISTICS === 'yes',
  };
}

const escapeHtml = (raw: string) =>
  raw.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unescapeHtml = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The marker the page puts around a fact (src/client/sections/scam-statistics.tsx writes the same). */
const marked = (name: string) => new RegExp(`(<span data-fact="${name}">)([^]*?)(</span>)`, 'g');
const factName = (id: StatisticId, field: string) => `statistic-${id.toLowerCase()}-${field}`;

/** The page with the owner's facts written over the repository's words. */
export function applySiteFacts(html: string, facts: SiteFacts, language: Language): string {
  let page = html;
  for (const id of STATISTICS) {
    const fact = facts.statistics[id];
    if (!fact) continue;
    for (const field of ['figure', 'words'] as const) {
      const owners = fact[field]?.[language];
      if (owners)
        page = page.replace(marked(factName(id, field)), (_, open, _old, close) => open + escapeHtml(owners) + close);
    }
    if (fact.source || fact.sourceUrl) {
      page = page.replace(marked(factName(id, 'source')), (_, open, old: string, close) => {
        const shown = escapeHtml(fact.source?.[language] ?? unescapeHtml(old));
        // The owner's link, or the page's own (already written as HTML).
        const href = fact.sourceUrl ? escapeHtml(fact.sourceUrl) : /href="([^"]*)"/.exec(old)?.[1];
        return open + (href ? `<a href="${href}" rel="noopener noreferrer">${shown}</a>` : shown) + close;
      });
    }
    // The owner's own source (words or a link) is the owner's word that it is confirmed.
    if (fact.source || fact.sourceUrl) page = page.replace(marked(factName(id, 'unconfirmed')), '');
  }
  return page;
}

/** What each statistic says on a built page, by its markers: the Ready page shows these. */
export function statisticsOnPage(html: string): { figure: string; source: string; confirmed: boolean }[] {
  const read = (name: string) => {
    const match = marked(name).exec(html);
    return match ? unescapeHtml(match[2] ?? '') : undefined;
  };
  return STATISTICS.flatMap((id) => {
    const source = read(factName(id, 'source'));
    if (source === undefined) return [];
    return [
      {
        figure: read(factName(id, 'figure')) ?? 'the heading',
        source,
        confirmed: read(factName(id, 'unconfirmed')) === undefined,
      },
    ];
  });
}

/** The example privacy contact the page shows until PRIVACY_EMAIL is set (red on the Ready page). */
export const EXAMPLE_PRIVACY_EMAIL = 'privacy@scamsavvy.example';

/** An address this repository ships as an example, not the owner's (the Ready page's red). */
export function isExampleAddress(text: string): boolean {
  return /(^|[@.])(scamsavvy\.example|example\.(com|org|net)|example)$/i.test(text) || /\.example$/i.test(text);
}

/** The site would show a statistic whose source is still being confirmed, on its real (https) address. */
export class UnconfirmedStatisticsError extends Error {
  constructor(readonly statistics: string[]) {
    super(
      `Invalid configuration:\n${statistics
        .map(
          (figure) =>
            `  - the statistic "${figure}" says its source is still being confirmed: set its STATISTIC_N_SOURCE (and STATISTIC_N_SOURCE_URL) to the study, or SHOW_UNCONFIRMED_STATISTICS=yes to show it with that note (docs/content.md)`,
        )
        .join('\n')}`,
    );
    this.name = 'UnconfirmedStatisticsError';
  }
}
