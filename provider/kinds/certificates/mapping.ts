/**
 * The one mapping of a hostname record as the platform reports it (the sdk's parsed
 * `CertificateDetails`, spec 2.5) to the outputs both certificate kinds declare. The runtime's
 * outputs of `AcmeCertificate` and `CustomCertificate` and the lookups' `CertificateInfo` are
 * derived from it: the declared outputs are exhaustive, so the compiler names this function when
 * one is missing. Loaded by the program too (lookups): it imports the sdk's types only.
 * @module
 */
import type { CertificateDetails } from "../../../sdk/schemas/certificate";
import type { DeclaredOutputs } from "../../model/declaration";
import type { acmeCertificateDeclaration } from "./declarations";

/**
 * A hostname record as the platform reports it, camelCase: the outputs both certificate kinds
 * declare (`AcmeCertificate`'s; `CustomCertificate` adds its certificate's expiry and issuer).
 */
export type CertificateReport = DeclaredOutputs<typeof acmeCertificateDeclaration>;

/**
 * The report of a parsed hostname record (a check's `dns_records` are left out). `dnsProvider` is
 * the record's own: the runtime keeps the last one known when the platform leaves it out.
 */
export function certificateReport(details: CertificateDetails): CertificateReport {
  const req = details.dns_requirements;
  return {
    hostname: details.hostname,
    status: details.status,
    configured: details.configured,
    acmeRequested: details.acme_requested,
    dnsProvider: details.dns_provider,
    // Left out (parsed: null) exactly when not rate limited.
    rateLimitedUntil: details.rate_limited_until,
    validation: {
      dnsConfigured: details.validation.dns_configured,
      alpnConfigured: details.validation.alpn_configured,
      httpConfigured: details.validation.http_configured,
      ownershipTxtConfigured: details.validation.ownership_txt_configured,
    },
    validationErrors: details.validation_errors,
    certificates: details.certificates.map((c) => ({
      source: c.source,
      status: c.status,
      createdAt: c.created_at,
      expiresAt: c.expires_at,
      issuer: c.issuer,
      issued: c.issued.map((i) => ({
        type: i.type,
        expiresAt: i.expires_at,
        certificateAuthority: i.certificate_authority,
      })),
    })),
    dnsRequirements: {
      a: req.a,
      aaaa: req.aaaa,
      cname: req.cname,
      acmeChallenge: { name: req.acme_challenge.name, target: req.acme_challenge.target },
      ownership: {
        name: req.ownership.name,
        appValue: req.ownership.app_value,
        orgValue: req.ownership.org_value,
      },
    },
    ownershipRecord: { type: "TXT", name: req.ownership.name, value: req.ownership.app_value },
    acmeChallengeRecord: { type: "CNAME", name: req.acme_challenge.name, value: req.acme_challenge.target },
  };
}
