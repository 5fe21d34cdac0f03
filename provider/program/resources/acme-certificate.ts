/**
 * `AcmeCertificate`: an automatic certificate from a public ACME authority for a custom hostname
 * of an app (spec 4.2). Inputs and outputs are declared in ../declarations/certificates.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { acmeCertificateDeclaration } from "../../kinds/certificates/declarations";
import { registry } from "../../kinds/registry";
import { PlatformResource } from "../../classes/registration";

/** Inputs of an {@link AcmeCertificate}. */
export type AcmeCertificateArgs = ArgsOf<typeof acmeCertificateDeclaration>;

/** The outputs of a {@link AcmeCertificate}, as its declaration names them. */
export interface AcmeCertificate extends OutputsOf<typeof acmeCertificateDeclaration> {}

/**
 * Requests an ACME certificate for a hostname and exposes the DNS records to create. It may
 * coexist with a {@link CustomCertificate} on the same hostname: deleting it removes only the
 * ACME request while the custom certificate remains; deleting the last kind removes the hostname.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class AcmeCertificate extends PlatformResource {
  /** Declares an ACME certificate named `name` in the stack. */
  constructor(name: string, args: AcmeCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(registry.acmeCertificate, name, args, opts);
  }
}
