// A broadcast's messages that did not go, on its page: the ones held aside (each paused its channel
// twice) and the ones skipped, with why and how many (issue 54: the owner always sees why).
import type { HeldMessage } from '../broadcast/failed-messages.js';
import type { Channel } from '../db/message-channels.js';
import { ownerWords } from './owner-words.js';
import { ScrollTable } from './owner-layout.js';

const words = ownerWords.broadcasts;

/** Why messages were skipped, each reason with how many. */
export interface SkippedReason {
  channel: Channel;
  reason: string;
  count: number;
}

export function HeldMessages({ held }: { held: HeldMessage[] }) {
  if (held.length === 0) return null;
  return (
    <section>
      <h2 id="held-heading">{words.heldHeading}</h2>
      <p>{words.heldIntro}</p>
      <ScrollTable label={words.heldHeading}>
        <thead>
          <tr>
            <th scope="col">{words.retry.channel}</th>
            <th scope="col">{words.heldPerson}</th>
            <th scope="col">{words.heldAnswer}</th>
          </tr>
        </thead>
        <tbody>
          {held.slice(0, 100).map((message, index) => (
            <tr key={index}>
              <td className="word">{words.channel[message.channel] ?? message.channel}</td>
              <td className="word">{message.person}</td>
              <td>{message.answer}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </section>
  );
}

export function SkippedReasons({ skipped }: { skipped: SkippedReason[] }) {
  if (skipped.length === 0) return null;
  return (
    <section>
      <h2 id="skipped-heading">{words.skippedHeading}</h2>
      <p>{words.skippedIntro}</p>
      <ScrollTable label={words.skippedHeading}>
        <thead>
          <tr>
            <th scope="col">{words.retry.channel}</th>
            <th scope="col">{words.skippedWhy}</th>
            <th scope="col" className="number">
              {words.skippedCount}
            </th>
          </tr>
        </thead>
        <tbody>
          {skipped.map((row) => (
            <tr key={`${row.channel} ${row.reason}`} data-skipped={row.channel}>
              <td className="word">{words.channel[row.channel] ?? row.channel}</td>
              <td>{row.reason}</td>
              <td className="number">{row.count.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </section>
  );
}
