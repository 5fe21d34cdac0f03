/**
 * The plugin door's classes: the same `Args` and outputs as the dynamic classes (both derived from
 * the declarations), registered as `platform:index:<Type>` custom resources; `VolumeSnapshot`, as
 * in the dynamic door, is a component around its custom resource.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type {
  acmeCertificateDeclaration,
  customCertificateDeclaration,
} from "../../kinds/certificates/declarations";
import type { postgresPasswordRotationDeclaration } from "../../kinds/postgres-password-rotation/declaration";
import type { volumeDeclaration } from "../../kinds/volume/declaration";
import type { volumeSnapshotDeclaration } from "../../kinds/volume-snapshot/declaration";
import { registry } from "../../kinds/registry";
import { SnapshotComponent } from "../../classes/snapshot-component";
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

/** The outputs of a {@link VolumeSnapshotRequest}. */
export interface VolumeSnapshotRequest extends OutputsOf<typeof volumeSnapshotDeclaration> {}
/**
 * The plugin's custom resource `platform:index:VolumeSnapshot` that takes the snapshot. Use
 * {@link VolumeSnapshot}; this class is the component's child, aliased to the dynamic door's child.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class VolumeSnapshotRequest extends PluginResource {
  /** Declares the snapshot request; use {@link VolumeSnapshot} instead. */
  constructor(
    name: string,
    args: ArgsOf<typeof volumeSnapshotDeclaration>,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(registry.volumeSnapshot, name, args, opts);
  }
}

/**
 * An on-demand snapshot of a volume, served by the plugin: the dynamic door's shape (a component
 * `platform:index:VolumeSnapshot` around the resource that takes the snapshot, here the plugin's
 * custom resource of that type), so a stack moves between the doors with nothing replaced. A
 * program in another language declares the custom resource alone (the schema's).
 */
export class VolumeSnapshot extends SnapshotComponent<VolumeSnapshotRequest> {
  /** Declares a snapshot named `name` in the stack. */
  constructor(
    name: string,
    args: ArgsOf<typeof volumeSnapshotDeclaration>,
    opts?: pulumi.ComponentResourceOptions,
  ) {
    super(name, opts, (parent) => new VolumeSnapshotRequest(name, args, { parent }));
  }
}
