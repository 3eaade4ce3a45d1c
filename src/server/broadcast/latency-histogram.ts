// Time per message, kept in fixed buckets (0.1 ms up to 100 ms, then 1 ms up to a minute): the same
// memory for a million messages as for ten.
const FINE_BUCKETS = 1_000; // 0.1 ms each, up to 100 ms
const COARSE_BUCKETS = 60_000; // 1 ms each, up to 60 s

export class LatencyHistogram {
  private readonly buckets = new Uint32Array(FINE_BUCKETS + COARSE_BUCKETS);
  count = 0;

  add(ms: number): void {
    const index =
      ms < 100 ? Math.floor(Math.max(0, ms) * 10) : Math.min(FINE_BUCKETS + Math.floor(ms), this.buckets.length - 1);
    this.buckets[index] = (this.buckets[index] ?? 0) + 1;
    this.count += 1;
  }

  private valueOf(index: number): number {
    return index < FINE_BUCKETS ? (index + 0.5) / 10 : index - FINE_BUCKETS + 0.5;
  }

  /** The time under which `fraction` of the messages took (the bucket's middle). */
  percentile(fraction: number): number {
    if (this.count === 0) return 0;
    const target = Math.ceil(this.count * fraction);
    let seen = 0;
    for (let index = 0; index < this.buckets.length; index += 1) {
      seen += this.buckets[index] ?? 0;
      if (seen >= target) return this.valueOf(index);
    }
    return this.valueOf(this.buckets.length - 1);
  }

  percentiles(): { p50: number; p99: number } {
    return { p50: this.percentile(0.5), p99: this.percentile(0.99) };
  }
}
