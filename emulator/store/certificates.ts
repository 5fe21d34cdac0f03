// Wire types: what the emulator sends may omit the members the sdk normalises on parsing.
import type {
  CertificateCheckResponseWire as CertificateCheckResponse,
  CertificateDetailsWire as CertificateDetails,
  CertificateEntry,
  CertificateListEntry,
  CertificateListResponseWire as CertificateListResponse,
  Validation,
} from "../../sdk/schemas";
import {
  CertificateRuleError,
  validateCustomCertificate,
} from "../../sdk/simulation/custom-certificate-rules";
import { dnsRequirements } from "../../sdk/simulation/dns-requirements";
import { checkDns } from "../certificates/dns-requirements";
import { invalid, notFound, unprocessable } from "../errors";
import type { StoreContext, StorePart } from "./context";
import type { SimulatedDns } from "./dns";

export interface CertificateRecord {
  app: string;
  hostname: string;
  created_at: number;
  updated_at: number;
  acme: { requested_at: number; issued_at: number | null; expires_at: number | null } | null;
  custom: {
    created_at: number;
    expires_at: number;
    issuer: string;
    fingerprint: string;
    active: boolean;
  } | null;
  /** Results of the last check; all false until the first one. */
  validation: Validation & { acme_dns_configured: boolean };
  validation_errors: { code: string; message: string }[];
}

export interface ListQuery {
  filter?: string;
  limit?: number;
  cursor?: string;
}

const ACME_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
const HOSTNAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Certificates per app and hostname (spec 4.2, 3.2). Status only moves forward on `check`,
 * which resolves against the simulated DNS; GET shows the state the last check left.
 */
export class CertificateStore implements StorePart<{ certificates: CertificateRecord[] }> {
  readonly records = new Map<string, CertificateRecord>();

  constructor(
    private readonly ctx: StoreContext,
    private readonly dns: SimulatedDns,
  ) {}

  reset(): void {
    this.records.clear();
  }

  serialize() {
    return { certificates: [...this.records.values()] };
  }

  load(state: { certificates: CertificateRecord[] }): void {
    for (const c of state.certificates) this.records.set(key(c.app, c.hostname), c);
  }

  requestAcme(app: string, hostname: string): CertificateDetails {
    const rec = this.findOrCreate(app, normalizeHostname(hostname));
    if (!rec.acme) rec.acme = { requested_at: this.ctx.clock.now(), issued_at: null, expires_at: null };
    this.touch(rec);
    return this.details(rec, "full");
  }

  importCustom(app: string, hostname: string, fullchain: string, privateKey: string): CertificateDetails {
    const host = normalizeHostname(hostname);
    const now = this.ctx.clock.now();
    let cert: ReturnType<typeof validateCustomCertificate>;
    try {
      cert = validateCustomCertificate(host, fullchain, privateKey, now);
    } catch (err) {
      if (err instanceof CertificateRuleError) throw unprocessable(err.message);
      throw err;
    }
    const rec = this.findOrCreate(app, host);
    const sameCert = rec.custom?.fingerprint === cert.fingerprint;
    rec.custom = {
      created_at: now,
      expires_at: cert.validTo,
      issuer: cert.issuer,
      fingerprint: cert.fingerprint,
      // Re-importing the same certificate keeps a verified ownership.
      active: sameCert && rec.custom?.active === true,
    };
    this.touch(rec);
    return this.details(rec, "full");
  }

  get(app: string, hostname: string): CertificateDetails {
    return this.details(this.find(app, hostname), "full");
  }

  check(app: string, hostname: string): CertificateCheckResponse {
    const rec = this.find(app, hostname);
    const req = dnsRequirements(app, this.orgOf(app), rec.hostname);
    const found = checkDns(this.dns, rec.hostname, req);
    const wildcard = rec.hostname.startsWith("*.");
    const now = this.ctx.clock.now();
    rec.validation = {
      dns_configured: found.pointsAtApp,
      // TLS-ALPN and HTTP challenges reach the app only when DNS points at it; never for wildcards.
      alpn_configured: found.pointsAtApp && !wildcard,
      http_configured: found.pointsAtApp && !wildcard,
      ownership_txt_configured: found.ownership,
      acme_dns_configured: found.acmeChallenge,
    };
    const errors: CertificateRecord["validation_errors"] = [];
    if (rec.custom && !rec.custom.active) {
      if (found.ownership) rec.custom.active = true;
      else
        errors.push({
          code: "ownership_txt_missing",
          message: `TXT record ${req.ownership.name} must equal ${req.ownership.app_value} or ${req.ownership.org_value}`,
        });
    }
    if (rec.acme && rec.acme.issued_at === null) {
      if (found.acmeChallenge || (!wildcard && found.pointsAtApp)) {
        rec.acme.issued_at = now;
        rec.acme.expires_at = now + ACME_LIFETIME_MS;
      } else {
        errors.push({
          code: "acme_validation_pending",
          message: wildcard
            ? `wildcard certificates need the CNAME ${req.acme_challenge.name} -> ${req.acme_challenge.target}`
            : `point ${rec.hostname} at the app (A ${req.a[0]}, AAAA ${req.aaaa[0]} or CNAME ${req.cname}) ` +
              `or set the CNAME ${req.acme_challenge.name} -> ${req.acme_challenge.target}`,
        });
      }
    }
    rec.validation_errors = errors;
    this.touch(rec);
    return { ...this.details(rec, "full"), dns_records: found.records };
  }

  deleteHostname(app: string, hostname: string): void {
    const rec = this.find(app, hostname);
    this.records.delete(key(app, rec.hostname));
    this.ctx.changed();
  }

  deleteAcme(app: string, hostname: string): CertificateDetails {
    const rec = this.find(app, hostname);
    if (!rec.acme)
      throw notFound(`no ACME certificate requested for hostname "${rec.hostname}" in app "${app}"`);
    rec.acme = null;
    this.touch(rec);
    return this.details(rec, "delete-kind");
  }

  deleteCustom(app: string, hostname: string): CertificateDetails {
    const rec = this.find(app, hostname);
    if (!rec.custom) throw notFound(`no custom certificate for hostname "${rec.hostname}" in app "${app}"`);
    rec.custom = null;
    this.touch(rec);
    return this.details(rec, "delete-kind");
  }

  list(app: string, query: ListQuery): CertificateListResponse {
    const filter = query.filter?.toLowerCase() ?? "";
    const matching = [...this.records.values()]
      .filter((r) => r.app === app && r.hostname.includes(filter))
      .sort((a, b) => (a.hostname < b.hostname ? -1 : a.hostname > b.hostname ? 1 : 0));
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const start = after === undefined ? 0 : matching.findIndex((r) => r.hostname > after);
    const limit = Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const page = start < 0 ? [] : matching.slice(start, start + limit);
    const out: CertificateListResponse = {
      certificates: page.map((r) => this.listEntry(r)),
      total_count: matching.length,
    };
    const last = page[page.length - 1];
    if (last && start + page.length < matching.length) out.next_cursor = encodeCursor(last.hostname);
    return out;
  }

  private listEntry(r: CertificateRecord): CertificateListEntry {
    return {
      hostname: r.hostname,
      status: status(r),
      dns_provider: DNS_PROVIDER,
      acme_dns_configured: r.validation.acme_dns_configured,
      acme_alpn_configured: r.validation.alpn_configured,
      acme_http_configured: r.validation.http_configured,
      ownership_txt_configured: r.validation.ownership_txt_configured,
      configured: configured(r),
      acme_requested: r.acme !== null,
      has_custom_certificate: r.custom !== null,
      has_platform_certificate: r.acme?.issued_at != null,
      created_at: this.ctx.clock.iso(r.created_at),
      updated_at: this.ctx.clock.iso(r.updated_at),
    };
  }

  private details(r: CertificateRecord, kind: "full" | "delete-kind"): CertificateDetails {
    const iso = (t: number) => this.ctx.clock.iso(t);
    const certificates: CertificateEntry[] = [];
    // The custom certificate is primary, the ACME one the fallback: list them in that order.
    if (r.custom) {
      certificates.push({
        source: "custom",
        status: r.custom.active ? "active" : "pending_ownership",
        created_at: iso(r.custom.created_at),
        expires_at: iso(r.custom.expires_at),
        issuer: r.custom.issuer,
        issued: [],
      });
    }
    if (r.acme?.issued_at != null && r.acme.expires_at != null) {
      certificates.push({
        source: "platform",
        status: "active",
        created_at: iso(r.acme.issued_at),
        expires_at: iso(r.acme.expires_at),
        issuer: null,
        issued: [
          { type: "ecdsa", expires_at: iso(r.acme.expires_at), certificate_authority: "lets_encrypt" },
        ],
      });
    }
    const { acme_dns_configured: _, ...validation } = r.validation;
    const details: CertificateDetails = {
      hostname: r.hostname,
      configured: configured(r),
      acme_requested: r.acme !== null,
      status: status(r),
      certificates,
      validation,
      dns_requirements: dnsRequirements(r.app, this.orgOf(r.app), r.hostname),
      validation_errors: r.validation_errors,
    };
    if (kind === "full") {
      details.dns_provider = DNS_PROVIDER;
      details.rate_limited_until = null;
    }
    return details;
  }

  private findOrCreate(app: string, hostname: string): CertificateRecord {
    const existing = this.records.get(key(app, hostname));
    if (existing) return existing;
    const now = this.ctx.clock.now();
    const rec: CertificateRecord = {
      app,
      hostname,
      created_at: now,
      updated_at: now,
      acme: null,
      custom: null,
      validation: {
        dns_configured: false,
        alpn_configured: false,
        http_configured: false,
        ownership_txt_configured: false,
        acme_dns_configured: false,
      },
      validation_errors: [],
    };
    this.records.set(key(app, hostname), rec);
    return rec;
  }

  private find(app: string, hostname: string): CertificateRecord {
    const host = hostname.toLowerCase();
    const rec = this.records.get(key(app, host));
    if (!rec) throw notFound(`certificate for hostname "${host}" not found in app "${app}"`);
    return rec;
  }

  private touch(rec: CertificateRecord): void {
    rec.updated_at = this.ctx.clock.now();
    this.ctx.changed();
  }

  private orgOf(app: string): string {
    return this.ctx.seed.apps.find((a) => a.name === app)?.org ?? "personal";
  }
}

const DNS_PROVIDER = "emulator";

const key = (app: string, hostname: string) => `${app}\u0000${hostname}`;

/**
 * Overall status: `active` once any certificate is served; otherwise what the pending kind
 * waits for (custom first). A hostname whose last kind was deleted is `not_configured`.
 */
function status(r: CertificateRecord): string {
  if (r.custom?.active || r.acme?.issued_at != null) return "active";
  if (r.custom) return "pending_ownership";
  if (r.acme) return "pending_validation";
  return "not_configured";
}

/** `configured`: a certificate is being served for the hostname. */
const configured = (r: CertificateRecord) => status(r) === "active";

function normalizeHostname(hostname: string): string {
  const host = hostname.trim().toLowerCase().replace(/\.$/, "");
  if (host.length > 253 || !HOSTNAME.test(host)) {
    throw invalid(
      `hostname "${hostname}" is not a valid hostname (a wildcard may only be a leading "*." label)`,
    );
  }
  return host;
}

function encodeCursor(hostname: string): string {
  return Buffer.from(JSON.stringify({ after: hostname })).toString("base64url");
}

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { after?: unknown };
    if (typeof parsed.after === "string") return parsed.after;
  } catch {}
  throw invalid("cursor is not valid: pass the next_cursor of a previous response unchanged");
}
