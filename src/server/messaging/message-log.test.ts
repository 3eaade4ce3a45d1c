// The message log writes what one turn of the event loop began in one statement, and what ended in
// another (decision 054): each send still gets its own token and record, and none waits for ever.
import { describe, expect, it } from 'vitest';
import type { SendOutcomeIds, SendingMessage } from '../db/sent-messages-repository.js';
import { MessageLog, type MessageLogStore } from './message-log.js';
import { createMessageTokens } from './message-tokens.js';

function loggedStore(failBegin = false) {
  const begun: SendingMessage[][] = [];
  const ended: SendOutcomeIds[][] = [];
  const store: MessageLogStore = {
    sentMessages: {
      sending: async (messages) => void begun.push(messages),
      sent: async () => undefined,
      sentMany: async (outcomes) => void ended.push(outcomes),
      advance: async () => true,
    },
    feedbackEvents: { store: async () => true },
  };
  const tokens = createMessageTokens('test-secret-key-that-is-long-enough-123');
  if (failBegin)
    tokens.issue = () => {
      throw new Error('no token');
    };
  return { log: new MessageLog({ store, tokens, siteUrl: 'https://scamsavvy.example' }), begun, ended };
}

const email = (signupId: string) => ({
  channel: 'email' as const,
  purpose: 'confirmation' as const,
  signupId,
  feedbackId: 'confirmation:confirm:scamsavvy',
});

describe('the message log', () => {
  it('writes the messages begun in one turn in one statement, and their "sent"s in one more', async () => {
    const { log, begun, ended } = loggedStore();
    const outgoing = await Promise.all(['a', 'b', 'c'].map((id) => log.begin(email(id))));
    expect(begun).toHaveLength(1);
    expect(begun[0]!.map((message) => message.signupId)).toEqual(['a', 'b', 'c']);
    // Each its own token, the one its record was written with.
    expect(new Set(outgoing.map((each) => each.token)).size).toBe(3);
    expect(begun[0]!.map((message) => message.token)).toEqual(outgoing.map((each) => each.token));
    await Promise.all(outgoing.map((each, index) => log.sent(each.token, { providerId: `id-${index}` })));
    expect(ended).toEqual([
      outgoing.map((each, index) => ({ token: each.token, state: 'sent', providerId: `id-${index}` })),
    ]);
    // A later turn is a statement of its own.
    await log.begin(email('d'));
    expect(begun).toHaveLength(2);
  });

  it('fails every send of a turn whose records could not be made, rather than keep one waiting', async () => {
    const { log } = loggedStore(true);
    const results = await Promise.allSettled(['a', 'b'].map((id) => log.begin(email(id))));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
