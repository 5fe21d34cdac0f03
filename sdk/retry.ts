/**
 * The sdk's one way to wait between attempts: an exponential backoff policy (with a cap and a
 * jitter mode), `Retry-After` parsing, an abortable sleep, and {@link Backoff}, which paces one
 * sequence of attempts under a policy, honours a delay the server asked for and never sleeps past
 * a deadline. The transport's retries, `poll`, the event-stream reconnect and the certificate
 * wait all go through it; which failures are retried is decided by each caller.
 * @module
 */
import { TimeoutError } from "./errors";

/** How the pause is drawn below its ceiling. */
export type Jitter = "full" | "equal" | "none";

/**
 * Backoff bounds: the pause before retry n (zero-based) has the ceiling
 * `min(maxMs, baseMs * factor^n)` and is drawn below it by `jitter`.
 */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** Growth per attempt (default 2). */
  factor?: number;
  /** `full` (default): random in [0, ceiling); `equal`: in [ceiling/2, ceiling); `none`: the ceiling. */
  jitter?: Jitter;
}

/** Request retries: full jitter, 100 ms doubling, at most 5 s. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 100, maxMs: 5_000 };
/** Polling waits: 250 ms growing by half, at most 5 s, no jitter. */
export const POLL_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 5_000, factor: 1.5, jitter: "none" };
/** Event-stream reconnects: 250 ms doubling, at most 10 s, equal jitter. */
export const RECONNECT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 10_000, jitter: "equal" };

/** The pause before the given zero-based retry. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * (options.factor ?? 2) ** Math.min(attempt, 30));
  switch (options.jitter ?? "full") {
    case "none":
      return ceiling;
    case "equal":
      return Math.floor(ceiling / 2 + random() * (ceiling / 2));
    default:
      return Math.floor(random() * ceiling);
  }
}

/**
 * Parses a `Retry-After` header value into milliseconds: delta-seconds (`"3"`) or an HTTP date
 * (`"Wed, 21 Oct 2015 07:28:00 GMT"`, measured from `now`, never negative). Anything else:
 * undefined.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only HTTP dates: plain numbers with signs or fractions are invalid delta-seconds.
  if (!/^[A-Za-z]{3},? /.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Time, randomness and sleeping of a {@link Backoff}; replaceable in tests. */
export interface BackoffClock {
  now(): number;
  random(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const SYSTEM_CLOCK: BackoffClock = { now: Date.now, random: Math.random, sleep };

/** Options of one {@link Backoff} run. */
export interface BackoffRunOptions {
  /** Absolute time (clock ms) after which no pause may end. */
  deadlineAt?: number;
  /** Aborts a pause; it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  clock?: Partial<BackoffClock>;
}

/** Paces one sequence of attempts under a policy. */
export class Backoff {
  private retries = 0;
  private readonly clock: BackoffClock;
  private readonly deadlineAt: number;
  private readonly signal: AbortSignal | undefined;

  constructor(
    private readonly policy: BackoffOptions,
    options: BackoffRunOptions = {},
  ) {
    this.clock = { ...SYSTEM_CLOCK, ...options.clock };
    this.deadlineAt = options.deadlineAt ?? Number.POSITIVE_INFINITY;
    this.signal = options.signal;
  }

  /** Pauses taken so far. */
  get attempt(): number {
    return this.retries;
  }

  /** Milliseconds left before the deadline (Infinity without one; never negative). */
  remaining(): number {
    return Math.max(0, this.deadlineAt - this.clock.now());
  }

  /** Forgets the pauses taken: the next one is the policy's first again (after a success). */
  reset(): void {
    this.retries = 0;
  }

  /**
   * Sleeps before a retry: `serverDelayMs` when the server named one (`Retry-After`), else the
   * policy's next pause. Answers false, without sleeping, when that pause would reach the
   * deadline: the caller gives up with the error it has.
   */
  async retry(serverDelayMs?: number): Promise<boolean> {
    const delay = serverDelayMs ?? backoffDelay(this.retries, this.policy, this.clock.random);
    if (delay >= this.remaining()) return false;
    this.retries++;
    await this.clock.sleep(delay, this.signal);
    return true;
  }

  /**
   * Sleeps before the next poll, at most until the deadline. Throws `timedOut()` (a TimeoutError
   * by default) once the deadline has passed, so a wait never runs past it.
   */
  async pause(timedOut: () => Error = () => new TimeoutError("the wait's time is up")): Promise<void> {
    const left = this.remaining();
    if (left <= 0) throw timedOut();
    const delay = backoffDelay(this.retries++, this.policy, this.clock.random);
    await this.clock.sleep(Math.min(delay, left), this.signal);
  }
}
