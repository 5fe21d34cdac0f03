/**
 * "Look, then send again": the one rule for a request that must not be repeated blindly when its
 * answer is lost (an AmbiguousRequestError: the platform may or may not have carried it out).
 * After each lost answer the caller looks at the platform; what it finds is the request's effect
 * and is returned, else the request is sent again, at most `RETRY_POLICY.lostAnswerAttempts`
 * times in all. Volume create, the certificate POSTs and password rotation use it. What a look
 * may take over when another writer may have made something alike is `lookVerdict`'s rule
 * (./retry-policy).
 * @module
 */
import { AmbiguousRequestError } from "./errors";
import { RETRY_POLICY } from "./retry-policy";

/**
 * Sends with `send`; after a lost answer calls `look(sentAt, lost)` (when that attempt was sent,
 * ms; the lost answer's error) and returns what it finds, else sends again. A look that throws
 * (more candidates than it may take) ends it with that error. Other errors are thrown as they are; when every
 * answer was lost, the last AmbiguousRequestError.
 */
export async function sendLookingAfterLoss<T>(
  send: () => Promise<T>,
  look: (sentAt: number, lost: AmbiguousRequestError) => Promise<T | undefined>,
): Promise<T> {
  let lost: AmbiguousRequestError | undefined;
  for (let attempt = 0; attempt < RETRY_POLICY.lostAnswerAttempts; attempt++) {
    const sentAt = Date.now();
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof AmbiguousRequestError)) throw err;
      lost = err;
    }
    const found = await look(sentAt, lost);
    if (found !== undefined) return found;
  }
  throw lost as AmbiguousRequestError;
}
