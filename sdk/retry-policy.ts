/**
 * What the sdk repeats, as data: the transport consults it for every request, `isRetryable`
 * answers from it, and the lost-answer rules ("look, then send again") take their attempts from
 * it. A change of policy is a change of this file.
 * @module
 */

/** The sdk's retry policy. */
export const RETRY_POLICY = {
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
