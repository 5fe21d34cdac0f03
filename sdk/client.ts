/**
 * The remote API client: validates its options once and hands one shared Transport to the
 * family clients.
 * @module
 */
import "./node-floor";
import { Agent, type Dispatcher } from "undici";
import { CertificatesClient } from "./certificates";
import { InvalidArgumentError } from "./errors";
import { PostgresClient } from "./postgres";
import { RETRY_POLICY } from "./retry-policy";
import { checkTokenSource, fixedToken, type TokenSource } from "./token-source";
import { type DebugEntry, Transport } from "./transport";
import { VolumesClient } from "./volumes";

/** Options of {@link PlatformClient}. */
export interface PlatformClientOptions {
  /** Base URL of the API, e.g. `https://api.example.com` (paths under `/v1` are appended). */
  baseUrl: string;
  /**
   * API token, sent as `Authorization: Bearer <token>`; never logged or put in errors. Give
   * either this or `tokenSource`.
   */
  token?: string;
  /**
   * Where the token of each request comes from, and what replaces a refused one (see
   * {@link TokenSource}); instead of `token`.
   */
  tokenSource?: TokenSource;
  /** Timeout of one HTTP attempt in ms (default 30 000). */
  timeoutMs?: number;
  /** Overall time of one call including retries and their pauses, in ms (default 120 000). */
  deadlineMs?: number;
  /** Retries after the first attempt for failures that are safe to retry (default 4). */
  maxRetries?: number;
  /** `User-Agent` header (default `pulumi-platform-sdk`). */
  userAgent?: string;
  /** Called after every HTTP attempt; `authorization` is redacted. Off by default. */
  onDebug?: (entry: DebugEntry) => void;
  /** Dispatcher to send requests through (default: a keep-alive Agent owned by the client). */
  dispatcher?: Dispatcher;
}

/** Typed client of the platform's remote API. */
export class PlatformClient {
  /** Volumes and snapshots. */
  readonly volumes: VolumesClient;
  /** TLS certificates of custom hostnames. */
  readonly certificates: CertificatesClient;
  /** Postgres user passwords. */
  readonly postgres: PostgresClient;
  private readonly transport: Transport;
  private readonly ownsDispatcher: boolean;

  /** Throws InvalidArgumentError naming the first bad option. */
  constructor(options: PlatformClientOptions) {
    if (typeof options !== "object" || options === null) {
      throw new InvalidArgumentError("options must be an object with baseUrl and token");
    }
    const { origin, pathPrefix } = parseBaseUrl(options.baseUrl);
    const tokenSource = tokenSourceOf(options);
    const timeoutMs = positiveNumber(options.timeoutMs, "timeoutMs", 30_000);
    const deadlineMs = positiveNumber(options.deadlineMs, "deadlineMs", RETRY_POLICY.deadlineMs);
    const maxRetries = options.maxRetries ?? RETRY_POLICY.maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 20) {
      throw new InvalidArgumentError(
        `maxRetries must be an integer from 0 to 20 (got ${options.maxRetries})`,
      );
    }
    const userAgent = options.userAgent ?? "pulumi-platform-sdk";
    if (typeof userAgent !== "string" || userAgent === "" || /[\r\n]/.test(userAgent)) {
      throw new InvalidArgumentError("userAgent must be a non-empty single-line string");
    }
    if (options.onDebug !== undefined && typeof options.onDebug !== "function") {
      throw new InvalidArgumentError("onDebug must be a function");
    }
    if (options.dispatcher !== undefined && typeof options.dispatcher?.request !== "function") {
      throw new InvalidArgumentError("dispatcher must be an undici Dispatcher");
    }
    this.ownsDispatcher = options.dispatcher === undefined;
    this.transport = new Transport({
      origin,
      pathPrefix,
      dispatcher: options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000 }),
      headers: { "user-agent": userAgent },
      tokenSource,
      timeoutMs,
      deadlineMs,
      maxRetries,
      ...(options.onDebug ? { onDebug: options.onDebug } : {}),
    });
    this.volumes = new VolumesClient(this.transport);
    this.certificates = new CertificatesClient(this.transport);
    this.postgres = new PostgresClient(this.transport);
  }

  /** Closes the client's own connections (a dispatcher passed in stays open). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.transport.dispatcher.close();
  }
}

function tokenSourceOf(options: PlatformClientOptions): TokenSource {
  if (options.tokenSource !== undefined) {
    if (options.token !== undefined)
      throw new InvalidArgumentError("give either token or tokenSource, not both");
    return checkTokenSource(options.tokenSource);
  }
  if (typeof options.token !== "string" || options.token.trim() === "") {
    throw new InvalidArgumentError("token must be a non-empty string");
  }
  if (/[\r\n]/.test(options.token)) throw new InvalidArgumentError("token must not contain line breaks");
  return fixedToken(options.token.trim());
}

function parseBaseUrl(baseUrl: unknown): { origin: string; pathPrefix: string } {
  if (typeof baseUrl !== "string" || baseUrl === "") {
    throw new InvalidArgumentError("baseUrl must be a non-empty string such as https://api.example.com");
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidArgumentError(`baseUrl is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError(`baseUrl must use http or https (got ${url.protocol})`);
  }
  if (url.username || url.password) {
    throw new InvalidArgumentError("baseUrl must not contain credentials; pass the token option");
  }
  if (url.search || url.hash) throw new InvalidArgumentError("baseUrl must not have a query or fragment");
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, "") };
}

function positiveNumber(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(
      `${name} must be a positive number of milliseconds (got ${String(value)})`,
    );
  }
  return value;
}
