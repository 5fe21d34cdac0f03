/**
 * The plugin door's classes: the same `Args` and outputs as the dynamic classes (both derived from
 * the declarations), registered as `platform:index:<Type>` custom resources.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type {
  acmeCertificateDeclaration,
  customCertificateDeclaration,
} from "../../model/declarations/certificates";
import type { postgresPasswordRotationDeclaration } from "../../model/declarations/postgres-password-rotation";
import type { volumeDeclaration } from "../../model/declarations/volume";
import type { volumeSnapshotDeclaration } from "../../model/declarations/volume-snapshot";
import { registry } from "../../model/registry";
import { PluginResource } from "./plugin-resource";

/** The outputs of a {@link Volume}. */
export interface Volume extends OutputsOf<typeof volumeDeclaration> {}
/** A volume of an app, served by the plugin (see the dynamic door's `Volume` for its behaviour). */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class Volume extends PluginResource {
  /** Declares a volume named `name` in the stack. */
  constructor(name: string, args: ArgsOf<typeof volumeDeclaration>, opts?: pulumi.CustomResourceOptions) {
    super(registry.volume, name, args, opts);
    // The id is the volume id, and stays known while an update is previewed (as in the dynamic door).
    (this as { volumeId: pulumi.Output<string> }).volumeId = this.id;
  }
}

/** The outputs of an {@link AcmeCertificate}. */
export interface AcmeCertificate extends OutputsOf<typeof acmeCertificateDeclaration> {}
/** A platform-issued (ACME) certificate of a hostname, served by the plugin. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class AcmeCertificate extends PluginResource {
  /** Declares the certificate named `name` in the stack. */
  constructor(
    name: string,
    args: ArgsOf<typeof acmeCertificateDeclaration>,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(registry.acmeCertificate, name, args, opts);
  }
}

/** The outputs of a {@link CustomCertificate}. */
export interface CustomCertificate extends OutputsOf<typeof customCertificateDeclaration> {}
/** A certificate the user brings (PEM chain and secret key) for a hostname, served by the plugin. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class CustomCertificate extends PluginResource {
  /** Declares the certificate named `name` in the stack. */
  constructor(
    name: string,
    args: ArgsOf<typeof customCertificateDeclaration>,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(registry.customCertificate, name, args, opts);
  }
}

/** The outputs of a {@link PostgresPasswordRotation}. */
export interface PostgresPasswordRotation extends OutputsOf<typeof postgresPasswordRotationDeclaration> {}
/** A rotation of a Postgres user's password (the password a secret output), served by the plugin. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class PostgresPasswordRotation extends PluginResource {
  /** Declares the rotation named `name` in the stack. */
  constructor(
    name: string,
    args: ArgsOf<typeof postgresPasswordRotationDeclaration>,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(registry.postgresPasswordRotation, name, args, opts);
  }
}

/** The outputs of a {@link VolumeSnapshot}. */
export interface VolumeSnapshot extends OutputsOf<typeof volumeSnapshotDeclaration> {}
/**
 * An on-demand snapshot of a volume, served by the plugin as one custom resource (the dynamic
 * door's is a component around a dynamic resource; the two are not aliased: see docs/plugin.md).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class VolumeSnapshot extends PluginResource {
  /** Declares a snapshot named `name` in the stack. */
  constructor(
    name: string,
    args: ArgsOf<typeof volumeSnapshotDeclaration>,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(registry.volumeSnapshot, name, args, opts);
    // The id is the snapshot id, known while an update is previewed.
    (this as { snapshotId: pulumi.Output<string> }).snapshotId = this.id;
  }
}
