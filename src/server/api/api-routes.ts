// The API under /api/v1 (issue 56, docs/api.md): the list for the owner's other tools, read with a
// key, cursor-paged newest first; one person's record and everything held about them; a deletion
// as the dashboard does it; and a sign-up from another channel, through every rule the page's goes
// through. Answers are JSON, errors RFC 9457 problems, and nothing is kept by any cache. Every use
// is written in the audit log under the key's name. The description is at /api/v1/openapi.json.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { CountryCode } from 'libphonenumber-js/max';
import type { Db } from '../db/open-database.js';
import type { AuditAction } from '../db/owner-repository.js';
import type { SignupRecord } from '../../shared/signup-schema.js';
import { exportColumns, type StandingReader } from '../signups/signup-export.js';
import { signupE164 } from '../messaging/phone.js';
import { maskEmail } from '../messaging/mask-email.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import { DELETED_PERSON } from '../db/opt-outs-repository.js';
import { isSignupId } from '../db/column-types.js';
import { StoreUnavailableError } from '../db/database-errors.js';
import { apiKeyOf, requireApiKey, type ApiAuthOptions } from './api-auth.js';
import { apiKeyWords } from './api-keys.js';
import { apiSignupInput, checkApiSignup, WORDS_OR_VERSION } from './api-signups.js';
import { openApiDocument } from './openapi.js';
import { Problem, problemHandler, sendProblem } from './problem.js';

export const API_PREFIX = '/api/v1';
export const PAGE_LIMIT_DEFAULT = 100;
export const PAGE_LIMIT_MAX = 500;
/** A sign-up is a few hundred bytes, its consent words at most 2,000 characters. */
export const API_BODY_LIMIT_BYTES = 16 * 1024;

export interface ApiRouteOptions {
  db: Pick<Db, 'signups' | 'apiKeys' | 'owners' | 'consentEvents' | 'outbox' | 'consentTexts'>;
  /** Deletes a person the way every other door does. */
  subscriptions: Pick<Subscriptions, 'remove'>;
  /** Where each person stands for the launch (consent/launch-standing.ts); unset without SECRET_KEY. */
  standing?: StandingReader | undefined;
  auth: Omit<ApiAuthOptions, 'keys'>;
  /** Told once a sign-up is durable (its confirmation email goes out after). */
  onStored?: (() => void) | undefined;
  /** SMS_DEFAULT_COUNTRY. */
  phoneCountry?: string | undefined;
  siteUrl: string;
  now?: () => Date;
}

type Standing = { launchEmail: string | null; launchText: string | null };
/** A record as the API gives it: the export's fields, then where the person stands for the launch. */
export type ApiSignupRecord = Pick<SignupRecord, (typeof exportColumns)[number]> & Standing;

/** The cursor a page hands out: an insertion position, opaque to the caller. */
const encodeCursor = (position: string) => Buffer.from(`p${position}`).toString('base64url');
function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const position = /^p(\d{1,19})$/.exec(text)?.[1];
  if (position === undefined)
    throw new Problem(
      400,
      'invalid_cursor',
      'Bad request',
      'cursor: pass the nextCursor of the page before, as it came.',
    );
  return position;
}

function readLimit(value: string | undefined): number {
  if (value === undefined) return PAGE_LIMIT_DEFAULT;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= PAGE_LIMIT_MAX))
    throw new Problem(400, 'invalid_limit', 'Bad request', `limit: a whole number from 1 to ${PAGE_LIMIT_MAX}.`);
  return limit;
}

function readSince(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const since = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) ? new Date(value) : undefined;
  if (!since || Number.isNaN(since.getTime()))
    throw new Problem(
      400,
      'invalid_since',
      'Bad request',
      'since: a date (2026-11-29) or an ISO 8601 time (2026-11-29T14:05:00Z).',
    );
  return since;
}

const notFound = () => new Problem(404, 'not_found', 'Not found', 'There is nobody on the list with this id.');

export const apiRoutes: FastifyPluginAsync<ApiRouteOptions> = async (app, options) => {
  const { db, standing, siteUrl } = options;
  const now = options.now ?? (() => new Date());
  const auth = { keys: db.apiKeys, ...options.auth };
  const read = { preHandler: requireApiKey(auth, 'read') };
  const write = { preHandler: requireApiKey(auth, 'write') };

  app.setErrorHandler(problemHandler);
  app.setNotFoundHandler((_request, reply) =>
    sendProblem(
      reply,
      new Problem(404, 'no_such_route', 'Not found', 'There is no such route: see /api/v1/openapi.json.'),
    ),
  );
  // Personal data: never kept by any cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const audit = (request: FastifyRequest, action: AuditAction, detail: string, subject?: string) =>
    db.owners.audit({
      ownerEmail: apiKeyWords.auditWho(apiKeyOf(request).name),
      action,
      detail,
      ...(subject ? { subject } : {}),
    });
  const withStanding = async (records: SignupRecord[]): Promise<ApiSignupRecord[]> => {
    const known = standing ? await standing(records.map((record) => record.id)) : new Map();
    return records.map((record) => {
      const stands = known.get(record.id);
      return {
        ...(Object.fromEntries(exportColumns.map((column) => [column, record[column]])) as Pick<
          SignupRecord,
          (typeof exportColumns)[number]
        >),
        launchEmail: stands?.email ?? null,
        launchText: stands?.texts ?? null,
      };
    });
  };
  const json = (reply: FastifyReply, body: unknown, status = 200) =>
    reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
  const person = async (id: string) => {
    const record = isSignupId(id) ? await db.signups.record(id) : undefined;
    if (!record) throw notFound();
    return record;
  };

  app.get('/openapi.json', async (_request, reply) => json(reply, openApiDocument(siteUrl)));

  app.get<{ Querystring: { since?: string; cursor?: string; limit?: string } }>(
    '/signups',
    read,
    async (request, reply) => {
      const limit = readLimit(request.query.limit);
      const since = readSince(request.query.since);
      const before = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor);
      const page = await db.signups.newestFirst({ before, since, limit });
      await audit(request, 'api_read', `A page of the list (${page.records.length.toLocaleString('en-US')} people)`);
      return json(reply, {
        data: await withStanding(page.records),
        nextCursor: page.next === undefined ? null : encodeCursor(page.next),
      });
    },
  );

  app.get<{ Params: { id: string } }>('/signups/:id', read, async (request, reply) => {
    const record = await person(request.params.id);
    await audit(request, 'api_read', `The record of ${maskEmail(record.email)}`, record.id);
    const [data] = await withStanding([record]);
    return json(reply, { data });
  });

  // A data-access request: everything held about one person.
  app.get<{ Params: { id: string } }>('/signups/:id/export', read, async (request, reply) => {
    const record = await person(request.params.id);
    await audit(request, 'api_read', `Everything held about ${maskEmail(record.email)}`, record.id);
    const [[signup], consentHistory, messages, joinedThrough] = await Promise.all([
      withStanding([record]),
      db.consentEvents.history(record.id),
      db.outbox.messagesOf(record.id),
      db.signups.joinedThrough(record.id),
    ]);
    return json(reply, { signup, consentHistory, messages, joinedThrough });
  });

  // The dashboard's deletion: the record and its history go; the hashed "no" stays.
  app.delete<{ Params: { id: string } }>('/signups/:id', write, async (request, reply) => {
    if (!isSignupId(request.params.id)) throw notFound();
    const removed = await options.subscriptions.remove(request.params.id, 'owner');
    if (!removed) throw notFound();
    // The log keeps that someone was deleted, and nothing of them.
    await audit(request, 'deleted_person', DELETED_PERSON);
    return reply.code(204).send();
  });

  // A sign-up from another channel: the page's rules, the same answer for someone new and a repeat.
  app.post('/signups', { ...write, bodyLimit: API_BODY_LIMIT_BYTES }, async (request, reply) => {
    const received = now();
    const checked = checkApiSignup(request.body, received);
    if (!checked.ok)
      throw new Problem(400, 'validation_failed', 'Bad request', checked.detail, { fields: checked.fields });
    const phone = signupE164(checked.signup.phone, (options.phoneCountry ?? 'US') as CountryCode);
    if (phone === undefined)
      throw new Problem(400, 'validation_failed', 'Bad request', 'Some details need attention.', {
        fields: { phone: 'Please include the area code, or + and the country code' },
      });
    // Without its words, the consent names a version of our own form's words: the proof quotes those.
    const words =
      checked.signup.consent.words ??
      (await db.consentTexts.find('signup_form', checked.signup.language ?? 'en', checked.signup.consent.version ?? ''))
        ?.words;
    if (words === undefined)
      throw new Problem(400, 'validation_failed', 'Bad request', 'Some details need attention.', {
        fields: { 'consent.version': WORDS_OR_VERSION },
      });
    const signup = { ...checked.signup, consent: { ...checked.signup.consent, words } };
    const { input, via } = apiSignupInput(signup, phone, apiKeyOf(request).name, received);
    try {
      await db.signups.add(input, via);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error;
      reply.header('retry-after', '10');
      throw new Problem(
        503,
        'unavailable',
        'Unavailable',
        'The list cannot be written just now. Send it again in a minute.',
      );
    }
    options.onStored?.();
    await audit(request, 'api_added', `${maskEmail(input.email)}, from ${checked.signup.consent.source}`);
    return json(reply, { status: 'accepted' }, 202);
  });
};
