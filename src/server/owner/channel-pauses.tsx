// The channels a failure of ours paused, as the owner sees them: a line each on the list, and on a
// broadcast's page a notice each that the owner's script shows, fills and hides as the progress
// changes (src/client/owner/live-progress.ts reads the data-pause-* attributes).
import type { ProgressPause } from '../broadcast/broadcast-progress.js';
import type { Channel } from '../db/message-channels.js';
import { shortTime } from './owner-layout.js';
import { ownerWords } from './owner-words.js';

const words = ownerWords.broadcasts;

/** On the list, under a broadcast's state: "Email paused: <the reason>" for each paused channel. */
export function PauseLines({ pauses }: { pauses: ProgressPause[] }) {
  if (pauses.length === 0) return null;
  return (
    <ul className="pause-lines">
      {pauses.map((pause) => (
        <li key={pause.channel}>
          <strong>{words.paused[pause.channel] ?? pause.channel}:</strong> {pause.reason}
        </li>
      ))}
    </ul>
  );
}

/**
 * On a broadcast's page, in one live region: a notice for every channel the broadcast sends, hidden
 * while that channel is not paused, so the script only shows, fills and hides what is already here
 * (every word stays on the server). Under them, the way on: Resume.
 */
export function PauseNotices({
  channels,
  pauses,
  resumeHref,
  resumeLabel,
}: {
  channels: Channel[];
  pauses: ProgressPause[];
  resumeHref: string;
  resumeLabel: string;
}) {
  return (
    <div className="pauses" aria-live="polite" data-pauses="">
      {channels.map((channel) => {
        const pause = pauses.find((each) => each.channel === channel);
        return (
          <div
            className="notice notice--error notice--pause"
            data-pause-channel={channel}
            key={channel}
            hidden={!pause}
          >
            <h2>
              {words.paused[channel] ?? channel} {words.pausedSince}{' '}
              <time data-pause-field="since" dateTime={pause?.pausedAt}>
                {shortTime(pause?.pausedAt ?? null)}
              </time>{' '}
              {words.utc}
            </h2>
            <p data-pause-field="reason">{pause?.reason}</p>
            <p data-pause-answer="" hidden={!pause?.answer}>
              {words.pausedAnswer} <q data-pause-field="answer">{pause?.answer}</q>
            </p>
          </div>
        );
      })}
      <div className="pauses__next" data-pause-next="" hidden={pauses.length === 0}>
        <p>{words.pausedAdvice}</p>
        <a className="button button--primary" href={resumeHref}>
          {resumeLabel}
        </a>
      </div>
    </div>
  );
}
