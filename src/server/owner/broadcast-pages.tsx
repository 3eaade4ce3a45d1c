// Launch day in the browser: the broadcasts, one broadcast's progress (updated in place by the
// owner's script, src/client/owner/live-progress.ts), and the question before each action.
import { Fragment } from 'react';
import {
  HEALTH_COUNTS,
  HEALTH_RATES,
  PROGRESS_COUNTS,
  type BroadcastProgress,
} from '../broadcast/broadcast-progress.js';
import type { RetryPlan } from '../broadcast/retry-plan.js';
import type { HeldMessage } from '../broadcast/failed-messages.js';
import { ownerWords } from './owner-words.js';
import type { Channel } from '../db/message-channels.js';
import type { WrittenMessage } from '../messaging/message-folder.js';
import type { ReadyCheck } from '../ready/ready-check.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import { PauseLines, PauseNotices } from './channel-pauses.js';
import { HeldMessages, SkippedReasons, type SkippedReason } from './not-sent-sections.js';
import { Notice, renderOwnerPage, ScrollTable, shortPage, shortTime } from './owner-layout.js';

const words = ownerWords.broadcasts;

export const BROADCAST_ACTIONS = ['test', 'send', 'resume', 'pause', 'retry'] as const;
export type BroadcastAction = (typeof BROADCAST_ACTIONS)[number];

/** A broadcast's state as the owner reads it (the page and the progress its script polls). */
export const stateWord = (state: BroadcastProgress['state']) => words.states[state];
export const broadcastPath = (name: string) => `/owner/broadcasts/${encodeURIComponent(name)}`;

/** A rehearsal transport's folder and the newest messages written to it. */
export interface RehearsalFolder {
  channel: Channel;
  folder: string;
  count: number;
  newest: WrittenMessage[];
}

export function broadcastsPage({
  ownerEmail,
  broadcasts,
  rehearsal = [],
}: {
  ownerEmail: string;
  broadcasts: { broadcast: Broadcast; progress: BroadcastProgress }[];
  rehearsal?: RehearsalFolder[];
}): string {
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'broadcasts' },
    <>
      <h1>{words.heading}</h1>
      <p>{words.intro}</p>
      {rehearsal.length > 0 ? <Rehearsal folders={rehearsal} /> : null}
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
              <Fragment key={broadcast.id}>
                <tr {...(progress.pauses.length > 0 ? { className: 'has-pauses' } : {})}>
                  <td>
                    <a className="link" href={broadcastPath(broadcast.name)} aria-label={words.open(broadcast.name)}>
                      {broadcast.name}
                    </a>
                  </td>
                  <td>{broadcast.template}</td>
                  <td>{stateWord(progress.state)}</td>
                  <td>{progress.fields.done}</td>
                </tr>
                {/* Under the broadcast, the whole width: a reason is a sentence, too long for a column. */}
                {progress.pauses.length > 0 ? (
                  <tr>
                    <td colSpan={4}>
                      <PauseLines pauses={progress.pauses} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>,
  );
}

/** What a rehearsal wrote instead of sending: each folder, its count, and its newest files. */
function Rehearsal({ folders }: { folders: RehearsalFolder[] }) {
  const said = words.rehearsal;
  const has = (channel: Channel) => folders.some((folder) => folder.channel === channel);
  return (
    <section aria-labelledby="rehearsal">
      <h2 id="rehearsal">{said.heading}</h2>
      <p>{said.intro(said.channels(has('email'), has('sms')))}</p>
      {folders.map(({ channel, folder, count, newest }) => (
        <Fragment key={channel}>
          <h3>{said.folder(channel, folder, count)}</h3>
          {newest.length > 0 ? (
            <ScrollTable label={said.folder(channel, folder, count)}>
              <thead>
                <tr>
                  <th scope="col">{said.file}</th>
                  <th scope="col">{said.written}</th>
                  <th scope="col">{said.size}</th>
                </tr>
              </thead>
              <tbody>
                {newest.map((file) => (
                  <tr key={file.name}>
                    <td>{file.name}</td>
                    <td>{shortTime(file.at.toISOString())}</td>
                    <td>{`${Math.max(1, Math.round(file.bytes / 1024)).toLocaleString('en-US')} KB`}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          ) : null}
        </Fragment>
      ))}
    </section>
  );
}

/** Which buttons fit the broadcast's state: send when ready, resume when paused, pause while sending. */
export function actionsFor(state: BroadcastProgress['state']): BroadcastAction[] {
  switch (state) {
    case 'stopped':
      return ['resume'];
    case 'ready':
      return ['send'];
    case 'paused':
      return ['resume'];
    case 'sending':
    case 'texts-wait':
      return ['pause'];
    case 'finished':
      return [];
  }
}

const BUTTON_WORDS: Record<Exclude<BroadcastAction, 'test'>, string> = {
  send: words.sendButton,
  resume: words.resumeButton,
  pause: words.pauseButton,
  retry: words.retryButton,
};

/** Anything "Try the failed ones again" could queue (those the provider called unreachable only when ticked). */
export const hasRetry = (plan: RetryPlan | undefined): plan is RetryPlan =>
  plan !== undefined && plan.retryable + plan.undeliverable + plan.held > 0;

export function broadcastPage({
  ownerEmail,
  broadcast,
  progress,
  script,
  notice,
  problem,
  retry,
  held = [],
  refused = [],
  skipped = [],
}: {
  ownerEmail: string;
  broadcast: Broadcast;
  progress: BroadcastProgress;
  /** Messages set aside after pausing their channel twice, masked. */
  held?: HeldMessage[];
  /** Emails receiving servers refused for our sending, by domain. */
  refused?: { domain: string; count: number }[];
  /** Why messages were not sent (skipped), with how many. */
  skipped?: SkippedReason[];
  script?: string;
  notice?: string;
  problem?: string;
  /** What "Try the failed ones again" would queue; absent where nothing can be sent (no SECRET_KEY). */
  retry?: RetryPlan;
}): string {
  const live = (key: string) => ({ 'data-live': key });
  // While a channel is paused, its notices carry Resume: the row of buttons does not repeat it.
  const actions = actionsFor(progress.state).filter((action) => !(action === 'resume' && progress.pauses.length > 0));
  return renderOwnerPage(
    { title: broadcast.name, ownerEmail, current: 'broadcasts', ...(script ? { script } : {}) },
    <>
      <h1>
        {words.title}: {broadcast.name}
      </h1>
      {notice ? <Notice>{notice}</Notice> : null}
      {problem ? <Notice kind="error">{problem}</Notice> : null}
      <PauseNotices
        channels={broadcast.channels}
        pauses={progress.pauses}
        resumeHref={`${broadcastPath(broadcast.name)}/resume`}
        resumeLabel={words.resumeButton}
      />
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
            {[
              ...PROGRESS_COUNTS,
              ...(progress.fields[`${broadcast.channels[0]}.delivered`] ? [...HEALTH_COUNTS, ...HEALTH_RATES] : []),
            ].map((key) => (
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
        {/* Texts held for daytime where their people are: how many, and when the next may go. */}
        <p {...live('waitingTexts')}>{progress.fields.waitingTexts}</p>
        {/* What a screen reader hears when the state changes (sending → finished); not every count. */}
        <p className="visually-hidden" role="status" data-live-announce="" />
      </section>
      <div className="actions">
        {actions.map((action) => (
          <a className="button button--primary" href={`${broadcastPath(broadcast.name)}/${action}`} key={action}>
            {BUTTON_WORDS[action as Exclude<BroadcastAction, 'test'>]}
          </a>
        ))}
        {hasRetry(retry) ? (
          <a className="button button--secondary" href={`${broadcastPath(broadcast.name)}/retry`}>
            {BUTTON_WORDS.retry}
          </a>
        ) : null}
      </div>
      {hasRetry(retry) ? <p className="hint">{words.retryHint(retry.retryable, retry.undeliverable)}</p> : null}
      {refused.length > 0 ? (
        <p className="hint">
          {words.refusedForOurSending(refused.map(({ domain, count }) => `${domain} ${count.toLocaleString('en-US')}`))}
        </p>
      ) : null}
      <HeldMessages held={held} />
      <SkippedReasons skipped={skipped} />
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
  hint,
  to,
  red = [],
}: {
  ownerEmail: string;
  broadcast: Broadcast;
  action: BroadcastAction;
  question: string;
  /** What else happens, said before the button. */
  hint?: string;
  to?: string;
  /** The red launch checks a first send would go on despite: listed, with a box to go anyway. */
  red?: ReadyCheck[];
}): string {
  return renderOwnerPage(
    { title: broadcast.name, ownerEmail, current: 'broadcasts' },
    <>
      <h1>{question}</h1>
      {hint ? <p>{hint}</p> : null}
      {red.length > 0 ? (
        <div className="notice notice--error">
          <p>{words.notReady.heading}</p>
          <ul>
            {red.map((one) => (
              <li key={one.id}>{`${one.title}: ${one.found}`}</li>
            ))}
          </ul>
          <p>
            <a className="link" href="/owner/ready">
              {words.notReady.link}
            </a>
          </p>
        </div>
      ) : null}
      <div className="actions">
        <form method="post" action={`${broadcastPath(broadcast.name)}/${action}`}>
          {to ? <input type="hidden" name="to" value={to} /> : null}
          {red.length > 0 ? (
            <label className="choice">
              <input type="checkbox" name={NOT_READY_FIELD} value="yes" required />
              <span>{words.notReady.anyway}</span>
            </label>
          ) : null}
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

/** The send question's box: go on although a launch check is red. */
export const NOT_READY_FIELD = 'not-ready';

export const broadcastMissingPage = (ownerEmail: string) =>
  shortPage({
    title: words.missingTitle,
    text: words.missing,
    ownerEmail,
    current: 'broadcasts',
    link: { href: '/owner/broadcasts', label: words.heading },
  });
