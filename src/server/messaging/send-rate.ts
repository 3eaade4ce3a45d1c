// A token bucket: at most `rate` takes a second on average, in bursts of at most a tenth of a second's worth.
import { setTimeout as sleep } from 'node:timers/promises';

export class RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private rate: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.tokens = this.burst();
    this.last = clock();
  }

  private burst(): number {
    return Math.max(1, this.rate / 10);
  }

  /** A new rate (another sender joined or left: each takes its share). */
  setRate(rate: number): void {
    this.refill();
    this.rate = rate;
    this.tokens = Math.min(this.tokens, this.burst());
  }

  get perSecond(): number {
    return this.rate;
  }

  private refill(): void {
    const now = this.clock();
    this.tokens = Math.min(this.burst(), this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }

  /** Resolves when one more message may go. */
  async take(): Promise<void> {
    for (;;) {
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(Math.max(1, Math.ceil(((1 - this.tokens) / this.rate) * 1000)));
    }
  }
}
