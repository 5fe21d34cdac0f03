/**
 * TLS certificates of an app's custom hostnames (spec 4.2). Hostnames, wildcards included, go
 * through `apiPath`, which sends `*` as `%2A`.
 * @module
 */
import { InvalidArgumentError, TimeoutError } from "./errors";
import { apiPath, queryString } from "./paths";
import {
  AcmeCertificateRequestSchema,
  type CertificateCheckResponse,
  CertificateCheckResponseSchema,
  type CertificateDetails,
  CertificateDetailsSchema,
  type CertificateListEntry,
  type CertificateListResponse,
  CertificateListResponseSchema,
  type CustomCertificateRequest,
  CustomCertificateRequestSchema,
} from "./schemas";
import type { CallOptions, Transport } from "./transport";
import { checkArgument } from "./validate";
import { DEFAULT_WAIT_MS, pollUntil, type WaitOptions } from "./wait";

/** Options of {@link CertificatesClient.waitUntilActive}. */
export interface WaitUntilActiveOptions extends WaitOptions {
  /** First pause between checks (default 500 ms); pauses grow by half up to 5 s. */
  intervalMs?: number;
}

/** Query of a certificate list page. */
export interface ListCertificatesOptions extends CallOptions {
  /** Hostname substring. */
  filter?: string;
  /** Maximum number of entries per page. */
  limit?: number;
  /** `next_cursor` of a previous page. */
  cursor?: string;
}

/** Certificates of the apps the token can reach. Obtain it as `PlatformClient.certificates`. */
export class CertificatesClient {
  /** @internal */
  constructor(private readonly transport: Transport) {}

  /** Lists one page of the app's hostnames. */
  list(app: string, opts?: ListCertificatesOptions): Promise<CertificateListResponse> {
    const limit = opts?.limit;
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      throw new InvalidArgumentError(`limit must be a positive integer (got ${limit})`);
    }
    return this.transport.request({
      method: "GET",
      path:
        apiPath`/v1/apps/${app}/certificates` +
        queryString({ filter: opts?.filter, limit, cursor: opts?.cursor }),
      schema: CertificateListResponseSchema,
      signal: opts?.signal,
    });
  }

  /**
   * Iterates over every hostname, page by page, following `next_cursor`. Stops when a page has
   * no `next_cursor`, is empty, or repeats the cursor it was asked for.
   */
  async *listAll(
    app: string,
    opts?: Omit<ListCertificatesOptions, "cursor">,
  ): AsyncIterable<CertificateListEntry> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.list(app, { ...opts, ...(cursor === undefined ? {} : { cursor }) });
      yield* page.certificates;
      const next = page.next_cursor;
      if (!next || page.certificates.length === 0 || next === cursor) return;
      cursor = next;
    }
  }

  /** Requests an ACME certificate; adds the hostname and starts validation (201). */
  requestAcme(app: string, hostname: string, opts?: CallOptions): Promise<CertificateDetails> {
    const body = { hostname };
    checkArgument(AcmeCertificateRequestSchema, body, "hostname");
    return this.transport.request({
      method: "POST",
      path: apiPath`/v1/apps/${app}/certificates/acme`,
      body,
      schema: CertificateDetailsSchema,
      signal: opts?.signal,
    });
  }

  /** Imports a custom certificate (PEM chain and key); active once ownership is verified. */
  importCustom(app: string, body: CustomCertificateRequest, opts?: CallOptions): Promise<CertificateDetails> {
    checkArgument(CustomCertificateRequestSchema, body, "body");
    return this.transport.request({
      method: "POST",
      path: apiPath`/v1/apps/${app}/certificates/custom`,
      body: { hostname: body.hostname, fullchain: body.fullchain, private_key: body.private_key },
      schema: CertificateDetailsSchema,
      signal: opts?.signal,
    });
  }

  /** Gets a hostname's certificate details. */
  get(app: string, hostname: string, opts?: CallOptions): Promise<CertificateDetails> {
    return this.transport.request({
      method: "GET",
      path: apiPath`/v1/apps/${app}/certificates/${hostname}`,
      schema: CertificateDetailsSchema,
      signal: opts?.signal,
    });
  }

  /**
   * Runs a fresh DNS validation; the answer adds `dns_records` with what actually resolves. It
   * only reads (spec 4.2 rule 4), so a lost answer or a 5xx is repeated like a GET's
   * (`RETRY_POLICY.readOnlyPostRoutes`).
   */
  check(app: string, hostname: string, opts?: CallOptions): Promise<CertificateCheckResponse> {
    return this.transport.request({
      method: "POST",
      path: apiPath`/v1/apps/${app}/certificates/${hostname}/check`,
      schema: CertificateCheckResponseSchema,
      signal: opts?.signal,
    });
  }

  /**
   * Runs the platform's DNS check (POST .../check) with growing pauses until the hostname's
   * status is `active`, and returns that check's answer. After `timeoutMs` (default 300 s) it
   * throws a TimeoutError naming the last status seen, whose `lastSeen` is the last check answer
   * (undefined when none arrived). Errors of a check propagate; the signal's abort rejects with
   * its reason.
   */
  async waitUntilActive(
    app: string,
    hostname: string,
    opts?: WaitUntilActiveOptions,
  ): Promise<CertificateCheckResponse> {
    const intervalMs = opts?.intervalMs ?? 500;
    if (!(intervalMs > 0))
      throw new InvalidArgumentError(`intervalMs must be a positive number (got ${intervalMs})`);
    const timeoutMs = opts?.timeoutMs ?? DEFAULT_WAIT_MS;
    let last: CertificateCheckResponse | undefined;
    const timedOut = () =>
      new TimeoutError(
        `certificate of ${hostname} (app ${app}) did not become active within ${timeoutMs} ms; last status seen: ${last ? `"${last.status}"` : "none (no answer)"}`,
        last,
      );
    const backoff = {
      baseMs: intervalMs,
      maxMs: Math.max(intervalMs, 5_000),
      factor: 1.5,
      jitter: "none" as const,
    };
    return pollUntil({ ...opts, backoff }, timedOut, async (signal) => {
      last = await this.check(app, hostname, { signal });
      return last.status === "active" ? last : undefined;
    });
  }

  /** Removes the hostname and all of its certificates (204). */
  async delete(app: string, hostname: string, opts?: CallOptions): Promise<void> {
    await this.transport.request({
      method: "DELETE",
      path: apiPath`/v1/apps/${app}/certificates/${hostname}`,
      schema: undefined,
      signal: opts?.signal,
    });
  }

  /** Stops ACME issuance; a custom certificate keeps being served and the hostname stays. */
  deleteAcme(app: string, hostname: string, opts?: CallOptions): Promise<CertificateDetails> {
    return this.transport.request({
      method: "DELETE",
      path: apiPath`/v1/apps/${app}/certificates/${hostname}/acme`,
      schema: CertificateDetailsSchema,
      signal: opts?.signal,
    });
  }

  /** Removes the custom certificate; ACME certificates keep being served and the hostname stays. */
  deleteCustom(app: string, hostname: string, opts?: CallOptions): Promise<CertificateDetails> {
    return this.transport.request({
      method: "DELETE",
      path: apiPath`/v1/apps/${app}/certificates/${hostname}/custom`,
      schema: CertificateDetailsSchema,
      signal: opts?.signal,
    });
  }
}
