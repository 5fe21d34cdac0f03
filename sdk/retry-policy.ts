/**
 * What the sdk repeats, as data: the transport consults it for every request, `isRetryable`
 * answers from it, and the lost-answer rules ("look, then send again") take their attempts from
 * it. A change of policy is a change of this file.
 * @module
 */

/** The sdk's retry policy. */
export const RETRY_POLICY = {
  /**
   * Methods whose requests do no more when sent twice than once, so an unknown outcome (a lost
   * answer, a 502/504) is sent again. A POST creates or changes something and is not, unless its
   * route is one of `readOnlyPostRoutes`.
   */
  idempotentMethods: ["GET", "PUT", "DELETE"],
  /** POST routes that only read, repeated like a GET: the certificate DNS check (spec 4.2 rule 4). */
  readOnlyPostRoutes: ["/v1/apps/{app_name}/certificates/{hostname}/check"],
  /** Statuses that say nothing happened: any request may go again (after `Retry-After`). */
  busyStatuses: [429, 503],
  /** Statuses that may hide a request the platform carried out: only idempotent requests repeat. */
  ambiguousStatuses: [502, 504],
  /** Connection errors that prove the request never left: safe to repeat for any request. */
  notSentCodes: ["ECONNREFUSED", "ENOENT", "UND_ERR_CONNECT_TIMEOUT", "EADDRNOTAVAIL"],
  /** The dispatcher was closed by its owner: repeating cannot help. */
  finalCodes: ["UND_ERR_DESTROYED", "UND_ERR_CLOSED", "UND_ERR_INVALID_ARG"],
  /** Default retries of one request, and the time they may take (client options change both). */
  maxRetries: 4,
  deadlineMs: 120_000,
  /**
   * How many times a request that is not repeated blindly (volume create, certificate POSTs,
   * rotation) is sent while its answers keep getting lost, looking at the platform in between.
   */
  lostAnswerAttempts: 3,
} as const;

const idempotentMethods = new Set<string>(RETRY_POLICY.idempotentMethods);
/** A route's `{name}` segments match any one encoded path segment; a query string may follow. */
const readOnlyPosts = RETRY_POLICY.readOnlyPostRoutes.map((route) => {
  const literal = route.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${literal.join("[^/?]+")}(?:\\?.*)?$`);
});
const busy = new Set<number>(RETRY_POLICY.busyStatuses);
const ambiguous = new Set<number>(RETRY_POLICY.ambiguousStatuses);

/** Whether an answer with `status` may be repeated: always when busy, when ambiguous only if idempotent. */
export function statusRepeatable(status: number, idempotent: boolean): boolean {
  return busy.has(status) || (idempotent && ambiguous.has(status));
}

/** Whether a status may hide a request the platform carried out. */
export function statusAmbiguous(status: number): boolean {
  return ambiguous.has(status);
}

/**
 * Whether a request may be sent again when its outcome is unknown: an idempotent method, or a
 * POST to a route that only reads. `path` is the encoded API path (`/v1/...`), with or without a
 * query string.
 */
export function requestIdempotent(method: string, path: string): boolean {
  if (idempotentMethods.has(method)) return true;
  return method === "POST" && readOnlyPosts.some((route) => route.test(path));
}
