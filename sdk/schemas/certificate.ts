import { z } from "zod";
import { listOrEmpty, orNone, orNull, Timestamp } from "./common";

/** Certificate statuses seen on the platform; others may appear. */
export type CertificateStatus = "pending_validation" | "pending_ownership" | "active" | (string & {});

/** An issued item; `certificate_authority` may be omitted or null (parsed: `null`). */
export const IssuedSchema = z.object({
  type: z.string(),
  expires_at: Timestamp,
  certificate_authority: orNull(z.string()),
});
export type Issued = z.infer<typeof IssuedSchema>;
/** An issued item as it may come over the wire. */
export type IssuedWire = z.input<typeof IssuedSchema>;

/**
 * A certificate held for a hostname. `created_at`, `expires_at` and `issuer` may be omitted or
 * null (parsed: `null`); `issued` may be omitted or null (parsed: `[]`).
 */
export const CertificateEntrySchema = z.object({
  source: z.string(),
  status: z.string(),
  created_at: orNull(Timestamp),
  expires_at: orNull(Timestamp),
  issuer: orNull(z.string()),
  issued: listOrEmpty(IssuedSchema),
});
export type CertificateEntry = z.infer<typeof CertificateEntrySchema>;
/** A certificate entry as it may come over the wire. */
export type CertificateEntryWire = z.input<typeof CertificateEntrySchema>;

export const ValidationSchema = z.object({
  dns_configured: z.boolean(),
  alpn_configured: z.boolean(),
  http_configured: z.boolean(),
  ownership_txt_configured: z.boolean(),
});
export type Validation = z.infer<typeof ValidationSchema>;

/** DNS records the caller must set; the address lists may be null (parsed: `[]`). */
export const DnsRequirementsSchema = z.object({
  a: listOrEmpty(z.string()),
  aaaa: listOrEmpty(z.string()),
  cname: z.string(),
  acme_challenge: z.object({ name: z.string(), target: z.string() }),
  ownership: z.object({ name: z.string(), app_value: z.string(), org_value: z.string() }),
});
export type DnsRequirements = z.infer<typeof DnsRequirementsSchema>;
/** DNS requirements as they may come over the wire. */
export type DnsRequirementsWire = z.input<typeof DnsRequirementsSchema>;

/**
 * A hostname record (spec 2.5). `dns_provider` and `rate_limited_until` may be omitted or null
 * (the delete-kind answers omit both; parsed: `null`); `certificates` and `validation_errors`
 * may be omitted or null (parsed: `[]`).
 */
export const CertificateDetailsSchema = z.object({
  hostname: z.string(),
  configured: z.boolean(),
  acme_requested: z.boolean(),
  status: z.string(),
  dns_provider: orNull(z.string()),
  rate_limited_until: orNull(Timestamp),
  certificates: listOrEmpty(CertificateEntrySchema),
  validation: ValidationSchema,
  dns_requirements: DnsRequirementsSchema,
  // The element shape is not documented (spec 2.5 gaps).
  validation_errors: listOrEmpty(z.unknown()),
});
export type CertificateDetails = z.infer<typeof CertificateDetailsSchema>;
/** A hostname record as it may come over the wire. */
export type CertificateDetailsWire = z.input<typeof CertificateDetailsSchema>;

/**
 * What the platform's DNS check saw. The lists may be omitted or null (parsed: `[]`); `soa`,
 * `acme_challenge_cname` and `ownership_txt` are null exactly when that record is missing.
 */
export const DnsRecordsSchema = z.object({
  a: listOrEmpty(z.string()),
  aaaa: listOrEmpty(z.string()),
  cname: listOrEmpty(z.string()),
  resolved_addresses: listOrEmpty(z.string()),
  soa: orNull(z.string()),
  acme_challenge_cname: orNull(z.string()),
  ownership_txt: orNull(z.string()),
});
export type DnsRecords = z.infer<typeof DnsRecordsSchema>;
/** DNS records as they may come over the wire. */
export type DnsRecordsWire = z.input<typeof DnsRecordsSchema>;

/**
 * Response of POST .../certificates/{hostname}/check: details plus what actually resolves
 * (`dns_records`; omitted or null parses to `null`).
 */
export const CertificateCheckResponseSchema = CertificateDetailsSchema.extend({
  dns_records: orNull(DnsRecordsSchema),
});
export type CertificateCheckResponse = z.infer<typeof CertificateCheckResponseSchema>;
/** A check answer as it may come over the wire. */
export type CertificateCheckResponseWire = z.input<typeof CertificateCheckResponseSchema>;

/** A certificate list entry (spec 2.6); `dns_provider` may be omitted or null (parsed: `null`). */
export const CertificateListEntrySchema = z.object({
  hostname: z.string(),
  status: z.string(),
  dns_provider: orNull(z.string()),
  acme_dns_configured: z.boolean(),
  acme_alpn_configured: z.boolean(),
  acme_http_configured: z.boolean(),
  ownership_txt_configured: z.boolean(),
  configured: z.boolean(),
  acme_requested: z.boolean(),
  has_custom_certificate: z.boolean(),
  has_platform_certificate: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CertificateListEntry = z.infer<typeof CertificateListEntrySchema>;
/** A certificate list entry as it may come over the wire. */
export type CertificateListEntryWire = z.input<typeof CertificateListEntrySchema>;

/**
 * One page of GET .../certificates. `total_count` is left out when zero (parsed: `0`). The spec
 * does not name the next-page cursor field (4.2 rule 8); `next_cursor` is accepted when the
 * platform sends it (parsed: `null` when not).
 */
export const CertificateListResponseSchema = z.object({
  certificates: listOrEmpty(CertificateListEntrySchema),
  total_count: orNone(z.number().int(), 0),
  next_cursor: orNull(z.string()),
});
export type CertificateListResponse = z.infer<typeof CertificateListResponseSchema>;
/** A certificate list page as it may come over the wire. */
export type CertificateListResponseWire = z.input<typeof CertificateListResponseSchema>;

export const AcmeCertificateRequestSchema = z.object({ hostname: z.string().min(1) });
export type AcmeCertificateRequest = z.infer<typeof AcmeCertificateRequestSchema>;

export const CustomCertificateRequestSchema = z.object({
  hostname: z.string().min(1),
  fullchain: z.string().min(1),
  private_key: z.string().min(1),
});
export type CustomCertificateRequest = z.infer<typeof CustomCertificateRequestSchema>;
