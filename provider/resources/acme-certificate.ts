/**
 * `AcmeCertificate`: an automatic certificate from a public ACME authority for a custom hostname
 * of an app (spec 4.2).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { acmeCertificateProvider } from "../stubs";
import type {
  CertificateEntryOutput,
  CertificateValidationOutput,
  DnsRecordOutput,
  DnsRequirementsOutput,
} from "./certificate-outputs";

/** Inputs of an {@link AcmeCertificate}. */
export interface AcmeCertificateArgs {
  /** App serving the hostname. Changing it replaces the certificate. */
  app: pulumi.Input<string>;
  /**
   * Hostname, lowercase; a wildcard is `*.example.com`. Changing it replaces the certificate.
   */
  hostname: pulumi.Input<string>;
  /**
   * Wait until the hostname is `active`, polling the platform's DNS check. Off by default:
   * issuance needs DNS records that a program usually creates from this resource's outputs.
   */
  waitForActive?: pulumi.Input<boolean>;
  /**
   * Seconds to wait with `waitForActive` (default 300). On timeout the error says what is still
   * pending; the certificate stays in the stack and the next `pulumi up` waits again.
   */
  waitTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Take an ACME request that already exists for the hostname under management instead of
   * failing (`pulumi import` does not work for dynamic resources).
   */
  adoptExisting?: pulumi.Input<boolean>;
}

/**
 * Requests an ACME certificate for a hostname and exposes the DNS records to create. It may
 * coexist with a {@link CustomCertificate} on the same hostname: deleting it removes only the
 * ACME request while the custom certificate remains; deleting the last kind removes the hostname.
 */
export class AcmeCertificate extends pulumi.dynamic.Resource {
  /** App serving the hostname. */
  declare public readonly app: pulumi.Output<string>;
  /** Hostname. */
  declare public readonly hostname: pulumi.Output<string>;
  /** Overall status: `pending_validation`, `pending_ownership`, `active`, ... */
  declare public readonly status: pulumi.Output<string>;
  /** Whether the hostname is configured. */
  declare public readonly configured: pulumi.Output<boolean>;
  /** Whether ACME issuance is requested. */
  declare public readonly acmeRequested: pulumi.Output<boolean>;
  /** Detected DNS provider, or null when unknown. */
  declare public readonly dnsProvider: pulumi.Output<string | null>;
  /** Issuance rate-limit marker; null when not limited. */
  declare public readonly rateLimitedUntil: pulumi.Output<string | null>;
  /** Which validations have passed. */
  declare public readonly validation: pulumi.Output<CertificateValidationOutput>;
  /** Validation problems; empty when none. */
  declare public readonly validationErrors: pulumi.Output<unknown[]>;
  /** Certificates held for the hostname; empty right after the request. */
  declare public readonly certificates: pulumi.Output<CertificateEntryOutput[]>;
  /** DNS records to configure: A/AAAA, CNAME, ACME challenge and ownership TXT. */
  declare public readonly dnsRequirements: pulumi.Output<DnsRequirementsOutput>;
  /** The ownership TXT record, ready for a DNS provider. */
  declare public readonly ownershipRecord: pulumi.Output<DnsRecordOutput>;
  /** The ACME challenge CNAME record, ready for a DNS provider. */
  declare public readonly acmeChallengeRecord: pulumi.Output<DnsRecordOutput>;
  /** `waitForActive` as given. */
  declare public readonly waitForActive: pulumi.Output<boolean | undefined>;
  /** `waitTimeoutSeconds` as given. */
  declare public readonly waitTimeoutSeconds: pulumi.Output<number | undefined>;
  /** `adoptExisting` as given. */
  declare public readonly adoptExisting: pulumi.Output<boolean | undefined>;

  /** Declares an ACME certificate named `name` in the stack. */
  constructor(name: string, args: AcmeCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      acmeCertificateProvider,
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
        ...args,
      },
      opts,
      "platform",
      "AcmeCertificate",
    );
  }
}
