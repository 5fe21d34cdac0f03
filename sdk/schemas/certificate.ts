import { z } from "zod";
import { Timestamp } from "./common";

/** Certificate statuses seen on the platform; others may appear. */
export type CertificateStatus = "pending_validation" | "pending_ownership" | "active" | (string & {});

export const IssuedSchema = z.object({
  type: z.string(),
  expires_at: Timestamp,
  certificate_authority: z.string(),
});
export type Issued = z.infer<typeof IssuedSchema>;

export const CertificateEntrySchema = z.object({
  source: z.string(),
  status: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
  issuer: z.string().nullable(),
  issued: z.array(IssuedSchema),
});
export type CertificateEntry = z.infer<typeof CertificateEntrySchema>;

export const ValidationSchema = z.object({
  dns_configured: z.boolean(),
  alpn_configured: z.boolean(),
  http_configured: z.boolean(),
  ownership_txt_configured: z.boolean(),
});
export type Validation = z.infer<typeof ValidationSchema>;

export const DnsRequirementsSchema = z.object({
  a: z.array(z.string()),
  aaaa: z.array(z.string()),
  cname: z.string(),
  acme_challenge: z.object({ name: z.string(), target: z.string() }),
  ownership: z.object({ name: z.string(), app_value: z.string(), org_value: z.string() }),
});
export type DnsRequirements = z.infer<typeof DnsRequirementsSchema>;

/**
 * A hostname record (spec 2.5). `dns_provider` and `rate_limited_until` are absent from the
 * responses of the two delete-kind operations, hence optional.
 */
export const CertificateDetailsSchema = z.object({
  hostname: z.string(),
  configured: z.boolean(),
  acme_requested: z.boolean(),
  status: z.string(),
  dns_provider: z.string().optional(),
  rate_limited_until: Timestamp.nullable().optional(),
  certificates: z.array(CertificateEntrySchema),
  validation: ValidationSchema,
  dns_requirements: DnsRequirementsSchema,
  // The element shape is not documented (spec 2.5 gaps).
  validation_errors: z.array(z.unknown()),
});
export type CertificateDetails = z.infer<typeof CertificateDetailsSchema>;

export const DnsRecordsSchema = z.object({
  a: z.array(z.string()),
  aaaa: z.array(z.string()),
  cname: z.array(z.string()),
  resolved_addresses: z.array(z.string()),
  soa: z.string(),
  acme_challenge_cname: z.string(),
  ownership_txt: z.string(),
});
export type DnsRecords = z.infer<typeof DnsRecordsSchema>;

/** Response of POST .../certificates/{hostname}/check: details plus what actually resolves. */
export const CertificateCheckResponseSchema = CertificateDetailsSchema.extend({
  dns_records: DnsRecordsSchema,
});
export type CertificateCheckResponse = z.infer<typeof CertificateCheckResponseSchema>;

export const CertificateListEntrySchema = z.object({
  hostname: z.string(),
  status: z.string(),
  dns_provider: z.string(),
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

/**
 * One page of GET .../certificates. The spec does not name the next-page cursor field
 * (4.2 rule 8); `next_cursor` is accepted when the platform sends it.
 */
export const CertificateListResponseSchema = z.object({
  certificates: z.array(CertificateListEntrySchema),
  total_count: z.number().int(),
  next_cursor: z.string().nullable().optional(),
});
export type CertificateListResponse = z.infer<typeof CertificateListResponseSchema>;

export const AcmeCertificateRequestSchema = z.object({ hostname: z.string().min(1) });
export type AcmeCertificateRequest = z.infer<typeof AcmeCertificateRequestSchema>;

export const CustomCertificateRequestSchema = z.object({
  hostname: z.string().min(1),
  fullchain: z.string().min(1),
  private_key: z.string().min(1),
});
export type CustomCertificateRequest = z.infer<typeof CustomCertificateRequestSchema>;
