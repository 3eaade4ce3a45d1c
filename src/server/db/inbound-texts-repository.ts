// Inbound texts already acted on, by the provider's id for each (Twilio's MessageSid): a text the
// provider delivers twice, or a signed request someone replays later, is acted on once.
import type { QueryContext } from './sql-dialect.js';
import { stamp } from './sql-dialect.js';

export class InboundTextsRepository {
  constructor(private readonly context: QueryContext) {}

  /** True the first time this id is seen (and remembers it); false ever after. */
  async firstTime(providerId: string): Promise<boolean> {
    const result = await this.context.db
      .insertInto('inbound_texts')
      .values({ provider_id: providerId.slice(0, 64), received_at: stamp(this.context) })
      .onConflict((conflict) => conflict.column('provider_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
