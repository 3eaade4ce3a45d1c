// /owner/webhooks: the endpoints the owner's other tools are told of events at (issue 56,
// docs/webhooks.md): each with its events, whether it is paused and why, and its latest deliveries;
// a form to make one (the signing secret shown once), and buttons to test, resume and delete.
import type { WebhookDelivery, WebhookEndpoint } from '../db/webhooks-repository.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-events.js';
import { renderOwnerPage, ScrollTable, shortTime } from './owner-layout.js';
import { standsNow } from './person-messages.js';

export const webhooksWords = {
  title: 'Webhooks',
  intro:
    'An endpoint is told of events as they happen: a sign-up, a confirmation, a change of consent, the launch’s progress, a bounce. Zapier’s “Catch Hook”, Make’s custom webhook, a CRM, or a Slack channel can be one. Each delivery is signed (Standard Webhooks), tried again for over a day if it is not accepted, and never sent twice once it is.',
  docs: 'How to connect one: docs/webhooks.md.',
  made: (name: string) => `The endpoint “${name}” is made.`,
  secret: 'Its signing secret, shown only this once: give it to the tool that receives the events.',
  tested: (name: string, answer: string) => `The test to “${name}” was accepted (${answer}).`,
  testFailed: (name: string, answer: string) => `The test to “${name}” was not accepted: ${answer}.`,
  resumed: (name: string) => `“${name}” is resumed: what waited for it goes now.`,
  deleted: (name: string) => `“${name}” is deleted: it is told nothing more.`,
  makeHeading: 'Make an endpoint',
  name: 'Name (what it is, such as the CRM)',
  url: 'Address (https://…)',
  kind: 'What it is',
  kinds: {
    standard: 'A tool that takes signed events (Zapier, Make, a CRM)',
    slack: 'A Slack channel (an incoming-webhook address)',
  },
  events: 'Events (none ticked: all)',
  personal: 'Add the person’s name, email and phone to their events',
  personalNote: 'Only for a tool that keeps the list as safely as this site does. Slack never gets them.',
  make: 'Make the endpoint',
  listHeading: 'Endpoints',
  none: 'No endpoints yet.',
  allEvents: 'All events',
  withPersonal: 'With people’s details',
  paused: (at: string, reason: string) => `Paused ${at}: ${reason}`,
  working: 'Working',
  waiting: (count: number) => `${count.toLocaleString('en-US')} waiting`,
  latest: 'Latest deliveries',
  noDeliveries: 'Nothing delivered to it yet.',
  columns: { event: 'Event', state: 'Where it stands', tries: 'Tries', answer: 'Last answer' },
  test: (name: string) => `Send “${name}” a test`,
  resume: (name: string) => `Resume “${name}”`,
  delete: (name: string) => `Delete “${name}”`,
};

const words = webhooksWords;

export interface EndpointView {
  endpoint: WebhookEndpoint;
  waiting: number;
  deliveries: WebhookDelivery[];
}

export interface WebhooksPageOptions {
  ownerEmail: string;
  endpoints: EndpointView[];
  made?: { name: string; secret?: string };
  notice?: string;
  problem?: string;
  typed?: { name: string; url: string; kind: string; events: string[]; personal: boolean };
}

/** One button that acts on one endpoint, by its name (a POST from our own page). */
function ActionForm({
  action,
  name,
  label,
  primary = false,
}: {
  action: string;
  name: string;
  label: string;
  primary?: boolean;
}) {
  return (
    <form method="post" action={`/owner/webhooks/${action}`}>
      <input type="hidden" name="name" value={name} />
      <button type="submit" className={`button button--${primary ? 'primary' : 'secondary'}`}>
        {label}
      </button>
    </form>
  );
}

function EndpointSection({ endpoint, waiting, deliveries, now }: EndpointView & { now: number }) {
  const name = endpoint.name;
  return (
    <section aria-labelledby={`endpoint-${endpoint.id}`} data-endpoint={name}>
      <h3 id={`endpoint-${endpoint.id}`}>{name}</h3>
      <p className="address">{endpoint.url}</p>
      <p>
        {endpoint.events === '*' ? words.allEvents : endpoint.events.join(', ')}
        {endpoint.withPersonalData ? `. ${words.withPersonal}` : ''}. {words.waiting(waiting)}.
      </p>
      <p className={endpoint.pausedAt ? 'notice notice--error' : ''}>
        {endpoint.pausedAt ? words.paused(shortTime(endpoint.pausedAt), endpoint.pausedReason ?? '') : words.working}
      </p>
      {deliveries.length === 0 ? (
        <p>{words.noDeliveries}</p>
      ) : (
        <ScrollTable label={`${words.latest}: ${name}`}>
          <thead>
            <tr>
              {Object.values(words.columns).map((heading) => (
                <th key={heading} scope="col">
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{delivery.type}</td>
                <td>{standsNow(delivery, now)}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <div className="actions">
        <ActionForm action="test" name={name} label={words.test(name)} />
        {endpoint.pausedAt && <ActionForm action="resume" name={name} label={words.resume(name)} primary />}
        <ActionForm action="delete" name={name} label={words.delete(name)} />
      </div>
    </section>
  );
}

export function webhooksPage({ ownerEmail, endpoints, made, notice, problem, typed }: WebhooksPageOptions): string {
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'webhooks' },
    <>
      <h1>{words.title}</h1>
      <p>{words.intro}</p>
      <p>{words.docs}</p>
      {made && (
        <div className="notice" role="status">
          <p>{words.made(made.name)}</p>
          {made.secret && (
            <>
              <p>{words.secret}</p>
              <p>
                <code className="secret">{made.secret}</code>
              </p>
            </>
          )}
        </div>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <h2>{words.listHeading}</h2>
      {endpoints.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        endpoints.map((view) => <EndpointSection key={view.endpoint.id} {...view} now={Date.now()} />)
      )}
      <h2>{words.makeHeading}</h2>
      <form method="post" action="/owner/webhooks">
        {problem && (
          <p className="notice notice--error" role="alert" id="endpoint-problem">
            {problem}
          </p>
        )}
        <p>
          <label htmlFor="endpoint-name">{words.name}</label>
          <input id="endpoint-name" name="name" type="text" maxLength={60} required defaultValue={typed?.name ?? ''} />
        </p>
        <p>
          <label htmlFor="endpoint-url">{words.url}</label>
          <input
            id="endpoint-url"
            name="url"
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            maxLength={2000}
            required
            defaultValue={typed?.url ?? ''}
          />
        </p>
        <fieldset>
          <legend>{words.kind}</legend>
          {(['standard', 'slack'] as const).map((kind) => (
            <label key={kind} className="choice">
              <input type="radio" name="kind" value={kind} defaultChecked={(typed?.kind ?? 'standard') === kind} />
              <span>{words.kinds[kind]}</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{words.events}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="choice">
              <input
                type="checkbox"
                name="events"
                value={type}
                defaultChecked={typed?.events.includes(type) ?? false}
              />
              <span>{type}</span>
            </label>
          ))}
        </fieldset>
        <label className="choice">
          <input
            type="checkbox"
            name="personal"
            value="yes"
            defaultChecked={typed?.personal ?? false}
            aria-describedby="personal-note"
          />
          <span>{words.personal}</span>
        </label>
        <p id="personal-note">{words.personalNote}</p>
        <div className="actions">
          <button type="submit" className="button button--primary">
            {words.make}
          </button>
        </div>
      </form>
    </>,
  );
}
