// One-use signature tokens of provider requests whose signature does not cover the body (issue 42):
// shared by every instance of the site through the database, kept until the signature expires.
// The reports' batch (bounces/act-on-reports.ts) checks the tokens of all its requests at once: one
// statement a batch, not three a request (on SQLite each its own write, holding the lock the
// sign-ups wait for; docs/performance.md, bench:feedback).
import { stamp, type QueryContext } from './sql-dialect.js';

/** first: never seen; again: the same request once more (a redelivery); reused: the token with another body. */
export type SignatureUse = 'first' | 'again' | 'reused';

/** One request's signature token, and the hash of the body it came with. */
export interface SignatureToken {
  source: string;
  token: string;
  bodyHash: string;
  expiresAt: Date;
}

/** Expired tokens are deleted at most this often, in a batch's transaction. */
const SWEEP_EVERY_MS = 60_000;
/** The longest token kept (Mailgun's are 50 characters). */
const TOKEN_CHARACTERS = 200;

const keyOf = (use: SignatureToken) => `${use.source}\n${use.token.slice(0, TOKEN_CHARACTERS)}`;

export class WebhookSignaturesRepository {
  constructor(
    private readonly context: QueryContext,
    /** When expired tokens were last deleted: one clock for this repository and its copies on transactions. */
    private readonly swept: { at: number } = { at: 0 },
  ) {}

  /** This repository working on another context (a transaction), sharing its sweep clock. */
  on(context: QueryContext): WebhookSignaturesRepository {
    return new WebhookSignaturesRepository(context, this.swept);
  }

  /**
   * The answers for these uses, in order; a token twice in them is "again" or "reused" the second
   * time. A few statements, each safe on its own (a token remembered is never changed); run inside
   * the reports' transaction (Db.reportsTransaction) they are one commit with the batch's store.
   */
  async useMany(uses: SignatureToken[]): Promise<SignatureUse[]> {
    if (uses.length === 0) return [];
    const firsts = new Map<string, SignatureToken>();
    for (const use of uses) if (!firsts.has(keyOf(use))) firsts.set(keyOf(use), use);
    const nowMs = this.context.now().getTime();
    const { db } = this.context;
    if (nowMs - this.swept.at >= SWEEP_EVERY_MS) {
      await db.deleteFrom('webhook_signatures').where('expires_at', '<', stamp(this.context)).execute();
      this.swept.at = nowMs;
    }
    const inserted = await db
      .insertInto('webhook_signatures')
      .values(
        [...firsts.values()].map((use) => ({
          source: use.source,
          token: use.token.slice(0, TOKEN_CHARACTERS),
          body_hash: use.bodyHash,
          expires_at: use.expiresAt.toISOString(),
        })),
      )
      .onConflict((conflict) => conflict.columns(['source', 'token']).doNothing())
      .returning(['source', 'token'])
      .execute();
    const isNew = new Set(inserted.map((row) => `${row.source}\n${row.token}`));
    const held = new Map<string, string>();
    for (const [key, use] of firsts) if (isNew.has(key)) held.set(key, use.bodyHash);
    const known = [...firsts.values()].filter((use) => !isNew.has(keyOf(use)));
    if (known.length > 0) {
      const rows = await db
        .selectFrom('webhook_signatures')
        .select(['source', 'token', 'body_hash'])
        .where('source', 'in', [...new Set(known.map((use) => use.source))])
        .where('token', 'in', [...new Set(known.map((use) => use.token.slice(0, TOKEN_CHARACTERS)))])
        .execute();
      for (const row of rows) held.set(`${row.source}\n${row.token}`, row.body_hash);
    }
    const answered = new Set<string>();
    return uses.map((use) => {
      const key = keyOf(use);
      const first = isNew.has(key) && !answered.has(key);
      answered.add(key);
      if (first) return 'first';
      return held.get(key) === use.bodyHash ? 'again' : 'reused';
    });
  }
}
