/**
 * The dynamic door's classes (the package root's `Volume`, `AcmeCertificate`, …): each kind's
 * class (../kinds/<kind>/class) registered through the dynamic door (./door).
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
import { dynamicDoor } from "./door";

/**
 * A volume of an app. Growth of `sizeGb` and changes of `snapshotRetention` or
 * `autoBackupEnabled` are applied in place (one update does both); identity inputs replace it.
 * Refresh reports size, retention or backup changes made elsewhere, and a deleted volume. A volume
 * grown elsewhere beyond `sizeGb` keeps its size: no change is planned, and preview and up warn.
 *
 * @example
 * ```ts
 * const data = new Volume("data", { app: "demo-app", name: "data", region: "ord", sizeGb: 10 });
 * ```
 */
export class Volume extends VolumeResource {
  /** Declares a volume named `name` in the stack. */
  constructor(name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super(dynamicDoor, name, args, opts);
  }
}

/**
 * Requests an ACME certificate for a hostname and exposes the DNS records to create. It may
 * coexist with a {@link CustomCertificate} on the same hostname: deleting it removes only the
 * ACME request while the custom certificate remains; deleting the last kind removes the hostname.
 */
export class AcmeCertificate extends AcmeCertificateResource {
  /** Declares an ACME certificate named `name` in the stack. */
  constructor(name: string, args: AcmeCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(dynamicDoor, name, args, opts);
  }
}

/**
 * Imports a custom certificate for a hostname. It becomes active once the ownership TXT record
 * (`ownershipRecord`) is verified. May coexist with an {@link AcmeCertificate} on the same
 * hostname; deleting the last kind removes the hostname. `privateKey` is always a secret.
 * From `expiryWarningDays` (default 30) before the certificate expires, preview and up warn; an
 * expired chain that is already imported never blocks the stack.
 */
export class CustomCertificate extends CustomCertificateResource {
  /** Declares a custom certificate named `name` in the stack; `privateKey` is made secret. */
  constructor(name: string, args: CustomCertificateArgs, opts?: pulumi.CustomResourceOptions) {
    super(dynamicDoor, name, args, opts);
  }
}

/**
 * One rotation of a Postgres user's password; the new password is the secret output `password`.
 *
 * The platform has no endpoint to read a password back: `pulumi refresh` keeps this resource's
 * state as it is, and deleting the resource changes nothing at the platform (the password stays
 * the last one rotated). Change `triggers` to rotate again.
 */
export class PostgresPasswordRotation extends PostgresPasswordRotationResource {
  /** Declares a password rotation named `name` in the stack. */
  constructor(name: string, args: PostgresPasswordRotationArgs, opts?: pulumi.CustomResourceOptions) {
    super(dynamicDoor, name, args, opts);
  }
}

/**
 * The dynamic resource that takes the snapshot. Use {@link VolumeSnapshot}; this class is the
 * component's child.
 */
export class VolumeSnapshotRequest extends VolumeSnapshotRequestResource {
  /** Declares the snapshot request; use {@link VolumeSnapshot} instead. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(dynamicDoor, name, args, opts);
  }
}

/**
 * Takes an on-demand snapshot of a volume and waits until it is listed. Change `triggers` to take
 * a new one (a volume already restored from this one is kept: a restore is an event); a snapshot
 * is an event too, so a changed `volumeId` alone (the volume deleted and made again, say) takes
 * none, and preview and up warn. Deleting it changes nothing at the platform (snapshot retention
 * removes snapshots). Once retention has removed the snapshot, refresh records `listed: false`
 * and keeps it in the stack with its `snapshotId`.
 *
 * @example
 * ```ts
 * const snap = new VolumeSnapshot("nightly", { app: "demo-app", volumeId: data.volumeId });
 * new Volume("restored", { app: "demo-app", name: "restored", region: "ord", snapshotId: snap.snapshotId });
 * ```
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
export const dynamicClasses: { readonly [K in ResourceKey]: abstract new (...args: never[]) => object } = {
  volume: Volume,
  acmeCertificate: AcmeCertificate,
  customCertificate: CustomCertificate,
  postgresPasswordRotation: PostgresPasswordRotation,
  volumeSnapshot: VolumeSnapshot,
};
