// The rules of sending a broadcast, in one place for the command, the dashboard and the senders:
// which state may change to which, when a sender is taken for dead, and that SQLite allows one
// sender at a time (its outbox has one sender slot; PostgreSQL's senders share the outbox).
import { hostname } from 'node:os';
import type { BroadcastState } from '../db/broadcasts-repository.js';
import type { Engine } from '../db/column-types.js';
import type { BroadcastsRepository } from '../db/broadcasts-repository.js';
import type { BroadcastSendersRepository } from '../db/broadcast-senders-repository.js';
import type { SenderInfo } from '../db/broadcast-senders-repository.js';
import { BroadcastError } from './broadcast-error.js';

/** Each change of a broadcast's state: where it goes, and the states it may come from. */
export const STATE_CHANGES = {
  /** A sender starts a ready broadcast. */
  start: { to: 'sending', from: ['ready'] },
  /** `sudo scamsavvy broadcast resume`: only a paused broadcast goes on. */
  resume: { to: 'sending', from: ['paused'] },
  /** The dashboard's Send and Resume buttons: start, go on after a pause, or keep sending (pressed twice). */
  sendOrResume: { to: 'sending', from: ['ready', 'paused', 'sending'] },
  /** Senders stop after the messages they are sending now. */
  pause: { to: 'paused', from: ['ready', 'sending'] },
  /** A sender found nothing left to send. */
  finish: { to: 'finished', from: ['sending'] },
  /** There is something to send again (a top-up added people, or messages whose fate was unknown go again). */
  reopen: { to: 'ready', from: ['finished'] },
} as const satisfies Record<string, { to: BroadcastState; from: readonly BroadcastState[] }>;

export type StateChange = keyof typeof STATE_CHANGES;

/** Makes the change if the broadcast is in one of the states it may come from; false if it is not. */
export function changeState(
  broadcasts: Pick<BroadcastsRepository, 'setState'>,
  broadcastId: number,
  change: StateChange,
): Promise<boolean> {
  const { to, from } = STATE_CHANGES[change];
  return broadcasts.setState(broadcastId, to, [...from]);
}

/** Unheard of this long, a sender on another machine is taken for dead (it beats every 2 s). */
export const SENDER_STALE_MS = 15_000;

/** True if a process with this id runs on this machine. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The one liveness check: a sender is dead when its process is gone (on this machine) or it has not
 * been heard from for `staleMs`. A sender never takes itself (`self`) for dead.
 */
export function senderIsDead(
  sender: SenderInfo,
  { self, host = hostname(), staleMs = SENDER_STALE_MS }: { self?: string; host?: string; staleMs?: number } = {},
): boolean {
  if (sender.id === self) return false;
  if (sender.host === host && !processAlive(sender.pid)) return true;
  return Date.now() - Date.parse(sender.heartbeatAt) > staleMs;
}

/** The most sender processes `send --workers N` starts. */
export const MOST_WORKERS = 32;

/** Whether the engine lets this many senders run at once: SQLite one, PostgreSQL any. */
export function allowsSenders(engine: Engine, count: number): boolean {
  return engine !== 'sqlite' || count <= 1;
}

/** The one-sender rule, before starting `workers` senders from the command. */
export function checkSenderCount(engine: Engine, workers: number): void {
  if (!allowsSenders(engine, workers))
    throw new BroadcastError(
      'SQLite allows one sender at a time: use --workers 1, or PostgreSQL (DATABASE_URL) for more.',
    );
}

/**
 * The one-sender rule, before the dashboard starts a sender beside any already running (from the
 * terminal?). Stale senders are the new sender's own to clear; only a live one refuses a second.
 * The outbox's single sender slot on SQLite (SenderBusyError) stands behind both checks.
 */
export async function checkNoOtherSender(
  senders: Pick<BroadcastSendersRepository, 'engine' | 'liveSenders'>,
): Promise<void> {
  if (allowsSenders(senders.engine, 2)) return;
  const running = (await senders.liveSenders()).filter((sender) => !senderIsDead(sender));
  if (!allowsSenders(senders.engine, running.length + 1))
    throw new BroadcastError('A sender is already running (from the terminal?). SQLite allows one at a time.');
}
