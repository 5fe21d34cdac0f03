/**
 * A rate-limited platform on request (`--rate-limit N`): a token bucket per API token that holds
 * one second's worth of requests and refills continuously, on the emulator's clock.
 */
export class RateLimiter {
  private perSecond: number | undefined;
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /**
   * @param now the clock (virtual milliseconds)
   * @param perSecond requests per second per token; undefined for no limit
   */
  constructor(
    private readonly now: () => number,
    perSecond?: number,
  ) {
    this.set(perSecond);
  }

  /** Requests per second per token, or undefined when unlimited. */
  get limit(): number | undefined {
    return this.perSecond;
  }

  /** Sets (a positive number) or clears (undefined) the limit; every bucket starts full again. */
  set(perSecond: number | undefined): void {
    if (
      perSecond !== undefined &&
      !(typeof perSecond === "number" && perSecond > 0 && Number.isFinite(perSecond))
    ) {
      throw new TypeError(`rateLimitPerSecond must be a positive number (got ${String(perSecond)})`);
    }
    this.perSecond = perSecond;
    this.buckets.clear();
  }

  /**
   * Takes one request from `key`'s bucket. Returns 0 when it may proceed, otherwise the whole
   * seconds (at least 1) until the bucket holds a request again: the `Retry-After`.
   */
  take(key: string): number {
    const rate = this.perSecond;
    if (rate === undefined) return 0;
    const capacity = Math.max(1, rate);
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
  }
}
