/**
 * `CustomCertificate`: the caller's own PEM certificate and key for a custom hostname of an app
 * (spec 4.2).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { customCertificateProvider } from "../stubs";
import { CertificateResource } from "./certificate-outputs";

/** Inputs of a {@link CustomCertificate}. */
export interface CustomCertificateArgs {
  /** App serving the hostname. Changing it replaces the certificate. */
  app: pulumi.Input<string>;
  /**
   * Hostname, lowercase; a wildcard is `*.example.com`. It must appear in the certificate's SAN
   * or CN (a `*.example.com` certificate covers `a.example.com`). Changing it replaces the
   * certificate.
   */
  hostname: pulumi.Input<string>;
  /**
   * PEM certificate chain, leaf first. Checked at preview: it must not be expired and must cover
   * the hostname. A new chain is imported again in place (rotation keeps the hostname).
   */
  fullchain: pulumi.Input<string>;
  /**
   * PEM private key of the leaf certificate; always stored as a secret. Checked at preview
   * against the certificate. A new key is imported again in place.
   */
  privateKey: pulumi.Input<string>;
  /**
   * Wait until the hostname is `active` (the ownership TXT record is verified), polling the
   * platform's DNS check. Off by default.
   */
  waitForActive?: pulumi.Input<boolean>;
  /** Seconds to wait with `waitForActive` (default 300); the timeout error says what is pending. */
  waitTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Take a hostname that already holds a custom certificate under management (this chain and
   * key are imported over it) instead of failing.
   */
  adoptExisting?: pulumi.Input<boolean>;
}

/**
 * Imports a custom certificate for a hostname. It becomes active once the ownership TXT record
 * (`ownershipRecord`) is verified. May coexist with an {@link AcmeCertificate} on the same
 * hostname; deleting the last kind removes the hostname.
 */
export class CustomCertificate extends CertificateResource {
  /** The PEM chain as given. */
  declare public readonly fullchain: pulumi.Output<string>;
  /** The PEM private key as given (secret). */
  declare public readonly privateKey: pulumi.Output<string>;
  /** Expiry of the custom certificate. */
  declare public readonly expiresAt: pulumi.Output<string | null>;
  /** Issuer of the custom certificate. */
  declare public readonly issuer: pulumi.Output<string | null>;

  /** Declares a custom certificate named `name` in the stack; `privateKey` is made secret. */
  constructor(name: string, args: CustomCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    const secretOutputs = ["privateKey", ...(opts?.additionalSecretOutputs ?? [])];
    super(
      customCertificateProvider,
      name,
      { expiresAt: undefined, issuer: undefined, ...args, privateKey: pulumi.secret(args.privateKey) },
      { ...opts, additionalSecretOutputs: secretOutputs },
      "CustomCertificate",
    );
  }
}
