// Test support: the app as the server builds it over a broadcast world (broadcast-setup.ts), with
// its reports routes from the world's configuration (through buildTestApp), and what tests read of it.
import type { setup } from './broadcast-setup.js';
import { buildTestApp } from './build-test-app.js';
import { SITE } from './site.js';

export type BroadcastWorld = Awaited<ReturnType<typeof setup>>;

export async function appFor({ store, product, database }: BroadcastWorld) {
  const { app } = await buildTestApp({ existing: { db: store, database, product }, config: { siteUrl: SITE } });
  return app;
}

/** Each person's first message's token (what the providers hand back). */
export async function firstTokens(world: BroadcastWorld, people: { id: string }[]): Promise<string[]> {
  const messages = await Promise.all(people.map((person) => world.store.sentMessages.messagesTo(person.id)));
  return messages.map((list) => list[0]!.token);
}

/** May we email this person now (the one rule every sender asks)? */
export async function mayEmail(world: BroadcastWorld, person: { id: string }): Promise<boolean> {
  return world.broadcasts.subscriptions.mayContact((await world.store.subscribers.subscriber(person.id))!, 'email');
}
