import { describe, expect, test } from "vitest";
import { RateLimiter } from "../../../emulator/rate-limit";

const clock = () => {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe("RateLimiter (token bucket per token)", () => {
  test("without a limit every request passes", () => {
    const limiter = new RateLimiter(() => 0);
    for (let i = 0; i < 1000; i++) expect(limiter.take("t")).toBe(0);
    expect(limiter.limit).toBeUndefined();
  });

  test("a burst of N passes, the next gets a Retry-After of whole seconds, at least 1", () => {
    const c = clock();
    const limiter = new RateLimiter(c.now, 5);
    for (let i = 0; i < 5; i++) expect(limiter.take("t")).toBe(0);
    expect(limiter.take("t")).toBe(1);
    // A rejected request takes nothing: it still waits for the same refill.
    expect(limiter.take("t")).toBe(1);
  });

  test("the bucket refills at N per second, never above N", () => {
    const c = clock();
    const limiter = new RateLimiter(c.now, 4);
    for (let i = 0; i < 4; i++) limiter.take("t");
    c.advance(250);
    expect(limiter.take("t")).toBe(0);
    expect(limiter.take("t")).toBe(1);
    c.advance(60_000);
    for (let i = 0; i < 4; i++) expect(limiter.take("t")).toBe(0);
    expect(limiter.take("t")).toBeGreaterThan(0);
  });

  test("each token has its own bucket", () => {
    const limiter = new RateLimiter(() => 0, 1);
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("a")).toBe(1);
    expect(limiter.take("b")).toBe(0);
  });

  test("a rate below one per second holds one request and asks to wait the whole interval", () => {
    const c = clock();
    const limiter = new RateLimiter(c.now, 0.1);
    expect(limiter.take("t")).toBe(0);
    expect(limiter.take("t")).toBe(10);
    c.advance(5_000);
    expect(limiter.take("t")).toBe(5);
    c.advance(5_000);
    expect(limiter.take("t")).toBe(0);
  });

  test("set changes or clears the limit with full buckets; invalid limits throw", () => {
    const limiter = new RateLimiter(() => 0, 1);
    limiter.take("t");
    limiter.set(2);
    expect(limiter.take("t")).toBe(0);
    expect(limiter.take("t")).toBe(0);
    expect(limiter.take("t")).toBe(1);
    limiter.set(undefined);
    expect(limiter.take("t")).toBe(0);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => limiter.set(bad)).toThrow(/positive number/);
    }
  });
});
