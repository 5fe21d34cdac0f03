/**
 * What the sdk repeats, as data: what each answer says of the request it answers, per route where
 * the spec says more than the status does, and which requests may be sent twice. The transport
 * consults it for every request, `isRetryable` answers from it, and the lost-answer rule ("look,
 * then send again") takes its attempts from it. A change of policy is a change of this file.
 *
 * | route | answer | meaning | the sdk |
 * |---|---|---|---|
 * | any | 429 | refused: nothing was done | sends again after `Retry-After` |
 * | `POST …/rotate_password` | 503 | not carried out (spec 7) | sends again after `Retry-After` |
 * | any other | 5xx, a lost answer, a timeout | unknown: it may have been carried out | a repeatable request is sent again; any other throws AmbiguousRequestError, and its caller looks before sending it again |
 * | any | a refused connection | never sent | sends again |
 * | any | other 4xx | failed | throws ApiError |
 *
 * What a look after a lost answer may take over as the request's result (every look-first route:
 * volume create, fork and restore, the on-demand snapshot, the certificate POSTs) is one rule,
 * {@link lookVerdict}, with the window of {@link earliestMadeAt}: another writer (a second stack,
 * a person, a second pipeline of one stack) may have made a same-named thing meanwhile, and the
 * platform marks nothing with who made it.
 * @module
 */

/** A route of the API: a method and a path whose `{name}` segments stand for one path segment. */
export interface RouteRule {
  method: string;
  route: string;
}

/** The sdk's retry policy. */
export const RETRY_POLICY = {
  /**
   * Methods whose requests do no more when sent twice than once, so an unknown outcome is sent
   * again, except on `lookFirstRoutes`. A POST creates or changes something and is not, unless
   * its route is one of `readOnlyPostRoutes`.
   */
  idempotentMethods: ["GET", "PUT", "DELETE"],
  /** POST routes that only read, repeated like a GET: the certificate DNS check (spec 4.2 rule 4). */
  readOnlyPostRoutes: ["/v1/apps/{app_name}/certificates/{hostname}/check"],
  /**
   * Routes of an idempotent method whose outcome is looked up before they are sent again: an
   * extend that landed is refused when repeated (volumes can only grow, spec 4.3 rule 1), so its
   * repeat would report a failure for what succeeded.
   */
  lookFirstRoutes: [
    { method: "PUT", route: "/v1/apps/{app_name}/volumes/{volume_id}/extend" },
  ] as RouteRule[],
  /** Statuses that refuse a request: nothing was done, any request may go again (after `Retry-After`). */
  refusedStatuses: [429],
  /** Statuses the spec defines as "not carried out" on one route: that route goes again (after `Retry-After`). */
  notCarriedOut: [
    {
      method: "POST",
      route: "/v1/postgres/{postgres_cluster_id}/users/{username}/rotate_password",
      statuses: [503],
    },
  ] as (RouteRule & { statuses: number[] })[],
  /**
   * Statuses whose request may have been carried out (any other 5xx: the platform may fail after
   * acting): a repeatable request goes again, any other is an unknown outcome.
   */
  unknownStatuses: { from: 500, to: 599 },
  /** Connection errors that prove the request never left: safe to repeat for any request. */
  notSentCodes: ["ECONNREFUSED", "ENOENT", "UND_ERR_CONNECT_TIMEOUT", "EADDRNOTAVAIL"],
  /** The dispatcher was closed by its owner: repeating cannot help. */
  finalCodes: ["UND_ERR_DESTROYED", "UND_ERR_CLOSED", "UND_ERR_INVALID_ARG"],
  /** Default retries of one request, and the time they may take (client options change both). */
  maxRetries: 4,
  deadlineMs: 120_000,
  /**
   * How many times a request that is not repeated blindly (creates, certificate POSTs, rotation,
   * extend) is sent while its outcome stays unknown, looking at the platform in between.
   */
  lostAnswerAttempts: 3,
  /**
   * The window of a look after a lost answer (see {@link earliestMadeAt}): what the platform made
   * before the attempt was sent cannot be its effect. The platform's clock is read from its
   * `Date` response header (whole seconds) against the local clock; `measuredSlackMs` allows for
   * the platform's hosts disagreeing among themselves, `clockSlackMs` for a clock never read.
   */
  lostAnswerWindow: { measuredSlackMs: 2_000, clockSlackMs: 60_000 },
} as const;

/** What an answer that is not a success says of its request. */
export type AnswerMeaning = "refused" | "unknown" | "failed";

/** A route's `{name}` segments match any one encoded path segment; a query string may follow. */
function routePattern(route: string): RegExp {
  const literal = route.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${literal.join("[^/?]+")}(?:\\?.*)?$`);
}

const idempotentMethods = new Set<string>(RETRY_POLICY.idempotentMethods);
const readOnlyPosts = RETRY_POLICY.readOnlyPostRoutes.map(routePattern);
const lookFirst = RETRY_POLICY.lookFirstRoutes.map((r) => ({
  method: r.method,
  path: routePattern(r.route),
}));
const refused = new Set<number>(RETRY_POLICY.refusedStatuses);
const notCarriedOut = RETRY_POLICY.notCarriedOut.map((r) => ({
  method: r.method,
  path: routePattern(r.route),
  statuses: new Set(r.statuses),
}));
const { from: unknownFrom, to: unknownTo } = RETRY_POLICY.unknownStatuses;

/**
 * What `status` says of a request `method path` (the encoded API path, with or without a query
 * string): refused or not carried out (nothing was done), unknown (it may have been), or failed.
 */
export function answerMeaning(method: string, path: string, status: number): AnswerMeaning {
  if (refused.has(status)) return "refused";
  if (notCarriedOut.some((r) => r.method === method && r.statuses.has(status) && r.path.test(path)))
    return "refused";
  return status >= unknownFrom && status <= unknownTo ? "unknown" : "failed";
}

/** Whether a call that failed with `status` may succeed when made again later (see `isRetryable`). */
export function statusRepeatable(status: number): boolean {
  return refused.has(status) || (status >= unknownFrom && status <= unknownTo);
}

/**
 * Whether a request may be sent again when its outcome is unknown: an idempotent method on a
 * route that is not looked up first, or a POST to a route that only reads. `path` is the encoded
 * API path (`/v1/...`), with or without a query string.
 */
export function requestIdempotent(method: string, path: string): boolean {
  if (idempotentMethods.has(method)) return !lookFirst.some((r) => r.method === method && r.path.test(path));
  return method === "POST" && readOnlyPosts.some((route) => route.test(path));
}

/**
 * The earliest platform time (a `created_at`) at which what an attempt sent at local time `sentAt`
 * (ms) can have been made. `skewMs`: how far the platform's clock is ahead of the local one at
 * least, measured from its `Date` header (the transport keeps it: `PlatformClock`); without a
 * measure, the fixed `clockSlackMs`.
 */
export function earliestMadeAt(sentAt: number, skewMs: number | undefined): number {
  const { measuredSlackMs, clockSlackMs } = RETRY_POLICY.lostAnswerWindow;
  return skewMs === undefined ? sentAt - clockSlackMs : sentAt + skewMs - measuredSlackMs;
}

/** What a look after a lost answer decides (see {@link lookVerdict}). */
export type LookVerdict<T> =
  /** Nothing the attempt can have made: send again. */
  | { take: "none" }
  /** Taken over as the request's result: a judgement, which the caller reports (its id and why). */
  | { take: "one"; candidate: T }
  /** Another writer made some of them, and which is this request's cannot be told: take none. */
  | { take: "none-of-many"; candidates: T[] };

/**
 * The one rule of what a look after a lost answer takes over, for every look-first route.
 * `candidates`: what the look found that the lost attempt can have made (its name, its window,
 * nothing this writer already holds); `attempts`: how many of this writer's own lost attempts of
 * that same request are still unresolved and can have made them (1, unless one client sent the
 * same create several times at once).
 *
 * - none: nothing landed; the request is sent again (at most `lostAnswerAttempts`).
 * - no more candidates than attempts (one, for one attempt): the first is taken over as the
 *   request's result, and the caller is told so that a person can check it (its id, why). It may
 *   still be another writer's when the lost attempt made nothing and another made one just then.
 * - more candidates than attempts: another writer made at least one of them. None is taken, the
 *   request fails naming them all (`AmbiguousTakeOverError`) with the way out, and nothing is recorded
 *   that another writer may own. It is not sent again either: that would make one more.
 */
export function lookVerdict<T>(candidates: readonly T[], attempts = 1): LookVerdict<T> {
  const [first] = candidates;
  if (first === undefined) return { take: "none" };
  if (candidates.length <= Math.max(1, attempts)) return { take: "one", candidate: first };
  return { take: "none-of-many", candidates: [...candidates] };
}
