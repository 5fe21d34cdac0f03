/**
 * The `AcmeCertificate` and `CustomCertificate` classes both doors extend
 * (../../dynamic/classes, ../../plugin/classes): their `Args` and outputs' types (from
 * ./declarations).
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { Door } from "../../registration/door";
import { KindResource } from "../../registration/kind-resource";
import { KIND_NAMES } from "../names";
import type { acmeCertificateDeclaration, customCertificateDeclaration } from "./declarations";

/** Inputs of an `AcmeCertificate`. */
export type AcmeCertificateArgs = ArgsOf<typeof acmeCertificateDeclaration>;
/** Inputs of a `CustomCertificate`. */
export type CustomCertificateArgs = ArgsOf<typeof customCertificateDeclaration>;

/** The outputs of an ACME certificate, as its declaration names them. */
export interface AcmeCertificateResource extends OutputsOf<typeof acmeCertificateDeclaration> {}
/** A platform-issued (ACME) certificate of a hostname, through either door. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export abstract class AcmeCertificateResource extends KindResource {
  protected constructor(
    door: Door,
    name: string,
    args: AcmeCertificateArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(door, KIND_NAMES.acmeCertificate, name, args, opts);
  }
}

/** The outputs of a custom certificate, as its declaration names them. */
export interface CustomCertificateResource extends OutputsOf<typeof customCertificateDeclaration> {}
/** A certificate the user brings (PEM chain and secret key) for a hostname, through either door. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export abstract class CustomCertificateResource extends KindResource {
  protected constructor(
    door: Door,
    name: string,
    args: CustomCertificateArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(door, KIND_NAMES.customCertificate, name, args, opts);
  }
}
