// The exact words each place a choice is made on showed (issue 56), written once with Kysely for both
// engines: kept when the server first shows them, never changed or deleted, and read back for the
// proof of a consent (consent/consent-proof.ts).
import { iso } from './column-types.js';
import { stamp, type QueryContext } from './sql-dialect.js';

export interface ConsentText {
  place: string;
  language: string;
  version: string;
  words: string;
}

export interface KeptConsentText extends ConsentText {
  firstShownAt: string;
}

export class ConsentTextsRepository {
  constructor(private readonly context: QueryContext) {}

  /**
   * Keeps the words shown now, each the first time it is shown. The words of a version already kept
   * are never replaced: a version whose words differ is named back, so the caller can refuse to
   * show words the proof would misquote.
   */
  async keep(texts: ConsentText[]): Promise<ConsentText[]> {
    if (texts.length === 0) return [];
    const at = stamp(this.context);
    await this.context.db
      .insertInto('consent_texts')
      .values(texts.map((text) => ({ ...text, first_shown_at: at })))
      .onConflict((conflict) => conflict.columns(['place', 'language', 'version']).doNothing())
      .execute();
    const kept = await this.all();
    return texts.filter((text) =>
      kept.some(
        (row) =>
          row.place === text.place &&
          row.language === text.language &&
          row.version === text.version &&
          row.words !== text.words,
      ),
    );
  }

  /** The words of one place's version in one language, if kept. */
  async find(place: string, language: string, version: string): Promise<KeptConsentText | undefined> {
    const row = await this.context.db
      .selectFrom('consent_texts')
      .selectAll()
      .where('place', '=', place)
      .where('language', '=', language)
      .where('version', '=', version)
      .executeTakeFirst();
    return row
      ? {
          place: row.place,
          language: row.language,
          version: row.version,
          words: row.words,
          firstShownAt: iso(row.first_shown_at),
        }
      : undefined;
  }

  /** Every kept text, oldest first. */
  async all(): Promise<KeptConsentText[]> {
    const rows = await this.context.db.selectFrom('consent_texts').selectAll().orderBy('first_shown_at').execute();
    return rows.map((row) => ({
      place: row.place,
      language: row.language,
      version: row.version,
      words: row.words,
      firstShownAt: iso(row.first_shown_at),
    }));
  }
}
