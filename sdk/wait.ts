/**
 * Polling with backoff for the waits (`waitUntil`, `waitForSnapshot`).
 * @module
 */
import { InvalidArgumentError } from "./errors";
import { sleep } from "./retry";
import type { CallOptions } from "./transport";

/** Options of the waits. */
export interface WaitOptions extends CallOptions {
  /** Gives up after this long with a TimeoutError (default 300 000 ms). */
  timeoutMs?: number;
}

/** Default time a wait gives before failing. */
export const DEFAULT_WAIT_MS = 300_000;

/**
 * Calls `check` with growing pauses (250 ms, ×1.5, at most 5 s) until it returns a value, or
 * returns undefined once the wait's time is up. Other errors propagate; the caller's abort
 * rejects with its reason.
 */
export async function poll<T>(
  opts: WaitOptions | undefined,
  check: (signal: AbortSignal) => Promise<T | undefined>,
): Promise<T | undefined> {
  const timeoutMs = opts?.timeoutMs ?? DEFAULT_WAIT_MS;
  if (!(timeoutMs > 0))
    throw new InvalidArgumentError(`timeoutMs must be a positive number (got ${timeoutMs})`);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts?.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let delay = 250;
  try {
    for (;;) {
      const found = await check(signal);
      if (found !== undefined) return found;
      await sleep(Math.min(delay, 5_000), signal);
      delay *= 1.5;
    }
  } catch (err) {
    if (opts?.signal?.aborted) throw opts.signal.reason;
    if (timeout.aborted) return undefined;
    throw err;
  }
}
