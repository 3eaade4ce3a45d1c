// The languages the public site speaks (issue 45): English at /, Spanish at /es/. Each person's
// messages go in the language of the page they signed up on (signups.language). The owner's
// dashboard and commands stay in English.

export const LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Each language's name in its own words, as the language link shows it, and in English for the owner. */
export const LANGUAGE_NAMES: Record<Language, { own: string; english: string }> = {
  en: { own: 'English', english: 'English' },
  es: { own: 'Español', english: 'Spanish' },
};

/** The landing page of each language: the path it lives at (its base path, by the spec's routing rule). */
export const LANGUAGE_HOMES: Record<Language, string> = { en: '/', es: '/es/' };

/** The language of a page's address: /es and everything under it is Spanish; the rest is English. */
export function languageOfPath(pathname: string): Language {
  return pathname === '/es' || pathname.startsWith('/es/') ? 'es' : 'en';
}

/** Where the visitor's own choice of language is kept on this device (localStorage: no cookie, never sent). */
export const LANGUAGE_STORAGE_KEY = 'scamsavvy.language';

/** The BCP 47 tag a page and an email carry (lang, hreflang, Content-Language). */
export const LANGUAGE_TAGS: Record<Language, string> = { en: 'en', es: 'es' };

/** Open Graph's locale for each (og:locale). */
export const OPEN_GRAPH_LOCALES: Record<Language, string> = { en: 'en_US', es: 'es_US' };

/** Dates in words, as each language's messages say them ("December 24, 2026", "24 de diciembre de 2026"). */
export const DATE_LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-US' };

/**
 * Words written once per language: a test walks both and fails when a key is in one and not the
 * other (src/shared/languages.test.ts). The Spanish is checked against the English's shape by type.
 */
export type Translated<T> = Record<Language, T>;

/**
 * Runs in the landing page's head, before anything is drawn (inline: the Content-Security-Policy
 * names its hash, server/security-headers.ts). A visitor who chose a language with the language link
 * is taken to that page from the other one's home (the choice is theirs, kept on this device; the
 * address's query and fragment go along). A visitor who never chose, whose browser asks first for the
 * other language, is offered it: the page is marked, and its offer shows (never a redirect).
 */
export const LANGUAGE_HEAD_SCRIPT = `(function(){try{var d=document.documentElement,h=d.lang==="es"?"es":"en",p=location.pathname,c=localStorage.getItem("${LANGUAGE_STORAGE_KEY}");if(c==="es"||c==="en"){if(c!==h&&(p==="/"||p==="/es"||p==="/es/"))location.replace((c==="es"?"/es/":"/")+location.search+location.hash);return}var l=((navigator.languages&&navigator.languages[0])||navigator.language||"").toLowerCase().split("-")[0];if(l!==h&&(l==="es"||l==="en"))d.setAttribute("data-language-offer","")}catch(e){}})();`;

/**
 * The language a browser asks for first among ours (an Accept-Language header), for a page that
 * names no person (a link that no longer works): "es-MX,es;q=0.9,en;q=0.8" is Spanish. English when
 * it asks for none of ours. Reads at most the first 20 entries.
 */
export function preferredLanguage(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;
  let best: { language: Language; weight: number } | undefined;
  for (const entry of acceptLanguage.slice(0, 1000).split(',').slice(0, 20)) {
    const [tag = '', ...parameters] = entry.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    const q = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/i.exec(parameter)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q);
    if (!isLanguage(primary) || !(weight > 0)) continue;
    if (!best || weight > best.weight) best = { language: primary, weight };
  }
  return best?.language ?? DEFAULT_LANGUAGE;
}

/**
 * The shape of a set of words, for the test that each language has every key the others have: each
 * key's path with what it holds ("text", "function/2", "list/3" …). Two languages' words match when
 * their shapes do.
 */
export function wordsShape(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return [`${path}: text`];
  if (typeof value === 'function') return [`${path}: function/${value.length}`];
  if (Array.isArray(value))
    return [`${path}: list/${value.length}`, ...value.flatMap((item, index) => wordsShape(item, `${path}[${index}]`))];
  if (typeof value === 'object' && value !== null)
    return Object.keys(value)
      .sort()
      .flatMap((key) => wordsShape((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key));
  return [`${path}: ${typeof value}`];
}

/** Every text in a set of words (functions left out), with its path: for the check that each was translated. */
export function wordsTexts(value: unknown, path = ''): [path: string, text: string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => wordsTexts(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => wordsTexts(item, path ? `${path}.${key}` : key));
  return [];
}
