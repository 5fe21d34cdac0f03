/**
 * Retry timing: `Retry-After` parsing, exponential backoff with full jitter, and an abortable
 * sleep. Which failures are retried is decided by the transport.
 * @module
 */

/** Backoff bounds: attempt n waits a random time in [0, min(maxMs, baseMs * 2^n)]. */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/** Default request backoff. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 100, maxMs: 5_000 };

/** Full-jitter exponential backoff for the given zero-based attempt. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
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
