// The question before "Try the failed ones again": what would go back in the queue, per channel and
// reason, and, only when the owner ticks it, those the provider said cannot be reached.
import type { RetryGroup, RetryPlan } from '../broadcast/retry-plan.js';
import type { Broadcast } from '../db/broadcasts-repository.js';
import { broadcastPath, hasRetry } from './broadcast-pages.js';
import { renderOwnerPage, ScrollTable, shortPage } from './owner-layout.js';
import { ownerWords } from './owner-words.js';

const words = ownerWords.broadcasts;

/** The form's checkbox: ticked, those the provider said cannot be reached go again too. */
export const UNDELIVERABLE_FIELD = 'undeliverable';
/** The form's checkbox: ticked, the held messages go again too. */
export const HELD_FIELD = 'held';

function Groups({ label, groups }: { label: string; groups: RetryGroup[] }) {
  return (
    <ScrollTable label={label}>
      <thead>
        <tr>
          <th scope="col">{words.retry.channel}</th>
          <th scope="col">{words.retry.reason}</th>
          <th scope="col" className="number">
            {words.retry.count}
          </th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group) => (
          <tr key={`${group.channel} ${group.reason}`}>
            <td className="word">{words.channel[group.channel] ?? group.channel}</td>
            <td>{group.reason}</td>
            <td className="number">{group.count.toLocaleString('en-US')}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

export function retryQuestionPage({
  ownerEmail,
  broadcast,
  plan,
}: {
  ownerEmail: string;
  broadcast: Broadcast;
  plan: RetryPlan;
}): string {
  const back = broadcastPath(broadcast.name);
  if (!hasRetry(plan))
    return shortPage({
      title: words.retry.nothingTitle,
      text: words.retry.none,
      ownerEmail,
      current: 'broadcasts',
      link: { href: back, label: words.retry.back },
    });
  const retryable = plan.groups.filter((group) => !group.undeliverable && !group.held);
  const held = plan.groups.filter((group) => group.held);
  const undeliverable = plan.groups.filter((group) => group.undeliverable);
  return renderOwnerPage(
    { title: broadcast.name, ownerEmail, current: 'broadcasts' },
    <>
      <h1>{words.confirm.retry(broadcast.name)}</h1>
      <p>{words.retry.intro}</p>
      {retryable.length > 0 ? (
        <>
          <h2>{words.retry.groups}</h2>
          <Groups label={words.retry.groups} groups={retryable} />
        </>
      ) : (
        <p>{words.retry.none}</p>
      )}
      <form method="post" action={`${back}/retry`}>
        {undeliverable.length > 0 ? (
          <fieldset>
            <legend>
              <h2>{words.retry.undeliverableHeading}</h2>
            </legend>
            <p>{words.retry.undeliverableIntro}</p>
            <Groups label={words.retry.undeliverableGroups} groups={undeliverable} />
            <label className="choice">
              <input
                type="checkbox"
                name={UNDELIVERABLE_FIELD}
                value="yes"
                aria-describedby={`${UNDELIVERABLE_FIELD}-note`}
              />
              <span>{words.retry.undeliverableLabel(plan.undeliverable)}</span>
            </label>
            <p className="choice__note" id={`${UNDELIVERABLE_FIELD}-note`}>
              {words.retry.undeliverableHint}
            </p>
          </fieldset>
        ) : null}
        {held.length > 0 ? (
          <fieldset>
            <legend>
              <h2>{words.retry.heldHeading}</h2>
            </legend>
            <p>{words.retry.heldIntro}</p>
            <Groups label={words.retry.heldGroups} groups={held} />
            <label className="choice">
              <input type="checkbox" name={HELD_FIELD} value="yes" />
              <span>{words.retry.heldLabel(plan.held)}</span>
            </label>
          </fieldset>
        ) : null}
        <div className="actions">
          <button type="submit" className="button button--primary">
            {words.confirm.yes.retry}
          </button>
          <a className="button button--secondary" href={back}>
            {words.confirm.cancel}
          </a>
        </div>
      </form>
    </>,
  );
}
