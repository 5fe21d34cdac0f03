/**
 * `CustomCertificate`: the caller's own PEM certificate and key for a custom hostname of an app
 * (spec 4.2). Inputs and outputs are declared in ../declarations/certificates.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf } from "../declaration";
import { customCertificateDeclaration } from "../declarations/certificates";
import { customCertificateProvider } from "../stubs";
import { declaredResource, registration } from "./declared-resource";

/** Inputs of a {@link CustomCertificate}. */
export type CustomCertificateArgs = ArgsOf<typeof customCertificateDeclaration>;

/**
 * Imports a custom certificate for a hostname. It becomes active once the ownership TXT record
 * (`ownershipRecord`) is verified. May coexist with an {@link AcmeCertificate} on the same
 * hostname; deleting the last kind removes the hostname. `privateKey` is always a secret.
 */
export class CustomCertificate extends declaredResource<typeof customCertificateDeclaration>() {
  /** Declares a custom certificate named `name` in the stack; `privateKey` is made secret. */
  constructor(name: string, args: CustomCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    const r = registration(customCertificateDeclaration, args, opts);
    super(customCertificateProvider, name, r.props, r.opts, "platform", "CustomCertificate");
  }
}
