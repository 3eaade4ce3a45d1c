// Launch day in the browser: the broadcasts, one broadcast's progress (updated in place by the
// owner's script, src/client/owner/live-progress.ts), and the question before each action.
import { PROGRESS_COUNTS, type BroadcastProgress } from '../broadcast/broadcast-progress.js';
import { ownerWords } from './owner-words.js';
import type { Broadcast } from '../db/outbox-repository.js';
import { Notice, renderOwnerPage, ScrollTable, shortPage, shortTime } from './owner-layout.js';

const words = ownerWords.broadcasts;

export const BROADCAST_ACTIONS = ['test', 'send', 'resume', 'pause'] as const;
export type BroadcastAction = (typeof BROADCAST_ACTIONS)[number];

const stateWord = (state: string) => words.states[state] ?? state;
const broadcastPath = (name: string) => `/owner/broadcasts/${encodeURIComponent(name)}`;

export function broadcastsPage({
  ownerEmail,
  broadcasts,
}: {
  ownerEmail: string;
  broadcasts: { broadcast: Broadcast; progress: BroadcastProgress }[];
}): string {
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'broadcasts' },
    <>
      <h1>{words.heading}</h1>
      <p>{words.intro}</p>
      {broadcasts.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        <ScrollTable label={words.heading}>
          <thead>
            <tr>
              <th scope="col">{words.name}</th>
              <th scope="col">{words.template}</th>
              <th scope="col">{words.state}</th>
              <th scope="col">{words.progress}</th>
            </tr>
          </thead>
          <tbody>
            {broadcasts.map(({ broadcast, progress }) => (
              <tr key={broadcast.id}>
                <td>
                  <a className="link" href={broadcastPath(broadcast.name)} aria-label={words.open(broadcast.name)}>
                    {broadcast.name}
                  </a>
                </td>
                <td>{broadcast.template}</td>
                <td>{stateWord(progress.state)}</td>
                <td>{progress.fields.done}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>,
  );
}

/** Which buttons fit the broadcast's state: send when ready, resume when paused, pause while sending. */
export function actionsFor(state: Broadcast['state']): BroadcastAction[] {
  switch (state) {
    case 'ready':
      return ['send'];
    case 'paused':
      return ['resume'];
    case 'sending':
      return ['pause'];
    case 'finished':
      return [];
  }
}

const BUTTON_WORDS: Record<Exclude<BroadcastAction, 'test'>, string> = {
  send: words.sendButton,
  resume: words.resumeButton,
  pause: words.pauseButton,
};

export function broadcastPage({
  ownerEmail,
  broadcast,
  progress,
  script,
  notice,
  problem,
}: {
  ownerEmail: string;
  broadcast: Broadcast;
  progress: BroadcastProgress;
  script?: string;
  notice?: string;
  problem?: string;
}): string {
  const live = (key: string) => ({ 'data-live': key });
  return renderOwnerPage(
    { title: broadcast.name, ownerEmail, current: 'broadcasts', ...(script ? { script } : {}) },
    <>
      <h1>
        {words.title}: {broadcast.name}
      </h1>
      {notice ? <Notice>{notice}</Notice> : null}
      {problem ? <Notice kind="error">{problem}</Notice> : null}
      <p>
        {broadcast.template} · {broadcast.segment} · created {shortTime(broadcast.createdAt)} UTC
      </p>
      <section data-progress-url={`${broadcastPath(broadcast.name)}/progress`}>
        <h2 id="progress-heading">
          {words.state}:{' '}
          <span {...live('state')} data-state={progress.state}>
            {stateWord(progress.state)}
          </span>
        </h2>
        <progress
          className="progress"
          max={100}
          value={progress.percent}
          aria-labelledby="progress-done"
          data-live-percent=""
        />
        <p id="progress-done" {...live('done')}>
          {progress.fields.done}
        </p>
        <p className="hint">{words.live}</p>
        <ScrollTable label={words.progress}>
          <thead>
            <tr>
              <th scope="col">{words.state}</th>
              {broadcast.channels.map((channel) => (
                <th scope="col" className="number" key={channel}>
                  {words.channel[channel] ?? channel}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PROGRESS_COUNTS.map((key) => (
              <tr key={key}>
                <th scope="row">{words.counts[key]}</th>
                {broadcast.channels.map((channel) => (
                  <td className="number" key={channel} {...live(`${channel}.${key}`)}>
                    {progress.fields[`${channel}.${key}`]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </ScrollTable>
        <ul className="figures">
          <li>
            <span className="figure__label">{words.rate}</span>
            <span className="figure__value" {...live('rate')}>
              {progress.fields.rate}
            </span>
          </li>
          <li>
            <span className="figure__label">{words.eta}</span>
            <span className="figure__value" {...live('eta')}>
              {progress.fields.eta}
            </span>
          </li>
          <li>
            <span className="figure__label">{words.senders}</span>
            <span className="figure__value" {...live('senders')}>
              {progress.fields.senders}
            </span>
          </li>
        </ul>
        {/* What a screen reader hears when the state changes (sending → finished); not every count. */}
        <p className="visually-hidden" role="status" data-live-announce="" />
      </section>
      <div className="actions">
        {actionsFor(progress.state).map((action) => (
          <a className="button button--primary" href={`${broadcastPath(broadcast.name)}/${action}`} key={action}>
            {BUTTON_WORDS[action as Exclude<BroadcastAction, 'test'>]}
          </a>
        ))}
      </div>
      <section>
        <h2 id="test-heading">{words.testHeading}</h2>
        <form method="get" action={`${broadcastPath(broadcast.name)}/test`}>
          <label htmlFor="to">{words.testLabel}</label>
          <p>
            <input type="text" id="to" name="to" autoComplete="email" required />
          </p>
          <button type="submit" className="button button--secondary">
            {words.testButton}
          </button>
        </form>
      </section>
    </>,
  );
}

/** The question before an action: nothing happens until its button (a POST) is pressed. */
export function confirmActionPage({
  ownerEmail,
  broadcast,
  action,
  question,
  to,
}: {
  ownerEmail: string;
  broadcast: Broadcast;
  action: BroadcastAction;
  question: string;
  to?: string;
}): string {
  return renderOwnerPage(
    { title: broadcast.name, ownerEmail, current: 'broadcasts' },
    <>
      <h1>{question}</h1>
      <div className="actions">
        <form method="post" action={`${broadcastPath(broadcast.name)}/${action}`}>
          {to ? <input type="hidden" name="to" value={to} /> : null}
          <button type="submit" className={`button button--${action === 'pause' ? 'secondary' : 'primary'}`}>
            {words.confirm.yes[action]}
          </button>
        </form>
        <a className="button button--secondary" href={broadcastPath(broadcast.name)}>
          {words.confirm.cancel}
        </a>
      </div>
    </>,
  );
}

export const broadcastMissingPage = (ownerEmail: string) =>
  shortPage({
    title: words.missingTitle,
    text: words.missing,
    ownerEmail,
    current: 'broadcasts',
    link: { href: '/owner/broadcasts', label: words.heading },
  });
