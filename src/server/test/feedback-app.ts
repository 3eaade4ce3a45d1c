// Test support: the app as the server builds it over a broadcast world (broadcast-setup.ts), with
// feedback's routes from the world's configuration, and a poster for a provider's webhook.
import { createApp } from '../app.js';
import { createFeedbackParts } from '../bounces/reports-setup.js';
import type { setup } from './broadcast-setup.js';
import { testConfig } from './test-config.js';

export const SITE = 'https://scamsavvy.example';

export type BroadcastWorld = Awaited<ReturnType<typeof setup>>;

export function appFor({ store, broadcasts, config }: BroadcastWorld) {
  return createApp({
    config: testConfig({ siteUrl: SITE }),
    db: store,
    serveSite: false,
    logger: false,
    feedback: createFeedbackParts(config.messaging, store, broadcasts.subscriptions),
  });
}

/** Each person's first message's token (what the providers hand back). */
export async function firstTokens(world: BroadcastWorld, people: { id: string }[]): Promise<string[]> {
  const messages = await Promise.all(people.map((person) => world.store.feedback.messagesTo(person.id)));
  return messages.map((list) => list[0]!.token);
}

/** May we email this person now (the one rule every sender asks)? */
export async function mayEmail(world: BroadcastWorld, person: { id: string }): Promise<boolean> {
  return world.broadcasts.subscriptions.mayContact((await world.store.consent.subscriber(person.id))!, 'email');
}
