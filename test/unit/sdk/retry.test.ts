import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, sleep } from "../../../sdk/retry";

const NOW = Date.parse("2025-01-01T00:00:00Z");

describe("Retry-After parsing", () => {
  it.each([
    ["delta-seconds", "3", 3000],
    ["zero seconds", "0", 0],
    ["seconds with spaces around", " 7 ", 7000],
    ["an HTTP date in the future, measured from now", "Wed, 01 Jan 2025 00:00:05 GMT", 5000],
    ["an HTTP date in the past means now", "Tue, 31 Dec 2024 23:59:00 GMT", 0],
    ["the first of repeated headers", ["2", "9"], 2000],
    ["absent", undefined, undefined],
    ["empty", "", undefined],
    ["negative seconds are invalid", "-1", undefined],
    ["fractional seconds are invalid", "1.5", undefined],
    ["garbage", "soon", undefined],
    ["an ISO date is not an HTTP date", "2025-01-01T00:00:05Z", undefined],
  ] as const)("%s", (_rule, value, expected) => {
    expect(parseRetryAfter(value as string | string[] | undefined, NOW)).toBe(expected);
  });
});

describe("backoff with full jitter", () => {
  const opts = { baseMs: 100, maxMs: 5000 };
  it.each([
    [0, 100],
    [1, 200],
    [3, 800],
    [6, 5000],
    [50, 5000],
  ])("attempt %i waits at most %i ms", (attempt, ceiling) => {
    expect(backoffDelay(attempt, opts, () => 0.999999)).toBe(Math.floor(0.999999 * ceiling));
    expect(backoffDelay(attempt, opts, () => 0)).toBe(0);
  });

  it("random delays stay within [0, ceiling) over many draws", () => {
    for (let i = 0; i < 1000; i++) {
      const d = backoffDelay(4, opts);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(1600);
    }
  });
});

describe("sleep", () => {
  it("rejects with the signal's reason when aborted", async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
  });
});
