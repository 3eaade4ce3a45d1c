// The Replies list: texts people sent us that no rule acted on, newest first, each number shown only
// by its last four digits (issue 54: no reply is dropped unseen).
import { ownerWords } from './owner-words.js';
import type { SmsReply } from '../db/sms-replies-repository.js';
import { renderOwnerPage, ScrollTable, shortTime } from './owner-layout.js';

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
        <ScrollTable label={words.heading}>
          <thead>
            <tr>
              <th scope="col">{words.when}</th>
              <th scope="col">{words.from}</th>
              <th scope="col">{words.words}</th>
            </tr>
          </thead>
          <tbody>
            {replies.map((reply) => (
              <tr key={reply.id} data-reply={reply.id}>
                <td>{shortTime(reply.receivedAt)}</td>
                <td>{words.phone(reply.phoneEnd)}</td>
                <td lang="">{reply.body}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </>,
  );
}
