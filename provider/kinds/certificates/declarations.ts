/**
 * `AcmeCertificate` and `CustomCertificate` declared once (spec 2.5, 4.2): the inputs and outputs
 * both kinds share, and each kind's own.
 * @module
 */
import { declareResource, type InputValues, input, output } from "../../model/declaration";
import { inputFailures } from "../../model/input-check";
import { DEFAULT_EXPIRY_WARNING_DAYS } from "../../model/lifetime";
import { customCertificateRules, hostnameField } from "../../model/validation/certificate";
import type { ValidationFailure } from "../../model/validation/common";
import {
  optionalBoolean,
  optionalInteger,
  optionalWaitSeconds,
  requiredSecretString,
  requiredString,
} from "../../model/validation/fields";
import { t } from "../../model/value-types";

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
  acmeChallenge: AcmeChallengeOutput;
  /** Ownership TXT record `name` (`_platform-ownership.<hostname>`) with the app's or org's value. */
  ownership: OwnershipRequirementOutput;
}

/** The ACME DNS challenge the platform asks for: a CNAME. */
export interface AcmeChallengeOutput {
  /** Name of the CNAME record, `_acme-challenge.<hostname>`. */
  name: string;
  /** Target of the CNAME record. */
  target: string;
}

/** The ownership TXT record the platform asks for. */
export interface OwnershipRequirementOutput {
  /** Name of the TXT record, `_platform-ownership.<hostname>`. */
  name: string;
  /** Value proving the app's ownership. */
  appValue: string;
  /** Value proving the organization's ownership. */
  orgValue: string;
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

// The schema's types of the object outputs (the compiler checks each against its interface).
const validationType = t.object("CertificateValidation", {
  dnsConfigured: t.boolean,
  alpnConfigured: t.boolean,
  httpConfigured: t.boolean,
  ownershipTxtConfigured: t.boolean,
});
const issuedType = t.object("IssuedCertificate", {
  type: t.string,
  expiresAt: t.string,
  certificateAuthority: t.nullable(t.string),
});
const entryType = t.object("CertificateEntry", {
  source: t.string,
  status: t.string,
  createdAt: t.nullable(t.string),
  expiresAt: t.nullable(t.string),
  issuer: t.nullable(t.string),
  issued: t.array(issuedType),
});
const dnsRequirementsType = t.object("DnsRequirements", {
  a: t.array(t.string),
  aaaa: t.array(t.string),
  cname: t.string,
  acmeChallenge: t.object("AcmeChallenge", { name: t.string, target: t.string }),
  ownership: t.object("OwnershipRequirement", { name: t.string, appValue: t.string, orgValue: t.string }),
});
const dnsRecordType = t.object("DnsRecord", { type: t.string, name: t.string, value: t.string });

/** The outputs both kinds declare. */
const certificateOutputs = {
  /** Hostname. */
  hostname: output<string>(t.string),
  /**
   * Overall status: `pending_validation`, `pending_ownership` (a custom certificate waits only
   * for the ownership TXT record), `active`, ...
   */
  status: output<string>(t.string),
  /** Whether the hostname is configured. */
  configured: output<boolean>(t.boolean),
  /** Whether ACME issuance is requested for the hostname. */
  acmeRequested: output<boolean>(t.boolean),
  /** Detected DNS provider, or null when unknown (the last one known is kept). */
  dnsProvider: output<string | null>(t.nullable(t.string)),
  /** Issuance rate-limit marker; null when not limited. */
  rateLimitedUntil: output<string | null>(t.nullable(t.string)),
  /** Which validations have passed. */
  validation: output<CertificateValidationOutput>(validationType),
  /** Validation problems; empty when none. */
  validationErrors: output<unknown[]>(t.array(t.any)),
  /**
   * Certificates held for the hostname: custom, and platform ones when ACME is requested; empty
   * right after an ACME request.
   */
  certificates: output<CertificateEntryOutput[]>(t.array(entryType)),
  /** DNS records the platform asks for: A/AAAA, CNAME, ACME challenge and ownership TXT. */
  dnsRequirements: output<DnsRequirementsOutput>(dnsRequirementsType),
  /**
   * The ownership TXT record, ready for a DNS provider; a custom certificate becomes active once
   * it is verified.
   */
  ownershipRecord: output<DnsRecordOutput>(dnsRecordType),
  /** The ACME challenge CNAME record, ready for a DNS provider (relevant when ACME is requested). */
  acmeChallengeRecord: output<DnsRecordOutput>(dnsRecordType),
};

/**
 * Requests a platform-issued (ACME) certificate for a hostname and exposes the DNS records to
 * create. It may coexist with a `CustomCertificate` on the same hostname: deleting it removes only
 * the ACME request while the custom certificate remains; deleting the last kind removes the
 * hostname.
 */
export const acmeCertificateDeclaration = declareResource({
  type: "AcmeCertificate",
  inputs: {
    /** App serving the hostname. */
    app: input(requiredString("app", "the name of the app serving the hostname"), {
      change: "replace",
      output: "stored",
    }),
    /** Hostname, lowercase; a wildcard is `*.example.com`. */
    hostname: input(hostnameField, { change: "replace", output: "live" }),
    /**
     * Wait until the hostname is `active`, polling the platform's DNS check. Off by default:
     * issuance needs DNS records that a program usually creates from this resource's outputs.
     */
    waitForActive: input(optionalBoolean("waitForActive"), { change: "update", output: "stored" }),
    /**
     * Seconds to wait with `waitForActive` (default 300). On timeout the error says what is still
     * pending; the certificate stays in the stack and the next `pulumi up` waits again.
     */
    waitTimeoutSeconds: input(optionalWaitSeconds("waitTimeoutSeconds"), {
      change: "record",
      output: "stored",
    }),
    /**
     * Take an ACME request that already exists for the hostname under management instead of
     * failing (`pulumi import` does not work for dynamic resources).
     */
    adoptExisting: input(optionalBoolean("adoptExisting"), { change: "record", output: "stored" }),
  },
  outputs: certificateOutputs,
});

/** AcmeCertificate inputs as the runtime receives them. */
export type AcmeCertificateInputs = InputValues<typeof acmeCertificateDeclaration>;

/**
 * Imports a certificate you bring (PEM chain and private key) for a hostname. It becomes active
 * once the ownership TXT record (`ownershipRecord`) is verified. May coexist with an
 * `AcmeCertificate` on the same hostname; deleting the last kind removes the hostname. `privateKey`
 * is always a secret. From `expiryWarningDays` (default 30) before the certificate expires, preview
 * and up warn; an expired chain that is already imported never blocks the stack.
 */
export const customCertificateDeclaration = declareResource({
  type: "CustomCertificate",
  inputs: {
    /** App serving the hostname. */
    app: acmeCertificateDeclaration.inputs.app,
    /**
     * Hostname, lowercase; a wildcard is `*.example.com`. It must appear in the certificate's SAN
     * or CN (a `*.example.com` certificate covers `a.example.com`).
     */
    hostname: acmeCertificateDeclaration.inputs.hostname,
    /**
     * PEM certificate chain, leaf first. Checked at preview: it must cover the hostname and, when it
     * is imported (a new resource, or a changed chain or key), not be expired. A chain already
     * imported is never refused for expiring; preview and up warn instead (`expiryWarningDays`).
     * A new chain is imported again (rotation keeps the hostname).
     */
    fullchain: input(requiredString("fullchain", "the PEM certificate chain, leaf certificate first"), {
      change: "update",
      output: "stored",
      unprinted: true,
    }),
    /**
     * PEM private key of the leaf certificate; always stored as a secret. Checked at preview
     * against the certificate. A new key is imported again.
     */
    privateKey: input(requiredSecretString("privateKey", "the PEM private key of the leaf certificate"), {
      change: "update",
      output: "stored",
      secret: true,
    }),
    /**
     * Wait until the hostname is `active` (the ownership TXT record is verified), polling the
     * platform's DNS check. Off by default.
     */
    waitForActive: acmeCertificateDeclaration.inputs.waitForActive,
    /** Seconds to wait with `waitForActive` (default 300); the timeout error says what is pending. */
    waitTimeoutSeconds: acmeCertificateDeclaration.inputs.waitTimeoutSeconds,
    /**
     * Take a hostname that already holds a custom certificate under management (this chain and
     * key are imported over it) instead of failing.
     */
    adoptExisting: acmeCertificateDeclaration.inputs.adoptExisting,
    /**
     * Days before the certificate expires from which `pulumi preview` and `pulumi up` warn, naming
     * the hostname and the expiry date (default 30; 0 warns only once it has expired).
     */
    expiryWarningDays: input(
      optionalInteger("expiryWarningDays", 0, 365, `days (default ${DEFAULT_EXPIRY_WARNING_DAYS})`),
      { change: "record", output: "stored" },
    ),
  },
  outputs: {
    ...certificateOutputs,
    /** Expiry of the custom certificate. */
    expiresAt: output<string | null>(t.nullable(t.string)),
    /**
     * Whole days left until `expiresAt` (negative once expired), as of the last `up` or
     * `pulumi refresh`; null when the expiry is unknown.
     */
    expiresInDays: output<number | null>(t.nullable(t.integer)),
    /** Issuer of the custom certificate. */
    issuer: output<string | null>(t.nullable(t.string)),
  },
  rules: customCertificateRules,
});

/** CustomCertificate inputs as the runtime receives them. */
export type CustomCertificateInputs = InputValues<typeof customCertificateDeclaration>;

/** Validates AcmeCertificate inputs. */
export function validateAcmeCertificateArgs(news: Record<string, unknown>): ValidationFailure[] {
  return inputFailures(acmeCertificateDeclaration, news);
}

/**
 * Validates CustomCertificate inputs, parsing the PEM at `now`. No failure names `privateKey` as
 * its property: the engine would print the key (the reason names it instead).
 */
export function validateCustomCertificateArgs(
  news: Record<string, unknown>,
  now: Date = new Date(),
): ValidationFailure[] {
  return inputFailures(customCertificateDeclaration, news, {}, now);
}
