// One-use signature tokens of provider requests whose signature does not cover the body (issue 42):
// shared by every instance of the site through the database, kept until the signature expires.
// The uses of requests arriving together are written together: one transaction a batch, not three
// statements a request (on SQLite each its own write, holding the lock the sign-ups wait for;
// docs/performance.md, bench:feedback).
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

/** At most this many uses a batch. */
const MOST_A_BATCH = 500;
/** Expired tokens are deleted at most this often, in a batch's transaction. */
const SWEEP_EVERY_MS = 60_000;
/** The longest token kept (Mailgun's are 50 characters). */
const TOKEN_CHARACTERS = 200;

const keyOf = (use: SignatureToken) => `${use.source}\n${use.token.slice(0, TOKEN_CHARACTERS)}`;

export class WebhookSignaturesRepository {
  private pending: {
    use: SignatureToken;
    resolve: (answer: SignatureUse) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private scheduled = false;
  private flushing = false;
  private sweptAt = 0;

  constructor(private readonly context: QueryContext) {}

  /** Remembers this token with this body; says whether it was new, the same request again, or reused. */
  use(source: string, token: string, bodyHash: string, expiresAt: Date): Promise<SignatureUse> {
    return new Promise((resolve, reject) => {
      this.pending.push({ use: { source, token, bodyHash, expiresAt }, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // No wait of its own: every request read in this turn of the event loop goes in the batch, and
    // those arriving while it is written go in the next. A fixed wait here adds to every report's
    // answer, and a provider posting over a few connections sends only as fast as we answer.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    this.flushing = true;
    const batch = this.pending.splice(0, MOST_A_BATCH);
    try {
      const answers = await this.useMany(batch.map((each) => each.use));
      batch.forEach((each, index) => each.resolve(answers[index]!));
    } catch (error) {
      // The database is away (each caller answers 503; the provider sends again), or one use cannot
      // be written: each is tried on its own, so only its own caller fails.
      if (batch.length === 1) batch[0]!.reject(error);
      else
        for (const each of batch)
          await this.useMany([each.use]).then(
            ([answer]) => each.resolve(answer!),
            (own: unknown) => each.reject(own),
          );
    } finally {
      this.flushing = false;
      if (this.pending.length > 0) this.schedule();
    }
  }

  /** The answers for these uses, in order, in one transaction; a token twice in them is "again" or "reused" the second time. */
  async useMany(uses: SignatureToken[]): Promise<SignatureUse[]> {
    if (uses.length === 0) return [];
    const firsts = new Map<string, SignatureToken>();
    for (const use of uses) if (!firsts.has(keyOf(use))) firsts.set(keyOf(use), use);
    const nowMs = this.context.now().getTime();
    return this.context.db.transaction().execute(async (trx) => {
      if (nowMs - this.sweptAt >= SWEEP_EVERY_MS) {
        await trx.deleteFrom('webhook_signatures').where('expires_at', '<', stamp(this.context)).execute();
        this.sweptAt = nowMs;
      }
      const inserted = await trx
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
        const rows = await trx
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
    });
  }
}
