/**
 * The one request function every remote and task-socket call goes through: base URL, auth,
 * timeouts, retries, decoding, validation and error mapping. Family clients only build paths and
 * bodies on top of {@link Transport.request}.
 * @module
 */
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { AmbiguousRequestError, ApiError, ResponseValidationError, TransportError } from "./errors";
import { responseFieldPath } from "./field-path";
import { PlatformClock } from "./platform-clock";
import type { PostgresErrorReason } from "./postgres-errors";
import { Backoff, type BackoffOptions, DEFAULT_BACKOFF, parseRetryAfter } from "./retry";
import { answerMeaning, RETRY_POLICY, requestIdempotent } from "./retry-policy";
import { currentToken, type TokenSource } from "./token-source";

/** HTTP methods the platform uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One request as seen by the debug hook; `authorization` is always redacted. */
export interface DebugEntry {
  method: string;
  /** Path including the query string. */
  path: string;
  /** Response status, absent when no response arrived. */
  status?: number;
  durationMs: number;
  /** Zero-based attempt number of this request. */
  attempt: number;
  /** Request headers as sent, with `authorization` redacted. */
  headers: Record<string, string>;
  /** Transport failure, when no response arrived. */
  error?: string;
}

/** Per-call options every client method accepts as its last argument. */
export interface CallOptions {
  /** Aborts the call, including retries and backoff sleeps; it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Settings of a {@link Transport}; validated by the public client constructors. */
export interface TransportConfig {
  origin: string;
  /** Path prefix of the base URL, without a trailing slash ("" for none). */
  pathPrefix: string;
  dispatcher: Dispatcher;
  /** Extra headers for every request (user-agent, host). */
  headers: Record<string, string>;
  /** Asked for the bearer token of every request, and told of a refused one (401). */
  tokenSource?: TokenSource;
  timeoutMs: number;
  deadlineMs: number;
  maxRetries: number;
  backoff?: BackoffOptions;
  onDebug?: (entry: DebugEntry) => void;
}

/** One call through {@link Transport.request}. */
export interface RequestSpec<S extends z.ZodType | undefined> {
  method: HttpMethod;
  /** Encoded path (from `apiPath`), optionally with a query string. */
  path: string;
  /** JSON body. */
  body?: unknown;
  /** Schema of a 2xx body; undefined when the body is ignored (204). */
  schema: S;
  signal?: AbortSignal | undefined;
  /** Names the error row of a non-2xx answer (the ApiError's `reason`), for families that have rows. */
  reasonOf?: (status: number, platformMessage: string) => PostgresErrorReason | undefined;
  /**
   * Whether sending the request twice does no more than sending it once, so an unknown outcome
   * (a lost answer, a 5xx) is repeated. Default: what the retry policy says of the method and
   * route (`RETRY_POLICY.idempotentMethods`, `readOnlyPostRoutes`, `lookFirstRoutes`).
   */
  idempotent?: boolean;
}

const NOT_SENT_CODES = new Set<string>(RETRY_POLICY.notSentCodes);
const FINAL_CODES = new Set<string>(RETRY_POLICY.finalCodes);

/** The header objects of one token. */
interface Headers {
  token: string | undefined;
  plain: Record<string, string>;
  json: Record<string, string>;
}

/** Shared HTTP machinery of one client. */
export class Transport {
  private headers: Headers;
  private readonly debugHeaders: Record<string, string>;
  private readonly backoff: BackoffOptions;
  /** The platform's clock, as the `Date` headers of its answers tell it. */
  readonly clock = new PlatformClock();

  constructor(private readonly config: TransportConfig) {
    this.headers = this.headersOf(undefined);
    this.debugHeaders = { ...this.headers.json };
    if (config.tokenSource) this.debugHeaders.authorization = "Bearer [redacted]";
    this.backoff = config.backoff ?? DEFAULT_BACKOFF;
  }

  /** Header objects are built once per token; the hot path never copies them. */
  private headersOf(token: string | undefined): Headers {
    const plain = {
      accept: "application/json",
      ...this.config.headers,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    };
    return { token, plain, json: { ...plain, "content-type": "application/json" } };
  }

  private headersFor(token: string | undefined): Headers {
    if (this.headers.token !== token) this.headers = this.headersOf(token);
    return this.headers;
  }

  /** The dispatcher requests go through. */
  get dispatcher(): Dispatcher {
    return this.config.dispatcher;
  }

  /**
   * Sends one logical request, retrying what is safe to retry, and returns the validated body.
   * Throws ApiError, TransportError, AmbiguousRequestError (a request that is not repeatable, a
   * POST by default, whose outcome is unknown: a lost answer, a timeout, a 5xx the policy does
   * not define as "not carried out" for its route),
   * ResponseValidationError, or the signal's reason once it aborts. A 401 is sent once more
   * when the token source says another token is current now.
   */
  async request<S extends z.ZodType | undefined>(
    spec: RequestSpec<S>,
  ): Promise<S extends z.ZodType ? z.output<S> : undefined> {
    const { config } = this;
    const { method, signal } = spec;
    const repeatable = spec.idempotent ?? requestIdempotent(method, spec.path);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const fullPath = config.pathPrefix + spec.path;
    const deadlineAt = Date.now() + config.deadlineMs;
    const backoff = new Backoff(this.backoff, { deadlineAt, signal });
    const { tokenSource } = config;
    let reauthorized = false;
    for (;;) {
      const attempt = backoff.attempt;
      const token = tokenSource ? currentToken(tokenSource) : undefined;
      const headers = this.headersFor(token);
      const startedAt = Date.now();
      const timeout = Math.max(1, Math.min(config.timeoutMs, deadlineAt - startedAt));
      let status: number;
      let text: string;
      let retryAfter: string | string[] | undefined;
      let requestId: string | undefined;
      try {
        const res = await config.dispatcher.request({
          origin: config.origin,
          path: fullPath,
          method,
          headers: body === undefined ? headers.plain : headers.json,
          body,
          signal,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        });
        status = res.statusCode;
        this.clock.observe(res.headers.date, Date.now());
        retryAfter = res.headers["retry-after"];
        requestId = requestIdOf(res.headers);
        text = await res.body.text();
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        this.debug(method, fullPath, undefined, startedAt, attempt, err);
        const code = errorCode(err);
        const safePath = stripQuery(spec.path);
        if (FINAL_CODES.has(code)) throw new TransportError(method, safePath, err, true);
        const notSent = NOT_SENT_CODES.has(code);
        if (!repeatable && !notSent) throw new AmbiguousRequestError(method, safePath, err);
        if (attempt >= config.maxRetries || !(await backoff.retry())) {
          throw new TransportError(method, safePath, err, notSent);
        }
        continue;
      }
      if (config.onDebug) this.debug(method, fullPath, status, startedAt, attempt, undefined);
      if (status >= 200 && status < 300) {
        return decode(spec.schema, text, status, method, spec.path) as S extends z.ZodType
          ? z.output<S>
          : undefined;
      }
      // Every refusal is reported; a 401 means the platform did nothing, so any method may be
      // sent once more with another token.
      if (status === 401 && token !== undefined && tokenSource?.refused(token) && !reauthorized) {
        reauthorized = true;
        continue;
      }
      const retryAfterMs = parseRetryAfter(retryAfter);
      const platformMessage = errorMessage(text);
      const reason = spec.reasonOf?.(status, platformMessage);
      const error = new ApiError({
        status,
        platformMessage,
        method,
        path: stripQuery(spec.path),
        ...(retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) }),
        ...(requestId ? { requestId } : {}),
        ...(reason ? { reason } : {}),
      });
      const meaning = answerMeaning(method, spec.path, status);
      if (meaning === "unknown" && !repeatable) throw new AmbiguousRequestError(method, error.path, error);
      if (meaning === "failed" || attempt >= config.maxRetries) throw error;
      if (!(await backoff.retry(retryAfterMs))) throw error;
    }
  }

  private debug(
    method: string,
    path: string,
    status: number | undefined,
    startedAt: number,
    attempt: number,
    err: unknown,
  ): void {
    const hook = this.config.onDebug;
    if (!hook) return;
    const entry: DebugEntry = {
      method,
      path,
      durationMs: Date.now() - startedAt,
      attempt,
      headers: this.debugHeaders,
    };
    if (status !== undefined) entry.status = status;
    if (err !== undefined) entry.error = err instanceof Error ? err.message : String(err);
    try {
      hook(entry);
    } catch {
      // A failing debug hook must never break a request.
    }
  }
}

function decode(
  schema: z.ZodType | undefined,
  text: string,
  status: number,
  method: string,
  path: string,
): unknown {
  if (schema === undefined) return undefined;
  const endpoint = `${method} ${stripQuery(path)}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResponseValidationError(
      endpoint,
      "(root)",
      text ? `body is not JSON (status ${status})` : `empty body (status ${status})`,
    );
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ResponseValidationError(
    endpoint,
    responseFieldPath(issue?.path ?? []),
    issue?.message ?? "invalid",
  );
}

function errorMessage(text: string): string {
  if (!text) return "";
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof parsed?.error === "string") return parsed.error;
    if (typeof parsed?.message === "string") return parsed.message;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/**
 * The platform's id of a request: `x-request-id`, else `fly-request-id` (what the platform's edge
 * sends); one line of at most 200 characters, or undefined.
 */
export function requestIdOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers["x-request-id"] ?? headers["fly-request-id"];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text && !/[\r\n]/.test(text) ? text.slice(0, 200) : undefined;
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  const causeCode = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof causeCode === "string" ? causeCode : "";
}

/** Drops the query string: errors and logs never carry query values. */
export function stripQuery(path: string): string {
  const at = path.indexOf("?");
  return at === -1 ? path : path.slice(0, at);
}
