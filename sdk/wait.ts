/**
 * Polling under the sdk's backoff policy, for the waits (`waitUntil`, `waitForSnapshot`,
 * `waitUntilActive`).
 * @module
 */
import { InvalidArgumentError, TimeoutError } from "./errors";
import { Backoff, type BackoffClock, type BackoffOptions, POLL_BACKOFF } from "./retry";
import type { CallOptions } from "./transport";

/** Options of the waits. */
export interface WaitOptions extends CallOptions {
  /** Gives up after this long with a TimeoutError (default 300 000 ms). */
  timeoutMs?: number;
}

/** Options of {@link pollUntil}. */
export interface PollOptions extends WaitOptions {
  /** Pauses between checks (default {@link POLL_BACKOFF}: 250 ms, ×1.5, at most 5 s). */
  backoff?: BackoffOptions;
  /** @internal tests */
  clock?: Partial<BackoffClock>;
}

/** Default time a wait gives before failing. */
export const DEFAULT_WAIT_MS = 300_000;

/**
 * Calls `check` with growing pauses until it returns a value. At the deadline (a check in flight
 * is aborted then) it throws `timedOut()`, a TimeoutError saying what was seen last; the caller's
 * abort rejects with its reason; other errors propagate.
 */
export async function pollUntil<T>(
  opts: PollOptions | undefined,
  timedOut: () => TimeoutError,
  check: (signal: AbortSignal) => Promise<T | undefined>,
): Promise<T> {
  const timeoutMs = opts?.timeoutMs ?? DEFAULT_WAIT_MS;
  if (!(timeoutMs > 0))
    throw new InvalidArgumentError(`timeoutMs must be a positive number (got ${timeoutMs})`);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = opts?.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
  const now = opts?.clock?.now ?? Date.now;
  const backoff = new Backoff(opts?.backoff ?? POLL_BACKOFF, {
    deadlineAt: now() + timeoutMs,
    signal,
    ...(opts?.clock ? { clock: opts.clock } : {}),
  });
  try {
    for (;;) {
      const found = await check(signal);
      if (found !== undefined) return found;
      await backoff.pause(timedOut);
    }
  } catch (err) {
    if (opts?.signal?.aborted) throw opts.signal.reason;
    if (timeout.signal.aborted && !(err instanceof TimeoutError)) throw timedOut();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Like {@link pollUntil}, but answers undefined once the wait's time is up. */
export async function poll<T>(
  opts: PollOptions | undefined,
  check: (signal: AbortSignal) => Promise<T | undefined>,
): Promise<T | undefined> {
  let timedOut = false;
  const gaveUp = () => {
    timedOut = true;
    return new TimeoutError("poll timed out");
  };
  try {
    return await pollUntil(opts, gaveUp, check);
  } catch (err) {
    if (timedOut && err instanceof TimeoutError) return undefined;
    throw err;
  }
}
