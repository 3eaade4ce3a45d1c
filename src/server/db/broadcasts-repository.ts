// Launch-day broadcasts: created once with what they send, and their state (decision 023), written
// once with Kysely for SQLite and PostgreSQL.
import { emitWebhookEvents } from './webhook-emit.js';
import type { Language } from '../../shared/languages.js';
import { sql, type Selectable } from 'kysely';
import { iso, isoOrNull, type Engine } from './column-types.js';
import type { Database } from './database.js';
import type { AudienceConfirmation } from './broadcasts.table.js';
import type { Channel } from './message-channels.js';
import { stamp, flag, type QueryContext } from './sql-dialect.js';

export const BROADCAST_SEGMENTS = ['all', 'beta'] as const;
export type BroadcastSegment = (typeof BROADCAST_SEGMENTS)[number];

/** ready: created, nothing sent yet (or topped up); sending; paused by the owner; finished: nothing left to try. */
export type BroadcastState = 'ready' | 'sending' | 'paused' | 'finished';

/** The webhook event each move makes (issue 56): a start or a resume, a pause, the end. */
const BROADCAST_EVENTS: Partial<Record<BroadcastState, string>> = {
  sending: 'broadcast.started',
  paused: 'broadcast.paused',
  finished: 'broadcast.completed',
};

/** One language's message: the email's subject and parts, and the text. */
export interface MessageContent {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

/**
 * What a broadcast sends, fixed when it is created: what was previewed is what goes out. Its own
 * fields are the English; `translations` holds the same message in each other language (issue 45),
 * each person getting theirs. A broadcast created before languages came has none: everyone gets the
 * English it previewed.
 */
export interface BroadcastContent extends MessageContent {
  translations?: Partial<Record<Language, MessageContent>>;
}

/** The message a person in `language` gets from this broadcast. */
export function contentIn(content: BroadcastContent, language: Language): MessageContent {
  const translated = language === 'en' ? undefined : content.translations?.[language];
  const { subject, text, html, sms } = translated ?? content;
  return { subject, text, html, sms };
}

export interface Broadcast {
  id: number;
  name: string;
  template: string;
  segment: BroadcastSegment;
  channels: Channel[];
  /** Who it takes among the unconfirmed (consent/contact-rule.ts). */
  confirmation: AudienceConfirmation;
  content: BroadcastContent;
  state: BroadcastState;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The owner resumed past a health pause: its rates no longer pause it. */
  healthAcceptedAt: string | null;
}

export class BroadcastsRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  private broadcastFrom(row: Selectable<Database['broadcasts']>): Broadcast {
    return {
      id: Number(row.id),
      name: row.name,
      template: row.template,
      segment: row.segment as BroadcastSegment,
      channels: row.channels.split(',').filter(Boolean) as Channel[],
      confirmation: row.confirmation as AudienceConfirmation,
      content: JSON.parse(row.content) as BroadcastContent,
      state: row.state as BroadcastState,
      createdAt: iso(row.created_at),
      startedAt: isoOrNull(row.started_at),
      finishedAt: isoOrNull(row.finished_at),
      healthAcceptedAt: isoOrNull(row.health_accepted_at),
    };
  }

  /** Creates the broadcast (no recipients yet: see enqueue); undefined if the name is taken. */
  async create(
    input: Pick<Broadcast, 'name' | 'template' | 'segment' | 'channels' | 'confirmation' | 'content'>,
  ): Promise<Broadcast | undefined> {
    const inserted = await this.context.db
      .insertInto('broadcasts')
      .values({
        name: input.name,
        template: input.template,
        segment: input.segment,
        channels: input.channels.join(','),
        include_unconfirmed: flag(this.context, input.confirmation === 'everyone'),
        confirmation: input.confirmation,
        content: JSON.stringify(input.content),
        state: 'ready',
        created_at: stamp(this.context),
      })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted ? this.get(input.name) : undefined;
  }

  async get(name: string): Promise<Broadcast | undefined> {
    const row = await this.context.db.selectFrom('broadcasts').selectAll().where('name', '=', name).executeTakeFirst();
    return row ? this.broadcastFrom(row) : undefined;
  }

  async list(): Promise<Broadcast[]> {
    const rows = await this.context.db.selectFrom('broadcasts').selectAll().orderBy('id').execute();
    return rows.map((row) => this.broadcastFrom(row));
  }

  /** The ids of the broadcasts made with this template (the gate's "each kind once, ever"). */
  async idsWithTemplate(template: string): Promise<number[]> {
    const rows = await this.context.db.selectFrom('broadcasts').select('id').where('template', '=', template).execute();
    return rows.map((row) => Number(row.id));
  }

  async state(broadcastId: number): Promise<BroadcastState | undefined> {
    const row = await this.context.db
      .selectFrom('broadcasts')
      .select('state')
      .where('id', '=', broadcastId)
      .executeTakeFirst();
    return row?.state as BroadcastState | undefined;
  }

  /** Moves the broadcast to `to` if it is in one of `from`; true when it moved. */
  async setState(broadcastId: number, to: BroadcastState, from: BroadcastState[]): Promise<boolean> {
    return (await this.moveState(broadcastId, to, from)) !== undefined;
  }

  /** The same move in the same one statement, returning the broadcast as it now is (undefined: not moved). */
  async moveState(broadcastId: number, to: BroadcastState, from: BroadcastState[]): Promise<Broadcast | undefined> {
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('broadcasts')
        .set({
          state: to,
          // One statement: a refused move stamps nothing. started_at is the first start only.
          ...(to === 'sending' ? { finished_at: null, started_at: sql<string>`coalesce(started_at, ${at})` } : {}),
          ...(to === 'finished' ? { finished_at: at } : {}),
        })
        .where('id', '=', broadcastId)
        .where('state', 'in', from)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      const broadcast = this.broadcastFrom(row);
      // The owner's other tools are told of the launch's progress with the move (issue 56).
      const type = BROADCAST_EVENTS[to];
      if (type)
        await emitWebhookEvents(trx, at, [
          {
            type,
            data: {
              broadcastId: broadcast.id,
              name: broadcast.name,
              channels: broadcast.channels,
              ...(to === 'sending' ? { resumed: row.started_at !== null && iso(row.started_at) !== at } : {}),
            },
          },
        ]);
      return broadcast;
    });
  }

  /** resume --despite-health: the owner goes on knowingly; the rates no longer pause this broadcast. */
  async acceptHealth(broadcastId: number): Promise<void> {
    await this.context.db
      .updateTable('broadcasts')
      .set({ health_accepted_at: stamp(this.context) })
      .where('id', '=', broadcastId)
      .execute();
  }
}
