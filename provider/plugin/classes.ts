/**
 * The plugin door's classes: each kind's class (../kinds/<kind>/class, the same `Args` and
 * outputs as the dynamic classes) registered through the plugin door (./door) as
 * `platform:index:<Type>`; `VolumeSnapshot`, as in the dynamic door, is a component around its
 * custom resource.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  type AcmeCertificateArgs,
  AcmeCertificateResource,
  type CustomCertificateArgs,
  CustomCertificateResource,
} from "../kinds/certificates/classes";
import {
  type PostgresPasswordRotationArgs,
  PostgresPasswordRotationResource,
} from "../kinds/postgres-password-rotation/class";
import type { ResourceKey } from "../kinds/registry";
import { type VolumeArgs, VolumeResource } from "../kinds/volume/class";
import { type VolumeSnapshotArgs, VolumeSnapshotRequestResource } from "../kinds/volume-snapshot/class";
import { SnapshotComponent } from "../kinds/volume-snapshot/component";
import { pluginDoor } from "./door";

/** A volume of an app, served by the plugin (see the dynamic door's `Volume` for its behaviour). */
export class Volume extends VolumeResource {
  /** Declares a volume named `name` in the stack. */
  constructor(name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super(pluginDoor, name, args, opts);
  }
}

/** A platform-issued (ACME) certificate of a hostname, served by the plugin. */
export class AcmeCertificate extends AcmeCertificateResource {
  /** Declares the certificate named `name` in the stack. */
  constructor(name: string, args: AcmeCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(pluginDoor, name, args, opts);
  }
}

/** A certificate the user brings (PEM chain and secret key) for a hostname, served by the plugin. */
export class CustomCertificate extends CustomCertificateResource {
  /** Declares the certificate named `name` in the stack. */
  constructor(name: string, args: CustomCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(pluginDoor, name, args, opts);
  }
}

/** A rotation of a Postgres user's password (the password a secret output), served by the plugin. */
export class PostgresPasswordRotation extends PostgresPasswordRotationResource {
  /** Declares the rotation named `name` in the stack. */
  constructor(name: string, args: PostgresPasswordRotationArgs, opts?: pulumi.CustomResourceOptions) {
    super(pluginDoor, name, args, opts);
  }
}

/**
 * The plugin's custom resource `platform:index:VolumeSnapshot` that takes the snapshot. Use
 * {@link VolumeSnapshot}; this class is the component's child, aliased to the dynamic door's child.
 */
export class VolumeSnapshotRequest extends VolumeSnapshotRequestResource {
  /** Declares the snapshot request; use {@link VolumeSnapshot} instead. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(pluginDoor, name, args, opts);
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
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.ComponentResourceOptions) {
    super(name, opts, (parent) => new VolumeSnapshotRequest(name, args, { parent }));
  }
}

/**
 * This door's class of each kind, by runtime key: a kind without one does not compile (the
 * snapshot's is the component a program constructs).
 */
export const pluginClasses: { readonly [K in ResourceKey]: abstract new (...args: never[]) => object } = {
  volume: Volume,
  acmeCertificate: AcmeCertificate,
  customCertificate: CustomCertificate,
  postgresPasswordRotation: PostgresPasswordRotation,
  volumeSnapshot: VolumeSnapshot,
};
