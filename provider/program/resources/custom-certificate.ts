/**
 * `CustomCertificate`: the caller's own PEM certificate and key for a custom hostname of an app
 * (spec 4.2). Inputs and outputs are declared in ../declarations/certificates.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { customCertificateDeclaration } from "../../kinds/certificates/declarations";
import { registry } from "../../kinds/registry";
import { warnBeforeExpiry } from "./lifetime-warnings";
import { PlatformResource } from "../../classes/registration";

/** Inputs of a {@link CustomCertificate}. */
export type CustomCertificateArgs = ArgsOf<typeof customCertificateDeclaration>;

/** The outputs of a {@link CustomCertificate}, as its declaration names them. */
export interface CustomCertificate extends OutputsOf<typeof customCertificateDeclaration> {}

/**
 * Imports a custom certificate for a hostname. It becomes active once the ownership TXT record
 * (`ownershipRecord`) is verified. May coexist with an {@link AcmeCertificate} on the same
 * hostname; deleting the last kind removes the hostname. `privateKey` is always a secret.
 * From `expiryWarningDays` (default 30) before the certificate expires, preview and up warn; an
 * expired chain that is already imported never blocks the stack.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class CustomCertificate extends PlatformResource {
  /** Declares a custom certificate named `name` in the stack; `privateKey` is made secret. */
  constructor(name: string, args: CustomCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(registry.customCertificate, name, args, opts);
    warnBeforeExpiry(this, args.expiryWarningDays);
  }
}
