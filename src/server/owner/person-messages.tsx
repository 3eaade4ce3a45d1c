// The person page's record of their messages (issue 54): every message of every kind leaves through
// the one outbox, so one table says what went to them, what waits, and why one did not go.
import type { PersonMessage } from '../db/outbox-rows.js';
import { ownerWords } from './owner-words.js';
import { ScrollTable, shortTime } from './owner-layout.js';

const words = ownerWords.person;

/** Where one message stands, in words: sent when, waiting until when (a time still to come), or not sent. */
export function standsNow(message: Pick<PersonMessage, 'state' | 'sentAt' | 'nextAttemptAt'>, now: number): string {
  if (message.state === 'sent') return words.messageStates.sent(shortTime(message.sentAt));
  const at = message.nextAttemptAt;
  const ahead = at !== null && Date.parse(at) > now;
  if (message.state === 'queued') return words.messageStates.queued(ahead ? shortTime(at) : '');
  return words.messageStates[message.state](shortTime(at));
}

/** `now`: the page's moment, which says whether a time a message waits for is still to come. */
export function PersonMessages({ messages, now }: { messages: PersonMessage[]; now: number }) {
  return (
    <section>
      <h2 id="messages-heading">{words.messagesHeading}</h2>
      <p>{words.messagesIntro}</p>
      {messages.length === 0 ? (
        <p>{words.noMessages}</p>
      ) : (
        <ScrollTable label={words.messagesHeading}>
          <thead>
            <tr>
              <th scope="col">{words.message}</th>
              <th scope="col">{words.channel}</th>
              <th scope="col">{words.standsNow}</th>
              <th scope="col">{words.why}</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr key={message.id}>
                <td>
                  {message.kind === 'broadcast'
                    ? words.messageKinds.broadcast(message.broadcast)
                    : words.messageKinds[message.kind]}
                </td>
                <td className="word">{words.channels[message.channel]}</td>
                <td>{standsNow(message, now)}</td>
                <td>{message.state === 'sent' ? '' : (message.error ?? '')}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
