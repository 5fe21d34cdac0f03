/**
 * Output shapes both certificate kinds share (spec 2.5, camelCase).
 * @module
 */

/** Which validations of the hostname have passed. */
export interface CertificateValidationOutput {
  /** DNS (A/AAAA/CNAME or ACME challenge) points at the app. */
  dnsConfigured: boolean;
  /** TLS-ALPN validation works. */
  alpnConfigured: boolean;
  /** HTTP validation works. */
  httpConfigured: boolean;
  /** The ownership TXT record is present. */
  ownershipTxtConfigured: boolean;
}

/** One issued certificate of a platform (ACME) certificate. */
export interface IssuedCertificateOutput {
  /** Key type, e.g. `ecdsa`. */
  type: string;
  /** Expiry timestamp. */
  expiresAt: string;
  /** Issuing authority, e.g. `lets_encrypt`. */
  certificateAuthority: string;
}

/** A certificate held for the hostname. */
export interface CertificateEntryOutput {
  /** `custom` or `platform` (the automatic ACME certificate). */
  source: string;
  /** Status of this certificate. */
  status: string;
  /** Creation timestamp. */
  createdAt: string;
  /** Expiry timestamp. */
  expiresAt: string;
  /** Issuer for custom certificates; null for platform ones. */
  issuer: string | null;
  /** Issued items; empty for custom certificates. */
  issued: IssuedCertificateOutput[];
}

/** The DNS records the platform asks for (spec 2.5 `dns_requirements`). */
export interface DnsRequirementsOutput {
  /** IPv4 addresses for A records of the hostname. */
  a: string[];
  /** IPv6 addresses for AAAA records of the hostname. */
  aaaa: string[];
  /** The app's default hostname, for a CNAME of the hostname. */
  cname: string;
  /** ACME DNS challenge: CNAME `name` (`_acme-challenge.<hostname>`) → `target`. */
  acmeChallenge: { name: string; target: string };
  /** Ownership TXT record `name` (`_platform-ownership.<hostname>`) with the app's or org's value. */
  ownership: { name: string; appValue: string; orgValue: string };
}

/** One DNS record to create, ready to feed to a DNS provider. */
export interface DnsRecordOutput {
  /** Record type (`TXT`, `CNAME`). */
  type: string;
  /** Record name. */
  name: string;
  /** Record value. */
  value: string;
}
