// What the broadcast feature offers the launch message's pages (consent/launch-message.ts declares
// what it needs): the launch broadcast that will go, and one person's place in its outbox. The
// broadcasts and their outbox are this feature's tables; the features below it read them only here.
import type { LaunchPlans } from '../consent/launch-message.js';
import type { BroadcastsRepository } from '../db/broadcasts-repository.js';
import type { OutboxRepository } from '../db/outbox-repository.js';

export function launchPlansOf(db: {
  broadcasts: Pick<BroadcastsRepository, 'list'>;
  outbox: Pick<OutboxRepository, 'ensureQueued'>;
}): LaunchPlans {
  return {
    async current() {
      const all = await db.broadcasts.list();
      const launch = all.filter((broadcast) => broadcast.template === 'launch').sort((a, b) => b.id - a.id)[0];
      if (!launch) return undefined;
      const { id, state, segment, confirmation, channels } = launch;
      return { id, finished: state === 'finished', segment, confirmation, channels };
    },
    ensureQueued: (broadcastId, rows) => db.outbox.ensureQueued(broadcastId, rows),
  };
}
