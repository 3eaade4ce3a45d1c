// Who a broadcast goes to, as the outbox reads them from the sign-ups: a page of people at a time
// when it is created or topped up, and the people of a claimed batch right before they are sent to.
import { iso, isSignupId, isTrue, type Engine } from './column-types.js';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database } from './database.js';
import type { QueryContext } from './sql-dialect.js';
import { messageStanding, type ConfirmationFacts } from './signup-row.js';
import { confirmationColumns } from './message-queue-repository.js';
import type { Subscriber } from './subscribers-repository.js';

/** One person as a broadcast needs them, to choose recipients and to check again before sending. */
export type Recipient = Pick<
  Subscriber,
  | 'id'
  | 'email'
  | 'phone'
  | 'betaTesting'
  | 'lastSeenAt'
  | 'confirmedAt'
  | 'askedToConfirm'
  | 'emailOptOutAt'
  | 'smsOptOutAt'
  | 'leftAt'
  | 'smsConfirmedAt'
  | 'joiningTextSentAt'
  | 'language'
>;

const RECIPIENT_COLUMNS = [
  'id',
  'email',
  'phone',
  'beta_testing',
  'last_seen_at',
  'confirmed_at',
  'confirm_sent_at',
  'email_opt_out_at',
  'sms_opt_out_at',
  'left_at',
  'sms_confirmed_at',
  'joining_text_sent_at',
  'language',
] as const;

/** The record's columns, and what the outbox says of its confirmation email. */
const recipientColumns = (eb: ExpressionBuilder<Database, 'signups'>) => [
  ...RECIPIENT_COLUMNS,
  ...confirmationColumns(eb),
];

function recipientFrom(
  row: Pick<Selectable<Database['signups']>, (typeof RECIPIENT_COLUMNS)[number]> & ConfirmationFacts,
): Recipient {
  return {
    id: String(row.id),
    email: row.email,
    phone: row.phone,
    betaTesting: isTrue(row.beta_testing),
    lastSeenAt: iso(row.last_seen_at),
    ...messageStanding(row),
    language: row.language,
  };
}

export class BroadcastRecipientsRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  /** A page of sign-ups in id order, after `afterId` (keyset paging keeps memory flat at any list size). */
  async recipientsAfter(afterId: string | null, limit: number): Promise<Recipient[]> {
    const rows = await this.context.db
      .selectFrom('signups')
      .select(recipientColumns)
      .$if(afterId !== null, (query) => query.where('id', '>', afterId as string))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(recipientFrom);
  }

  /** These sign-ups as they are now (a deleted one is simply absent). */
  async recipients(ids: string[]): Promise<Map<string, Recipient>> {
    const valid = ids.filter((id) => isSignupId(id));
    if (valid.length === 0) return new Map();
    const rows = await this.context.db
      .selectFrom('signups')
      .select(recipientColumns)
      .where('id', 'in', valid)
      .execute();
    return new Map(rows.map((row) => [String(row.id), recipientFrom(row)]));
  }
}
