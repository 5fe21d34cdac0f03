import { describe, expect, it } from "vitest";
import { TimeoutError } from "../../../sdk/errors";
import {
  Backoff,
  backoffDelay,
  DEFAULT_BACKOFF,
  POLL_BACKOFF,
  parseRetryAfter,
  RECONNECT_BACKOFF,
  sleep,
} from "../../../sdk/retry";
import { answerMeaning, requestIdempotent } from "../../../sdk/retry-policy";
import { poll, pollUntil } from "../../../sdk/wait";

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

describe("backoff policy", () => {
  it("grows by the factor up to the cap, without jitter", () => {
    const policy = { baseMs: 250, maxMs: 5000, factor: 1.5, jitter: "none" as const };
    expect([0, 1, 2, 3, 20].map((n) => backoffDelay(n, policy))).toEqual([250, 375, 562.5, 843.75, 5000]);
  });

  it("equal jitter stays in [ceiling/2, ceiling)", () => {
    const policy = { baseMs: 250, maxMs: 10_000, jitter: "equal" as const };
    expect(backoffDelay(2, policy, () => 0)).toBe(500);
    expect(backoffDelay(2, policy, () => 0.999999)).toBe(999);
    expect(backoffDelay(10, policy, () => 0)).toBe(5000);
  });

  it("the shared policies keep their pacing", () => {
    expect(backoffDelay(0, DEFAULT_BACKOFF, () => 0.5)).toBe(50);
    expect(backoffDelay(1, POLL_BACKOFF)).toBe(375);
    expect(backoffDelay(6, RECONNECT_BACKOFF, () => 0)).toBe(5000);
  });
});

/** A clock whose sleeps only move its time forward. */
function fakeClock(start = 1_000, random = 0.5) {
  const slept: number[] = [];
  let now = start;
  return {
    slept,
    clock: {
      now: () => now,
      random: () => random,
      sleep: async (ms: number, signal?: AbortSignal) => {
        if (signal?.aborted) throw signal.reason;
        slept.push(ms);
        now += ms;
      },
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("Backoff", () => {
  it("retries with the policy's pauses and counts them", async () => {
    const { clock, slept } = fakeClock();
    const b = new Backoff({ baseMs: 100, maxMs: 5000 }, { clock });
    expect(await b.retry()).toBe(true);
    expect(await b.retry()).toBe(true);
    expect(await b.retry()).toBe(true);
    expect(slept).toEqual([50, 100, 200]);
    expect(b.attempt).toBe(3);
    b.reset();
    await b.retry();
    expect(slept.at(-1)).toBe(50);
  });

  it("takes the server's delay (Retry-After) over its own", async () => {
    const { clock, slept } = fakeClock();
    const b = new Backoff(DEFAULT_BACKOFF, { clock });
    expect(await b.retry(3000)).toBe(true);
    expect(slept).toEqual([3000]);
  });

  it("never starts a retry pause that would reach the deadline", async () => {
    const { clock, slept } = fakeClock(1_000);
    const b = new Backoff({ baseMs: 100, maxMs: 5000 }, { deadlineAt: 2_000, clock });
    expect(await b.retry(999)).toBe(true);
    expect(await b.retry(1)).toBe(false);
    expect(slept).toEqual([999]);
    expect(b.remaining()).toBe(1);
  });

  it("pauses of a wait end at the deadline, then it times out", async () => {
    const { clock, slept } = fakeClock(0);
    const b = new Backoff({ baseMs: 400, maxMs: 5000, jitter: "none" }, { deadlineAt: 1_000, clock });
    await b.pause();
    await b.pause();
    expect(slept).toEqual([400, 600]);
    await expect(b.pause(() => new TimeoutError("gave up: last seen x"))).rejects.toThrow(
      /gave up: last seen x/,
    );
    await expect(b.pause()).rejects.toBeInstanceOf(TimeoutError);
  });

  it("an aborted signal rejects the pause with its reason", async () => {
    const { clock } = fakeClock();
    const ac = new AbortController();
    ac.abort(new Error("stop"));
    await expect(new Backoff(DEFAULT_BACKOFF, { signal: ac.signal, clock }).retry()).rejects.toThrow("stop");
  });
});

describe("pollUntil", () => {
  it("polls with the policy's pauses until a value comes", async () => {
    const { clock, slept } = fakeClock(0);
    let calls = 0;
    const found = await pollUntil(
      { timeoutMs: 60_000, clock, backoff: { baseMs: 250, maxMs: 500, factor: 2, jitter: "none" } },
      () => new TimeoutError("late"),
      async () => (++calls === 4 ? "done" : undefined),
    );
    expect(found).toBe("done");
    expect(slept).toEqual([250, 500, 500]);
  });

  it("throws the caller's TimeoutError at the deadline, never sleeping past it", async () => {
    const { clock, slept } = fakeClock(0);
    let seen = 0;
    const err = await pollUntil(
      { timeoutMs: 1_000, clock, backoff: { baseMs: 400, maxMs: 5000, factor: 1.5, jitter: "none" } },
      () => new TimeoutError(`still pending after ${seen} checks`),
      async () => {
        seen++;
        return undefined;
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toBe("still pending after 3 checks");
    expect(slept).toEqual([400, 600]);
  });

  it("rejects with the caller's abort reason, and lets other errors through", async () => {
    const ac = new AbortController();
    const pending = pollUntil(
      { signal: ac.signal },
      () => new TimeoutError("late"),
      async () => undefined,
    );
    ac.abort(new Error("cancelled"));
    await expect(pending).rejects.toThrow("cancelled");
    await expect(
      pollUntil(
        {},
        () => new TimeoutError("late"),
        async () => {
          throw new Error("boom");
        },
      ),
    ).rejects.toThrow("boom");
  });

  it("aborts a check still running at the deadline and times out", async () => {
    const err = await pollUntil(
      { timeoutMs: 50 },
      () => new TimeoutError("late"),
      (signal) => sleep(10_000, signal).then(() => undefined),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it("poll answers undefined once the time is up", async () => {
    expect(await poll({ timeoutMs: 30 }, async () => undefined)).toBeUndefined();
  });
});

describe("which requests the retry policy sends again when their outcome is unknown", () => {
  it.each([
    ["a GET", "GET", "/v1/apps/a/volumes/v", true],
    ["a PUT", "PUT", "/v1/apps/a/volumes/v", true],
    [
      "an extend (a PUT looked up first: its repeat is refused once it landed)",
      "PUT",
      "/v1/apps/a/volumes/v/extend",
      false,
    ],
    ["a DELETE", "DELETE", "/v1/apps/a/volumes/v", true],
    [
      "the certificate DNS check (a POST that only reads)",
      "POST",
      "/v1/apps/a/certificates/h.example.com/check",
      true,
    ],
    ["the DNS check of a wildcard hostname", "POST", "/v1/apps/a/certificates/%2A.example.com/check", true],
    ["an ACME request (a POST that creates)", "POST", "/v1/apps/a/certificates/acme", false],
    ["a volume create", "POST", "/v1/apps/a/volumes", false],
    ["a password rotation", "POST", "/v1/postgres/pg/users/u/rotate_password", false],
  ])("%s", (_what, method, path, repeated) => {
    expect(requestIdempotent(method, path)).toBe(repeated);
  });
});

describe("what an answer says of its request (the retry policy's table)", () => {
  const rotate = "/v1/postgres/pg/users/u/rotate_password";
  it.each([
    ["any request refused with 429", "POST", "/v1/apps/a/volumes", 429, "refused"],
    ["a rotation answered 503 (spec 7: not carried out)", "POST", rotate, 503, "refused"],
    ["a rotation answered 500 (rotated, then failed to end the sessions)", "POST", rotate, 500, "unknown"],
    ["a volume create answered 503", "POST", "/v1/apps/a/volumes", 503, "unknown"],
    ["a volume create answered 500", "POST", "/v1/apps/a/volumes", 500, "unknown"],
    ["an extend answered 504", "PUT", "/v1/apps/a/volumes/v/extend", 504, "unknown"],
    ["a 503 on a route that is not the rotation", "GET", `${rotate}x`, 503, "unknown"],
    ["a refusal the caller must fix", "POST", "/v1/apps/a/volumes", 422, "failed"],
    ["a missing resource", "DELETE", "/v1/apps/a/volumes/v", 404, "failed"],
  ])("%s", (_what, method, path, status, meaning) => {
    expect(answerMeaning(method, path, status)).toBe(meaning);
  });
});
