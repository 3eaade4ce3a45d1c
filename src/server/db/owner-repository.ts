// The owners, their sign-in links and sessions, and the audit log of what they did with people's
// data: written once with Kysely for SQLite and PostgreSQL (docs/owner-guide.md, decision 024).
// Links and sessions are kept only as SHA-256 hashes of their secrets: a copy of the database signs
// nobody in.
import { iso, type Engine } from './column-types.js';
import type { Time } from './column-types.js';
import { stamp, type QueryContext } from './sql-dialect.js';

export interface Owner {
  id: number;
  email: string;
  createdAt: string;
}

export interface OwnerListing extends Owner {
  /** When they last signed in (a session began), or null if never. */
  lastSignInAt: string | null;
}

/** What an owner did that touched people's data; the dashboard shows them newest first. */
export const AUDIT_ACTIONS = [
  'signed_in',
  'searched',
  'viewed_person',
  'exported',
  'deleted_person',
  'changed_person',
  'broadcast',
  'lifted_suppressions',
  'imported_suppressions',
  'key_kept',
  'seed_checked',
  'read_replies',
  /** Issue 56: an API key was made or revoked; a key read the list, or added someone from another channel. */
  'api_key_made',
  'api_key_revoked',
  'api_read',
  'api_added',
  /** A webhook endpoint was made, deleted or resumed (issue 56). */
  'webhook_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: number;
  at: string;
  ownerEmail: string;
  action: AuditAction;
  /** Which person or broadcast (an id or a name), where there is one. */
  subject: string | null;
  /** In words: "CSV, 1,204 people", "r•••@example.com". Never a whole email or phone. */
  detail: string | null;
}

/** An owner's address as stored and compared: trimmed, lower case. */
export const ownerEmailKey = (email: string) => email.trim().toLowerCase();

export class OwnerRepository {
  constructor(private readonly context: QueryContext) {}

  get engine(): Engine {
    return this.context.dialect.engine;
  }

  private stamp(offsetMs = 0): string {
    return new Date(this.context.now().getTime() + offsetMs).toISOString();
  }

  /** Adds an owner; 'exists' if the address already is one. */
  async add(email: string): Promise<'added' | 'exists'> {
    const inserted = await this.context.db
      .insertInto('owners')
      .values({ email: ownerEmailKey(email), created_at: stamp(this.context) })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted ? 'added' : 'exists';
  }

  /** Removes an owner with their links and sessions (signed out at once); false if there was none. */
  async remove(email: string): Promise<boolean> {
    return this.context.db.transaction().execute(async (trx) => {
      const owner = await trx
        .selectFrom('owners')
        .select('id')
        .where('email', '=', ownerEmailKey(email))
        .executeTakeFirst();
      if (!owner) return false;
      await trx.deleteFrom('owner_sessions').where('owner_id', '=', owner.id).execute();
      await trx.deleteFrom('owner_sign_in_links').where('owner_id', '=', owner.id).execute();
      await trx.deleteFrom('owners').where('id', '=', owner.id).execute();
      return true;
    });
  }

  async list(): Promise<OwnerListing[]> {
    const rows = await this.context.db
      .selectFrom('owners')
      .leftJoin('owner_sessions', 'owner_sessions.owner_id', 'owners.id')
      .select(({ fn }) => [
        'owners.id',
        'owners.email',
        'owners.created_at',
        fn.max('owner_sessions.created_at').as('last_sign_in_at'),
      ])
      .groupBy(['owners.id', 'owners.email', 'owners.created_at'])
      .orderBy('owners.email')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      email: row.email,
      createdAt: iso(row.created_at),
      lastSignInAt: row.last_sign_in_at === null ? null : iso(row.last_sign_in_at as Time),
    }));
  }

  async byEmail(email: string): Promise<Owner | undefined> {
    const row = await this.context.db
      .selectFrom('owners')
      .selectAll()
      .where('email', '=', ownerEmailKey(email))
      .executeTakeFirst();
    return row ? { id: Number(row.id), email: row.email, createdAt: iso(row.created_at) } : undefined;
  }

  /** Stores a sign-in link's hash, good for `lifetimeMs`; links past their time are cleared on the way. */
  async createLink(ownerId: number, tokenHash: string, lifetimeMs: number): Promise<void> {
    await this.context.db.deleteFrom('owner_sign_in_links').where('expires_at', '<', this.stamp(-86_400_000)).execute();
    await this.context.db
      .insertInto('owner_sign_in_links')
      .values({
        token_hash: tokenHash,
        owner_id: ownerId,
        created_at: stamp(this.context),
        expires_at: this.stamp(lifetimeMs),
        used_at: null,
      })
      .execute();
  }

  /** True if the link could still be used (for the page that asks to press "Sign in"). */
  async linkUsable(tokenHash: string): Promise<boolean> {
    const row = await this.context.db
      .selectFrom('owner_sign_in_links')
      .select('token_hash')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', stamp(this.context))
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Uses the link: at most once, ever, however many requests race for it (the update's condition
   * decides), and only before it expires. Then starts a session under `sessionHash`.
   */
  async useLink(tokenHash: string, sessionHash: string): Promise<Owner | undefined> {
    const at = stamp(this.context);
    return this.context.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('owner_sign_in_links')
        .set({ used_at: at })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .returning('owner_id')
        .executeTakeFirst();
      if (!used) return undefined;
      const owner = await trx
        .selectFrom('owners')
        .selectAll()
        .where('id', '=', Number(used.owner_id))
        .executeTakeFirst();
      if (!owner) return undefined;
      await trx
        .insertInto('owner_sessions')
        .values({ id_hash: sessionHash, owner_id: owner.id, created_at: at, last_seen_at: at, ended_at: null })
        .execute();
      return { id: Number(owner.id), email: owner.email, createdAt: iso(owner.created_at) };
    });
  }

  /**
   * The owner of a live session (not ended, seen within `idleMs`), marking it seen now. The mark is
   * written at most once a minute, so a page that polls does not write on every request.
   */
  async session(sessionHash: string, idleMs: number, { touch = true } = {}): Promise<Owner | undefined> {
    const now = stamp(this.context);
    const row = await this.context.db
      .selectFrom('owner_sessions')
      .innerJoin('owners', 'owners.id', 'owner_sessions.owner_id')
      .select(['owners.id', 'owners.email', 'owners.created_at', 'owner_sessions.last_seen_at'])
      .where('owner_sessions.id_hash', '=', sessionHash)
      .where('owner_sessions.ended_at', 'is', null)
      .where('owner_sessions.last_seen_at', '>', this.stamp(-idleMs))
      .executeTakeFirst();
    if (!row) return undefined;
    // A page's own background poll is not the owner at work: it never keeps the session alive.
    if (touch && Date.parse(iso(row.last_seen_at)) < Date.parse(now) - 60_000)
      await this.context.db
        .updateTable('owner_sessions')
        .set({ last_seen_at: now })
        .where('id_hash', '=', sessionHash)
        .execute();
    return { id: Number(row.id), email: row.email, createdAt: iso(row.created_at) };
  }

  /** Why a session no longer lets its owner in: signed out, or idle too long (undefined: no such session). */
  async sessionEnded(sessionHash: string, idleMs: number): Promise<'signed_out' | 'idle' | undefined> {
    const row = await this.context.db
      .selectFrom('owner_sessions')
      .select(['ended_at', 'last_seen_at'])
      .where('id_hash', '=', sessionHash)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.ended_at !== null) return 'signed_out';
    return Date.parse(iso(row.last_seen_at)) <= Date.parse(this.stamp(-idleMs)) ? 'idle' : undefined;
  }

  async endSession(sessionHash: string): Promise<void> {
    await this.context.db
      .updateTable('owner_sessions')
      .set({ ended_at: stamp(this.context) })
      .where('id_hash', '=', sessionHash)
      .where('ended_at', 'is', null)
      .execute();
  }

  async audit(entry: { ownerEmail: string; action: AuditAction; subject?: string; detail?: string }): Promise<void> {
    await this.context.db
      .insertInto('owner_audit_log')
      .values({
        at: stamp(this.context),
        owner_email: entry.ownerEmail,
        action: entry.action,
        subject: entry.subject ?? null,
        detail: entry.detail ?? null,
      })
      .execute();
  }

  /** The newest entries first. */
  async auditLog(limit: number): Promise<AuditEntry[]> {
    const rows = await this.context.db
      .selectFrom('owner_audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      at: iso(row.at),
      ownerEmail: row.owner_email,
      action: row.action as AuditAction,
      subject: row.subject,
      detail: row.detail,
    }));
  }
}
