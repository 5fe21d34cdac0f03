/**
 * Outputs both certificate kinds share (spec 2.5, camelCase): their shapes, and the base class
 * that declares them for {@link AcmeCertificate} and {@link CustomCertificate}.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";

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
  /** Issuing authority, e.g. `lets_encrypt`; null when the platform does not name it. */
  certificateAuthority: string | null;
}

/** A certificate held for the hostname. */
export interface CertificateEntryOutput {
  /** `custom` or `platform` (the automatic ACME certificate). */
  source: string;
  /** Status of this certificate. */
  status: string;
  /** Creation timestamp; null when the platform does not give it. */
  createdAt: string | null;
  /** Expiry timestamp; null when the platform does not give it. */
  expiresAt: string | null;
  /** Issuer for custom certificates; null for platform ones and when the platform leaves it out. */
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

/**
 * The outputs both certificate kinds declare; the base of {@link AcmeCertificate} and
 * {@link CustomCertificate}. Both may coexist on one hostname; deleting the last kind removes
 * the hostname.
 */
export abstract class CertificateResource extends pulumi.dynamic.Resource {
  /** App serving the hostname. */
  declare public readonly app: pulumi.Output<string>;
  /** Hostname. */
  declare public readonly hostname: pulumi.Output<string>;
  /**
   * Overall status: `pending_validation`, `pending_ownership` (a custom certificate waits only
   * for the ownership TXT record), `active`, ...
   */
  declare public readonly status: pulumi.Output<string>;
  /** Whether the hostname is configured. */
  declare public readonly configured: pulumi.Output<boolean>;
  /** Whether ACME issuance is requested for the hostname. */
  declare public readonly acmeRequested: pulumi.Output<boolean>;
  /** Detected DNS provider, or null when unknown (the last one known is kept). */
  declare public readonly dnsProvider: pulumi.Output<string | null>;
  /** Issuance rate-limit marker; null when not limited. */
  declare public readonly rateLimitedUntil: pulumi.Output<string | null>;
  /** Which validations have passed. */
  declare public readonly validation: pulumi.Output<CertificateValidationOutput>;
  /** Validation problems; empty when none. */
  declare public readonly validationErrors: pulumi.Output<unknown[]>;
  /**
   * Certificates held for the hostname: custom, and platform ones when ACME is requested; empty
   * right after an ACME request.
   */
  declare public readonly certificates: pulumi.Output<CertificateEntryOutput[]>;
  /** DNS records the platform asks for: A/AAAA, CNAME, ACME challenge and ownership TXT. */
  declare public readonly dnsRequirements: pulumi.Output<DnsRequirementsOutput>;
  /**
   * The ownership TXT record, ready for a DNS provider; a custom certificate becomes active once
   * it is verified.
   */
  declare public readonly ownershipRecord: pulumi.Output<DnsRecordOutput>;
  /** The ACME challenge CNAME record, ready for a DNS provider (relevant when ACME is requested). */
  declare public readonly acmeChallengeRecord: pulumi.Output<DnsRecordOutput>;
  /** `waitForActive` as given. */
  declare public readonly waitForActive: pulumi.Output<boolean | undefined>;
  /** `waitTimeoutSeconds` as given. */
  declare public readonly waitTimeoutSeconds: pulumi.Output<number | undefined>;
  /** `adoptExisting` as given. */
  declare public readonly adoptExisting: pulumi.Output<boolean | undefined>;

  /** Registers `platform:<type>` with the shared outputs unset, then `props` (the inputs). */
  protected constructor(
    provider: pulumi.dynamic.ResourceProvider,
    name: string,
    props: pulumi.Inputs,
    opts: pulumi.CustomResourceOptions | undefined,
    type: string,
  ) {
    super(
      provider,
      name,
      {
        status: undefined,
        configured: undefined,
        acmeRequested: undefined,
        dnsProvider: undefined,
        rateLimitedUntil: undefined,
        validation: undefined,
        validationErrors: undefined,
        certificates: undefined,
        dnsRequirements: undefined,
        ownershipRecord: undefined,
        acmeChallengeRecord: undefined,
        waitForActive: undefined,
        waitTimeoutSeconds: undefined,
        adoptExisting: undefined,
        ...props,
      },
      opts,
      "platform",
      type,
    );
  }
}
