/**
 * Every error the sdk throws. Each kind has a literal `code` so callers can switch on it without
 * `instanceof` across package copies; classifiers at the bottom answer the common questions.
 * No message or field ever carries the API token.
 * @module
 */
import { notFoundSubject } from "./error-messages";
import { type PostgresErrorReason, postgresHint } from "./postgres-errors";
import { statusRepeatable } from "./retry-policy";

/** Codes of the sdk's error kinds. */
export type PlatformErrorCode =
  | "API_ERROR"
  | "TRANSPORT_ERROR"
  | "AMBIGUOUS_REQUEST"
  | "AMBIGUOUS_TAKEOVER"
  | "RESPONSE_VALIDATION"
  | "TIMEOUT"
  | "INVALID_ARGUMENT"
  | "EVENT_PARSE"
  | "REPLICATION_DIVERGED"
  | "REPLICATION_STOPPED";

/** Base of every error thrown by the sdk. */
export abstract class PlatformError extends Error {
  /** Stable machine-readable kind. */
  abstract readonly code: PlatformErrorCode;
  /** The class's name, written out (it survives bundling and minification). */
  abstract override readonly name: string;
}

/** An option or argument was rejected before anything was sent; the message names it. */
export class InvalidArgumentError extends PlatformError {
  override readonly name = "InvalidArgumentError";
  readonly code = "INVALID_ARGUMENT" as const;
}

/** Fields of an {@link ApiError}. */
export interface ApiErrorInit {
  status: number;
  /** The platform's `error` message, or the raw body when it was not `{ error }`. */
  platformMessage: string;
  method: string;
  /** Request path without the query string. */
  path: string;
  retryAfterSeconds?: number;
  /** The platform's id of the request (`x-request-id` or `fly-request-id`), when it sent one. */
  requestId?: string;
  /** Which Postgres error row this is (see `postgresReason`), for rotate-password failures. */
  reason?: PostgresErrorReason;
}

/** The platform answered with a non-2xx status. */
export class ApiError extends PlatformError {
  override readonly name = "ApiError";
  readonly code = "API_ERROR" as const;
  /** HTTP status. */
  readonly status: number;
  /** The platform's `error` message. */
  readonly platformMessage: string;
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Request path (never a query string, never the token). */
  readonly path: string;
  /** Seconds the platform asked to wait (`Retry-After`), when given. */
  readonly retryAfterSeconds?: number;
  /** The platform's id of the request, to quote in a support request, when it sent one. */
  readonly requestId?: string;
  /** What to do about it, for the common cases. */
  readonly hint?: string;
  /** Which Postgres error row this is, for rotate-password failures. */
  readonly reason?: PostgresErrorReason;

  constructor(init: ApiErrorInit) {
    const { reason } = init;
    const hint = hintFor(init.status, init.platformMessage, init.path);
    let message = `${init.method} ${init.path} failed with ${init.status}: ${init.platformMessage || "(no message)"}`;
    if (reason) message += ` [${reason}]`;
    if (init.retryAfterSeconds !== undefined) message += ` (retry after ${init.retryAfterSeconds}s)`;
    if (init.requestId) message += ` (request id ${init.requestId})`;
    if (hint) message += `. ${hint}`;
    super(message);
    this.status = init.status;
    this.platformMessage = init.platformMessage;
    this.method = init.method;
    this.path = init.path;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.requestId) this.requestId = init.requestId;
    if (hint) this.hint = hint;
    if (reason) this.reason = reason;
  }
}

/** The connection failed (refused, reset, closed) or a request timed out. */
export class TransportError extends PlatformError {
  override readonly name = "TransportError";
  readonly code = "TRANSPORT_ERROR" as const;
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Request path without the query string. */
  readonly path: string;
  /** True when the request provably never reached the server (connection refused). */
  readonly notSent: boolean;

  constructor(method: string, path: string, cause: unknown, notSent: boolean) {
    super(`${method} ${path}: ${describeCause(cause)}`, { cause });
    this.method = method;
    this.path = path;
    this.notSent = notSent;
  }
}

/**
 * A request that must not be repeated blindly (it creates something, changes a secret or grows a
 * volume) may or may not have taken effect: the connection dropped after it was sent, it timed
 * out, or the platform answered a 5xx that does not say it did nothing (see `RETRY_POLICY`).
 */
export class AmbiguousRequestError extends PlatformError {
  override readonly name = "AmbiguousRequestError";
  readonly code = "AMBIGUOUS_REQUEST" as const;
  /** HTTP method of the request. */
  readonly method: string;
  /** Request path without the query string. */
  readonly path: string;

  /** `advice` says how to find out what happened and how to recover. */
  constructor(method: string, path: string, cause: unknown, advice?: string) {
    super(
      `${method} ${path}: outcome unknown (${describeCause(cause)}); it was not repeated automatically. ${
        advice ?? "Check whether it took effect (list or get the resource) before trying again."
      }`,
      { cause },
    );
    this.method = method;
    this.path = path;
  }
}

/** One thing a look after a lost answer found that the request can have made. */
export interface TakeOverCandidate {
  id: string;
  /** What tells it apart for a person (`created 2026-…, region iad`). */
  detail: string;
}

/**
 * The answer of a request that creates something was lost, and the look found more things it can
 * have made than it sent attempts: another writer (a second stack, a person, a second pipeline)
 * made some of them at the same time, and the platform does not say whose each is. None was
 * taken over and the request was not sent again (see `lookVerdict` in `RETRY_POLICY`'s module);
 * `candidates` names every one, and the message the way out.
 */
export class AmbiguousTakeOverError extends PlatformError {
  override readonly name = "AmbiguousTakeOverError";
  readonly code = "AMBIGUOUS_TAKEOVER" as const;
  /** HTTP method of the request whose answer was lost. */
  readonly method: string;
  /** Its path, without the query string. */
  readonly path: string;
  /** Every candidate the look found, none taken. */
  readonly candidates: readonly TakeOverCandidate[];

  /** `what`: what was found (`volumes named "data" in app demo-app`); `wayOut`: what to do. */
  constructor(
    method: string,
    path: string,
    what: string,
    candidates: readonly TakeOverCandidate[],
    wayOut: string,
    cause: unknown,
  ) {
    const listed = candidates.map((c) => `${c.id} (${c.detail})`).join(", ");
    super(
      `${method} ${path}: outcome unknown (${lostAnswerText(cause)}), and ${candidates.length} ${what} were made since it was sent: ${listed}. Another writer (another stack, a person, another run) made at least one of them and the platform does not say whose each is, so none was taken over and the request was not sent again. ${wayOut}`,
      { cause },
    );
    this.method = method;
    this.path = path;
    this.candidates = candidates;
  }
}

/** A response body did not match its schema. */
export class ResponseValidationError extends PlatformError {
  override readonly name = "ResponseValidationError";
  readonly code = "RESPONSE_VALIDATION" as const;
  /** `METHOD /path` of the endpoint. */
  readonly endpoint: string;
  /** Dotted path of the offending field (`[0].size_gb`), or `(root)`. */
  readonly fieldPath: string;

  constructor(endpoint: string, fieldPath: string, problem: string) {
    super(`Unexpected response from ${endpoint}: field ${fieldPath}: ${problem}`);
    this.endpoint = endpoint;
    this.fieldPath = fieldPath;
  }
}

/** A wait gave up; the message says what was still pending and the last thing seen. */
export class TimeoutError extends PlatformError {
  override readonly name = "TimeoutError";
  readonly code = "TIMEOUT" as const;
  /** The last answer the wait saw, when the wait documents one (undefined when none arrived). */
  readonly lastSeen?: unknown;

  constructor(message: string, lastSeen?: unknown) {
    super(message);
    if (lastSeen !== undefined) this.lastSeen = lastSeen;
  }
}

/** A line of a node's event stream is not a valid event; the message names the problem. */
export class EventParseError extends PlatformError {
  override readonly name = "EventParseError";
  readonly code = "EVENT_PARSE" as const;
}

/** The status of an ApiError, also one from another copy of the sdk (told by its `code`). */
function apiStatus(err: unknown): number | undefined {
  if (err instanceof ApiError) return err.status;
  const { code, status } = (err ?? {}) as { code?: unknown; status?: unknown };
  return code === "API_ERROR" && typeof status === "number" ? status : undefined;
}

/** True for a 404 answer. */
export function isNotFound(err: unknown): boolean {
  return apiStatus(err) === 404;
}

/** True for a 410 answer (the resource was deleted or is being deleted). */
export function isGone(err: unknown): boolean {
  return apiStatus(err) === 410;
}

/**
 * True when trying the same call again later may succeed: a refusal (429) or a 5xx (see
 * `RETRY_POLICY`), or a connection failure. Ambiguous requests are not retryable blindly and
 * answer false.
 */
export function isRetryable(err: unknown): boolean {
  if (err instanceof ApiError) return statusRepeatable(err.status);
  return err instanceof TransportError;
}

/** What became of a request's answer, short: `answered 500`, `socket hang up`. */
export function lostAnswerText(lost: unknown): string {
  const cause = lost instanceof AmbiguousRequestError ? lost.cause : lost;
  return cause instanceof ApiError ? `answered ${cause.status}` : describeCause(cause);
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}

function hintFor(status: number, message: string, path: string): string | undefined {
  switch (status) {
    case 401:
      return "The platform refused the API token: check that it is valid and may reach this resource";
    case 404: {
      const subject = notFoundSubject(message);
      return subject ? `The ${subject} was not found` : undefined;
    }
    case 410:
      return (
        postgresHint(status, message, path) ?? "The resource has been deleted and cannot be used any more"
      );
    case 422: {
      const field = /\b([a-z]+(?:_[a-z]+)+)\b/.exec(message)?.[1];
      return field ? `The field \`${field}\` was rejected` : "A field of the request was rejected";
    }
    case 429:
    case 503:
      return postgresHint(status, message, path) ?? "The platform is busy; try again later";
    default:
      return undefined;
  }
}
