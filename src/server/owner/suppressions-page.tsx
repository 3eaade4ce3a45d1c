// The suppression list, /owner/suppressions: whose address (masked), why, when and the answer that
// caused it, filtered as the command filters it; the ones that may have been our fault can be lifted
// after one question (decision 037).
import type { SuppressedAddress, SuppressionFilter } from '../suppressions/way-back.js';
import type { SuppressionReason } from '../db/suppressions.table.js';
import { ownerWords } from './owner-words.js';
import { Notice, renderOwnerPage, ScrollTable, shortTime } from './owner-layout.js';

const words = ownerWords.suppressions;
const REASON_CHOICES: SuppressionReason[] = ['bounced', 'undeliverable', 'complained', 'sms_stop', 'left', 'deleted'];
/** Rows the page shows at most (the command lists them all). */
const ROWS = 500;

/** The filter as a query string, for the links between the list and its question. */
export function filterQuery(filter: SuppressionFilter): string {
  const query = new URLSearchParams();
  if (filter.reason) query.set('reason', filter.reason);
  if (filter.since) query.set('since', filter.since.toISOString().slice(0, 10));
  if (filter.code) query.set('code', filter.code);
  const text = query.toString();
  return text ? `?${text}` : '';
}

function FilterFields({ filter }: { filter: SuppressionFilter }) {
  return (
    <>
      <input type="hidden" name="reason" value={filter.reason ?? ''} />
      <input type="hidden" name="since" value={filter.since ? filter.since.toISOString().slice(0, 10) : ''} />
      <input type="hidden" name="code" value={filter.code ?? ''} />
    </>
  );
}

export function suppressionsPage({
  ownerEmail,
  filter,
  entries,
  notice,
  problem,
  unreadable = false,
}: {
  ownerEmail: string;
  filter: SuppressionFilter;
  entries: SuppressedAddress[];
  notice?: string;
  problem?: string;
  /** Without SECRET_KEY the list's keyed hashes cannot be read. */
  unreadable?: boolean;
}): string {
  const liftable = entries.filter((entry) => entry.liftable).length;
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'suppressions' },
    <>
      <h1>{words.title}</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      {problem ? <Notice kind="error">{problem}</Notice> : null}
      <p>{words.intro}</p>
      <form method="get" action="/owner/suppressions" className="filters">
        <fieldset>
          <legend>{words.filter}</legend>
          <p>
            <label htmlFor="reason">{words.reason}</label>
            <select id="reason" name="reason" defaultValue={filter.reason ?? ''}>
              <option value="">{words.anyReason}</option>
              {REASON_CHOICES.map((reason) => (
                <option value={reason} key={reason}>
                  {words.reasons[reason]}
                </option>
              ))}
            </select>
          </p>
          <p>
            <label htmlFor="since">{words.since}</label>
            <input
              type="text"
              id="since"
              name="since"
              inputMode="numeric"
              defaultValue={filter.since ? filter.since.toISOString().slice(0, 10) : ''}
            />
          </p>
          <p>
            <label htmlFor="code">{words.code}</label>
            <input type="text" id="code" name="code" defaultValue={filter.code ?? ''} />
          </p>
          <button type="submit" className="button button--secondary">
            {words.show}
          </button>
        </fieldset>
      </form>
      {liftable > 0 ? (
        <div className="actions actions--spaced">
          <a className="button button--primary" href={`/owner/suppressions/lift${filterQuery(filter)}`}>
            {words.liftButton(liftable)}
          </a>
        </div>
      ) : null}
      {unreadable ? (
        <Notice kind="error">{words.noSecretKey}</Notice>
      ) : entries.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        <ScrollTable label={words.title}>
          <thead>
            <tr>
              <th scope="col">{words.when}</th>
              <th scope="col">{words.channel}</th>
              <th scope="col">{words.who}</th>
              <th scope="col">{words.reason}</th>
              <th scope="col">{words.answer}</th>
            </tr>
          </thead>
          <tbody>
            {entries.slice(0, ROWS).map((entry) => (
              <tr key={entry.id} data-reason={entry.reason}>
                <td>{shortTime(entry.createdAt)}</td>
                <td className="word">{words.channels[entry.channel]}</td>
                <td className="word">{entry.who}</td>
                <td>
                  {words.reasons[entry.reason] ?? entry.reason}
                  {entry.liftable ? null : ` (${words.notLiftable})`}
                </td>
                <td>{[entry.code, entry.answer].filter(Boolean).join(' · ')}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>,
  );
}

/** The one question before lifting: how many, and what happens; nothing changes until its button (a POST). */
export function liftQuestionPage({
  ownerEmail,
  filter,
  count,
}: {
  ownerEmail: string;
  filter: SuppressionFilter;
  count: number;
}): string {
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'suppressions' },
    <>
      <h1>{words.question(count)}</h1>
      <p>{words.questionHint}</p>
      <form method="post" action="/owner/suppressions/lift">
        <FilterFields filter={filter} />
        <div className="actions">
          <button type="submit" className="button button--primary">
            {words.yes}
          </button>
          <a className="button button--secondary" href={`/owner/suppressions${filterQuery(filter)}`}>
            {words.cancel}
          </a>
        </div>
      </form>
    </>,
  );
}
