/**
 * `AcmeCertificate`: an automatic certificate from a public ACME authority for a custom hostname
 * of an app (spec 4.2).
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import { acmeCertificateProvider } from "../stubs";
import { CertificateResource } from "./certificate-outputs";

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
export class AcmeCertificate extends CertificateResource {
  /** Declares an ACME certificate named `name` in the stack. */
  constructor(name: string, args: AcmeCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(acmeCertificateProvider, name, { ...args }, opts, "AcmeCertificate");
  }
}
