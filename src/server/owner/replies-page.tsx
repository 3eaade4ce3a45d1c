// The Replies list: texts people sent us that no rule acted on, newest first, each number shown only
// by its last four digits (issue 54: no reply is dropped unseen). A list, not a table: each reply's
// words get the whole width on a phone.
import { ownerWords } from './owner-words.js';
import type { SmsReply } from '../db/sms-replies-repository.js';
import { renderOwnerPage, shortTime } from './owner-layout.js';

const words = ownerWords.replies;

export function repliesPage({
  ownerEmail,
  replies,
  keepDays,
}: {
  ownerEmail: string;
  replies: SmsReply[];
  keepDays: number;
}): string {
  return renderOwnerPage(
    { title: words.title, ownerEmail, current: 'replies' },
    <>
      <h1>{words.heading}</h1>
      <p>{words.intro(keepDays)}</p>
      {replies.length === 0 ? (
        <p>{words.none}</p>
      ) : (
        <ul className="replies">
          {replies.map((reply) => (
            <li key={reply.id} data-reply={reply.id}>
              <p className="hint">
                {shortTime(reply.receivedAt)} UTC · {words.phone(reply.phoneEnd)}
              </p>
              <p lang="">{reply.body}</p>
            </li>
          ))}
        </ul>
      )}
    </>,
  );
}
