/**
 * The five kinds' classes as both doors share them: each kind's `Args`, its outputs' types (from
 * its declaration) and what its class does beyond registering. A door's class extends one of
 * these with the door (../program/classes, ../plugin/classes); `VolumeSnapshot` is the component
 * of ./snapshot-component around the door's `VolumeSnapshotRequest`.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type {
  acmeCertificateDeclaration,
  customCertificateDeclaration,
} from "../kinds/certificates/declarations";
import type { postgresPasswordRotationDeclaration } from "../kinds/postgres-password-rotation/declaration";
import { registry } from "../kinds/registry";
import type { volumeDeclaration } from "../kinds/volume/declaration";
import type { volumeSnapshotDeclaration } from "../kinds/volume-snapshot/declaration";
import type { ArgsOf, OutputsOf } from "../model/declaration";
import type { Door } from "./door";
import { KindResource } from "./kind-resource";

export type { VolumeComputeArgs, VolumeComputeOutput } from "../kinds/volume/declaration";

/**
 * Inputs of a `Volume`. Leaving an optional input out means "the platform's value": it is never a
 * change, so removing `sizeGb` from a program does not plan anything.
 */
export type VolumeArgs = ArgsOf<typeof volumeDeclaration>;
/** Inputs of an `AcmeCertificate`. */
export type AcmeCertificateArgs = ArgsOf<typeof acmeCertificateDeclaration>;
/** Inputs of a `CustomCertificate`. */
export type CustomCertificateArgs = ArgsOf<typeof customCertificateDeclaration>;
/** Inputs of a `PostgresPasswordRotation`. */
export type PostgresPasswordRotationArgs = ArgsOf<typeof postgresPasswordRotationDeclaration>;
/** Inputs of a `VolumeSnapshot`. */
export type VolumeSnapshotArgs = ArgsOf<typeof volumeSnapshotDeclaration>;

/** The outputs of a volume, as its declaration names them. */
export interface VolumeResource extends OutputsOf<typeof volumeDeclaration> {}
/** A volume of an app, through either door. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export abstract class VolumeResource extends KindResource {
  protected constructor(door: Door, name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super(door, registry.volume, name, args, opts);
    // The id, which is the volume id: unlike an output, it stays known while an in-place update is
    // previewed (a dynamic provider has no update preview, so the engine then knows only the
    // inputs). A snapshot or fork fed from `volumeId` would otherwise preview as a replacement.
    (this as { volumeId: pulumi.Output<string> }).volumeId = this.id;
  }
}

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
    super(door, registry.acmeCertificate, name, args, opts);
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
    super(door, registry.customCertificate, name, args, opts);
  }
}

/** The outputs of a password rotation, as its declaration names them. */
export interface PostgresPasswordRotationResource
  extends OutputsOf<typeof postgresPasswordRotationDeclaration> {}
/** A rotation of a Postgres user's password (the password a secret output), through either door. */
export abstract class PostgresPasswordRotationResource extends KindResource {
  protected constructor(
    door: Door,
    name: string,
    args: PostgresPasswordRotationArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(door, registry.postgresPasswordRotation, name, args, opts);
  }
}

/** The outputs of a snapshot request, as its declaration names them. */
export interface VolumeSnapshotRequestResource extends OutputsOf<typeof volumeSnapshotDeclaration> {}
/** The custom resource that takes a snapshot, the child of the `VolumeSnapshot` component. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export abstract class VolumeSnapshotRequestResource extends KindResource {
  protected constructor(
    door: Door,
    name: string,
    args: VolumeSnapshotArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(door, registry.volumeSnapshot, name, args, opts);
  }
}
