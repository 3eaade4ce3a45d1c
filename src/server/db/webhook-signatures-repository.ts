// One-use signature tokens of provider requests whose signature does not cover the body (issue 42):
// shared by every instance of the site through the database, kept until the signature expires.
import { stamp, type QueryContext } from './sql-dialect.js';

/** first: never seen; again: the same request once more (a redelivery); reused: the token with another body. */
export type SignatureUse = 'first' | 'again' | 'reused';

export class WebhookSignaturesRepository {
  constructor(private readonly context: QueryContext) {}

  async use(source: string, token: string, bodyHash: string, expiresAt: Date): Promise<SignatureUse> {
    const db = this.context.db;
    await db.deleteFrom('webhook_signatures').where('expires_at', '<', stamp(this.context)).execute();
    const inserted = await db
      .insertInto('webhook_signatures')
      .values({ source, token: token.slice(0, 200), body_hash: bodyHash, expires_at: expiresAt.toISOString() })
      .onConflict((conflict) => conflict.columns(['source', 'token']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return 'first';
    const held = await db
      .selectFrom('webhook_signatures')
      .select('body_hash')
      .where('source', '=', source)
      .where('token', '=', token.slice(0, 200))
      .executeTakeFirst();
    return held?.body_hash === bodyHash ? 'again' : 'reused';
  }
}
