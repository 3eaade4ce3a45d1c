// Finding a person, their record and consent history, and deleting them; each step is written in
// the audit log, with the address masked.
import { proofText, type ConsentProof } from '../consent/consent-proof.js';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../../shared/languages.js';
import type { FastifyPluginAsync } from 'fastify';
import { checkDetails, typedDetails } from '../consent/link-pages/details-form.js';
import { maskEmail } from '../messaging/mask-email.js';
import type { Subscriptions } from '../consent/subscriptions.js';
import type { LaunchStanding } from '../consent/launch-standing.js';
import { DELETED_PERSON } from '../db/opt-outs-repository.js';
import type { Db } from '../db/open-database.js';
import { maskedOnly } from './masked-address.js';
import { AppError } from '../errors.js';
import { html } from '../html-reply.js';
import { ownerWords } from './owner-words.js';
import {
  deleteQuestionPage,
  peoplePage,
  personMissingPage,
  personPage,
  SEARCH_LIMIT,
  type PersonChange,
} from './people-pages.js';
import { ownerOf, requireOwner } from './require-owner.js';

export interface PeopleRouteOptions {
  people: Pick<Db['subscribers'], 'subscriber' | 'search'>;
  consentEvents: Pick<Db['consentEvents'], 'history'>;
  /** Every message to a person, of every kind: the one outbox, as their page shows it. */
  outbox: Pick<Db['outbox'], 'messagesOf'>;
  /** How many joined through a person's link. */
  signups: Pick<Db['signups'], 'joinedThrough'>;
  owners: Db['owners'];
  /** Deletes a person the way every other door does (their consent history goes with them). */
  subscriptions: Subscriptions;
  siteUrl: string;
  /** Where a person stands for the launch (consent/launch-standing.ts); unset without SECRET_KEY. */
  standing?: ((ids: string[]) => Promise<Map<string, LaunchStanding>>) | undefined;
  /** The proof of consent of everyone with this email (consent/consent-proof.ts). */
  proof: (email: string) => Promise<ConsentProof[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type PersonParams = { Params: { id: string } };

export const peopleRoutes: FastifyPluginAsync<PeopleRouteOptions> = async (
  app,
  { people, consentEvents, outbox, signups, owners, subscriptions, siteUrl, standing: standingOf, proof },
) => {
  const page = { preHandler: requireOwner({ owners, siteUrl, refuse: 'redirect' }) };
  const audit = owners.audit.bind(owners);
  const person = async (id: string) => (UUID.test(id) ? people.subscriber(id) : undefined);
  /** What the person page shows beside the record: their consent history, who brought them, where they stand, their messages. */
  const personFacts = async (id: string) => {
    const [history, joinedThrough, standing, messages] = await Promise.all([
      consentEvents.history(id),
      signups.joinedThrough(id),
      standingOf?.([id]),
      outbox.messagesOf(id),
    ]);
    return { history, joinedThrough, standing: standing?.get(id), messages };
  };

  app.get<{ Querystring: { q?: string; deleted?: string } }>('/owner/people', page, async (request, reply) => {
    const owner = ownerOf(request);
    const query = (request.query.q ?? '').trim().slice(0, 200);
    const deleted = maskedOnly(request.query.deleted);
    if (!query) return html(reply, peoplePage({ ownerEmail: owner.email, query, ...(deleted ? { deleted } : {}) }));
    const digits = query.replace(/\D/g, '');
    if (query.length < 3 && digits.length < 4)
      return html(reply, peoplePage({ ownerEmail: owner.email, query, tooShort: true }), 400);
    const results = await people.search(query, SEARCH_LIMIT + 1);
    await audit({
      ownerEmail: owner.email,
      action: 'searched',
      // What was typed is an address or a number: the log says that a search was made, never what for.
      detail: ownerWords.audit.searchedDetail(Math.min(results.length, SEARCH_LIMIT), results.length > SEARCH_LIMIT),
    });
    return html(reply, peoplePage({ ownerEmail: owner.email, query, results }));
  });

  app.get<PersonParams & { Querystring: { done?: string } }>('/owner/people/:id', page, async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    await audit({
      ownerEmail: owner.email,
      action: 'viewed_person',
      subject: found.id,
      detail: maskEmail(found.email),
    });
    const { done } = request.query;
    const change: PersonChange = done === 'changed' || done === 'unchanged' || done === 'language' ? { done } : {};
    return html(
      reply,
      personPage({ ownerEmail: owner.email, person: found, change, ...(await personFacts(found.id)) }),
    );
  });

  // Correcting a name or phone number, when the person asks (decision 031): the sign-up form's own
  // rules; a change is a consent event ('owner') and an audit entry that names the fields, never
  // their values. The page is shown again with what was done.
  app.post<PersonParams>('/owner/people/:id/details', page, async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    const typed = typedDetails(request.body);
    const checked = checkDetails(typed, { readNumber: (number) => subscriptions.e164(number) });
    if (!checked.ok) {
      const change = { typed, errors: checked.errors };
      return html(
        reply,
        personPage({ ownerEmail: owner.email, person: found, change, ...(await personFacts(found.id)) }),
        400,
      );
    }
    const updated = (await subscriptions.changeDetails(found.id, checked.details, 'owner')) ?? found;
    const fields = [
      ...(updated.name !== found.name ? ['name'] : []),
      ...(updated.phone !== found.phone ? ['phone number'] : []),
    ];
    if (fields.length > 0)
      await audit({
        ownerEmail: owner.email,
        action: 'changed_person',
        subject: found.id,
        detail: ownerWords.audit.changedDetail(maskEmail(found.email), fields),
      });
    // Then the page again, by a GET: reloading it sends nothing twice.
    return reply.redirect(`/owner/people/${found.id}?done=${fields.length > 0 ? 'changed' : 'unchanged'}`, 303);
  });

  // The language their messages go in (issue 45), when they ask: the audit log names the change.
  app.post<PersonParams>('/owner/people/:id/language', page, async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    const wanted = (request.body as Record<string, unknown> | undefined)?.language;
    if (!isLanguage(wanted))
      throw new AppError(
        400,
        'invalid_language',
        `Pick one of: ${LANGUAGES.map((language) => LANGUAGE_NAMES[language].english).join(', ')}.`,
      );
    if (wanted !== found.language) {
      await subscriptions.changeLanguage(found.id, wanted);
      await audit({
        ownerEmail: owner.email,
        action: 'changed_person',
        subject: found.id,
        detail: ownerWords.audit.changedLanguage(
          maskEmail(found.email),
          LANGUAGE_NAMES[found.language].english,
          LANGUAGE_NAMES[wanted].english,
        ),
      });
    }
    return reply.redirect(
      `/owner/people/${found.id}?done=${wanted !== found.language ? 'language' : 'unchanged'}`,
      303,
    );
  });

  // The proof of their consent, as text or JSON, to keep or hand on (issue 56): written in the audit log.
  for (const format of ['txt', 'json'] as const)
    app.get<PersonParams>(`/owner/people/:id/proof.${format}`, page, async (request, reply) => {
      const owner = ownerOf(request);
      const found = await person(request.params.id);
      if (!found) return html(reply, personMissingPage(owner.email), 404);
      const proofs = await proof(found.email);
      await audit({
        ownerEmail: owner.email,
        action: 'viewed_person',
        subject: found.id,
        detail: `The proof of consent of ${maskEmail(found.email)}`,
      });
      return format === 'json'
        ? reply.type('application/json; charset=utf-8').send(JSON.stringify(proofs, null, 2))
        : reply.type('text/plain; charset=utf-8').send(proofText(proofs, found.email));
    });

  app.get<PersonParams>('/owner/people/:id/delete', page, async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    return html(reply, deleteQuestionPage({ ownerEmail: owner.email, person: found }));
  });

  app.post<PersonParams>('/owner/people/:id/delete', page, async (request, reply) => {
    const owner = ownerOf(request);
    const found = await person(request.params.id);
    if (!found) return html(reply, personMissingPage(owner.email), 404);
    const removed = await subscriptions.remove(found.id, 'owner');
    if (!removed) return html(reply, personMissingPage(owner.email), 404);
    const masked = maskEmail(found.email);
    // The log keeps that someone was deleted, and nothing of them (not even a masked address).
    await audit({ ownerEmail: owner.email, action: 'deleted_person', detail: DELETED_PERSON });
    return reply.redirect(`/owner/people?deleted=${encodeURIComponent(masked)}`, 303);
  });
};
