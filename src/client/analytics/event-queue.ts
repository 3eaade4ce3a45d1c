// Holds analytics calls until the providers are ready, replays them in order, and keeps one failing provider from the others.
import { ANALYTICS_QUEUE_LIMIT, analyticsOffMessage } from '../../shared/analytics-constants.js';
import type { AnalyticsProvider, PageView, SignupPerson, TrackedEvent } from './analytics-provider';

export type AnalyticsCall =
  | { kind: 'page'; view: PageView }
  | { kind: 'track'; event: TrackedEvent }
  | { kind: 'identify'; person: SignupPerson };

export const QUEUE_LIMIT = ANALYTICS_QUEUE_LIMIT;
/** How long a provider's script may take to load before it is given up on. */
export const LOAD_TIMEOUT_MS = 15_000;

type State =
  | { kind: 'waiting' } // for consent or for the scripts to load: calls are held
  | { kind: 'ready'; providers: AnalyticsProvider[] } // calls go straight to the providers that loaded
  | { kind: 'off' }; // unsupported or refused: calls are dropped

export interface QueueLogger {
  warn: (message: string, detail?: unknown) => void;
}

export class AnalyticsQueue {
  private state: State = { kind: 'waiting' };
  private held: AnalyticsCall[] = [];
  /** Each `start` gets a number, so a start overtaken by a later choice does nothing when it finishes. */
  private generation = 0;

  constructor(
    private readonly logger: QueueLogger = console,
    private readonly loadTimeoutMs = LOAD_TIMEOUT_MS,
  ) {}

  get status(): State['kind'] {
    return this.state.kind;
  }

  push(call: AnalyticsCall): void {
    if (this.state.kind === 'off') return;
    if (this.state.kind === 'ready') {
      this.deliver(this.state.providers, call);
      return;
    }
    if (this.held.length < QUEUE_LIMIT) this.held.push(call);
  }

  /**
   * Loads every provider (consent was given), then replays the held calls once, in order, to the
   * ones that loaded. A provider that fails to load is logged and left out; the others carry on.
   */
  async start(providers: AnalyticsProvider[]): Promise<void> {
    const generation = ++this.generation;
    this.state = { kind: 'waiting' };
    const results = await Promise.allSettled(providers.map((provider) => this.loadOne(provider)));
    if (generation !== this.generation) return; // the visitor changed their mind meanwhile
    const loaded = providers.filter((provider, index) => {
      const result = results[index];
      if (result?.status === 'fulfilled') return true;
      this.logger.warn(`Analytics: ${provider.name} could not load, so it gets no events.`, result?.reason);
      return false;
    });
    if (loaded.length === 0) {
      this.turnOff('no analytics provider could load');
      return;
    }
    const replay = this.held;
    this.held = [];
    this.state = { kind: 'ready', providers: loaded };
    for (const call of replay) this.deliver(loaded, call);
  }

  /**
   * Analytics is unsupported here (nothing configured, storage blocked, consent refused): warns
   * once with the reason and drops what is held, never to be replayed.
   */
  turnOff(reason: string): void {
    this.generation++;
    const wasOff = this.state.kind === 'off';
    this.state = { kind: 'off' };
    this.held = [];
    if (!wasOff) this.logger.warn(analyticsOffMessage(reason));
  }

  private async loadOne(provider: AnalyticsProvider): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${this.loadTimeoutMs} ms`)), this.loadTimeoutMs);
    });
    try {
      await Promise.race([provider.load(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private deliver(providers: AnalyticsProvider[], call: AnalyticsCall): void {
    for (const provider of providers) {
      try {
        if (call.kind === 'page') provider.page(call.view);
        else if (call.kind === 'track') provider.track(call.event);
        else provider.identify?.(call.person);
      } catch (error) {
        // Spec section 8: an analytics failure is logged, never shown, and stops nothing else.
        this.logger.warn(`Analytics: ${provider.name} failed on a ${call.kind} call.`, error);
      }
    }
  }
}
