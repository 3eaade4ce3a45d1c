// What a broadcast's start is told and checks, apart from the control that starts it: the shapes of a
// start (its sender, its report, the rates and transports it gets) and the pure rules its preflight
// applies (a pause for health, a sender already at work, a restore whose later "no"s are unknown).
import type { FastifyBaseLogger } from 'fastify';
import { allowsSenders, senderIsDead } from './broadcast-rules.js';
import { BroadcastError } from './broadcast-error.js';
import type { SenderReport } from './broadcast-sender-options.js';
import type { SenderInfo } from '../db/broadcast-senders-repository.js';
import type { Broadcast, BroadcastState } from '../db/broadcasts-repository.js';
import type { ChannelPause } from '../db/broadcast-pauses-repository.js';
import type { RestoreMark } from '../db/restore-marks-repository.js';
import type { Channel } from '../db/message-channels.js';
import type { Engine } from '../db/column-types.js';
import type { Transports } from '../messaging/transports.js';
import type { ReadyCheck } from '../ready/ready-check.js';

/** Where the dashboard's senders say how they ended; the command's report to the terminal instead. */
export type SenderLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Messages a second per channel, for all of a broadcast's senders together (else the configuration's). */
export type Rates = Partial<Record<Channel, number>>;

/** A sender running in this process. */
export interface RunningSender {
  /** Finish what is in flight, record it, and end (Ctrl-C, SIGTERM, the server stopping). */
  stop(): void;
  /** How it ended; its transports are closed by then. */
  done: Promise<SenderReport>;
  /** Resolves once the sender is on record as alive (or has ended without getting that far). */
  registered: Promise<void>;
}

/** Where `sudo scamsavvy broadcast send` starts from, once the rules have let it. */
export interface SendStart {
  /** The broadcast as it is now (finished: nothing is left to send). */
  broadcast: Broadcast;
  /** With --resend-unknown: how many messages whose fate was unknown go again. */
  requeued?: number;
  /** resume of a broadcast that was not paused: the state it was in. */
  notPaused?: BroadcastState;
  /** resume: the channel pauses lifted (a failure of ours had paused them). */
  resumed?: ChannelPause[];
  /** resume while a sender already runs it (SQLite, one at a time): that sender goes on; none is started. */
  resumedInPlace?: boolean;
  /** --not-ready: the red launch checks it was started despite (the command records them in the audit log). */
  despiteRed?: ReadyCheck[];
}

/** The launch checks now (ready/ready-checks.ts; compose.ts gives the real ones). */
export type Readiness = () => Promise<ReadyCheck[]>;

/** The words that refuse a first send while a launch check is red, naming each. */
export function notReadyWords(red: ReadyCheck[], name: string): string {
  return `Not ready for launch: ${red.map((one) => `${one.title} (${one.found})`).join('; ')}. Put them right (sudo scamsavvy ready says how), or send anyway, knowingly: sudo scamsavvy broadcast send ${name} --not-ready (recorded in the audit log).`;
}

/** How this process opens its providers' connections (compose.ts): a check or a test needs one, a sender more. */
export type OpenTransports = (options?: { connections?: number }) => Transports;

/** What one start reads before it decides: the broadcast's channel pauses and, while it sends, its senders. */
export interface StartFacts {
  pauses: ChannelPause[];
  liveSenders: SenderInfo[];
}

/** Why nothing is sent after a restore that could not read what it replaced, and the two ways on. */
export function unknownAfterRestore(mark: RestoreMark, acknowledge: string): string {
  return [
    `This database was restored on ${mark.restoredAt.slice(0, 16).replace('T', ' ')} UTC (from ${mark.backupFile}), and the database it replaced could not be read.`,
    'Anyone who unsubscribed, replied STOP, complained, bounced or was deleted after that backup was made is unknown here, and the launch message could reach them.',
    "First bring in your email and text providers' suppression lists: sudo scamsavvy suppressions import FILE",
    `Or, if you are sure nothing like that happened after the backup was made: ${acknowledge}`,
  ].join('\n');
}

/**
 * A broadcast that paused itself to protect the domain (bounces or complaints past their limits)
 * goes on only when the owner says so knowingly: `resume --despite-health`, from the terminal.
 * True when they did, and there was such a pause.
 */
export function refuseUnhealthy(broadcast: Broadcast, pauses: ChannelPause[], despiteHealth: boolean): boolean {
  const health = pauses.find((pause) => pause.cause === 'health');
  if (!health) return false;
  if (!despiteHealth)
    throw new BroadcastError(
      `"${broadcast.name}" paused itself: ${health.reason}\nTo go on anyway: sudo scamsavvy broadcast resume ${broadcast.name} --despite-health`,
    );
  return true;
}

/**
 * After lifting a pause: a sender still at work on the broadcast's other channel (from the
 * terminal, say) takes the lifted channel up itself, and SQLite would refuse a second one.
 */
export function runningElsewhere(
  engine: Engine,
  state: BroadcastState | undefined,
  liveSenders: SenderInfo[],
): boolean {
  if (state !== 'sending') return false;
  const running = liveSenders.filter((sender) => !senderIsDead(sender));
  return running.length > 0 && !allowsSenders(engine, running.length + 1);
}
