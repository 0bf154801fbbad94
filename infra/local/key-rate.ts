/**
 * Local mode's fair use between callers (behaviour §13): each guild API key
 * draws on a token bucket of its own, refilled at `rate` requests a second
 * and holding at most {@link guildKeyBurst}, as an API Gateway usage plan
 * throttles each of its API keys in AWS. The service token has no bucket
 * here, so nothing a guild key does can refuse the bot's calls.
 */
import { guildKeyBurst } from '../config.js';

/** Above this many remembered keys, the buckets that have filled up again are forgotten (a full bucket is a fresh one). */
const SWEEP_ABOVE = 10_000;

export class KeyRate {
  readonly burst: number;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly rate: number,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = guildKeyBurst(rate);
  }

  /** Takes one request from the key's bucket: 0 when it may go ahead, else the whole seconds until it may. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= SWEEP_ABOVE) this.sweep(now);
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate));
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.rate >= this.burst) this.buckets.delete(key);
    }
  }
}
