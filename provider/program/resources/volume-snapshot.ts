/**
 * `VolumeSnapshot`: an on-demand snapshot of a volume (spec 4.3, beta endpoint), as a component
 * around the dynamic resource `VolumeSnapshotRequest`.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { volumeSnapshotDeclaration } from "../../model/declarations/volume-snapshot";
import { componentTypeToken, registry } from "../../model/registry";
import { warnIfSnapshotSourceChanged } from "./lifetime-warnings";
import { PlatformResource } from "./registration";

/** Inputs of a {@link VolumeSnapshot}. */
export type VolumeSnapshotArgs = ArgsOf<typeof volumeSnapshotDeclaration>;

/** The outputs of a {@link VolumeSnapshotRequest}, as its declaration names them. */
export interface VolumeSnapshotRequest extends OutputsOf<typeof volumeSnapshotDeclaration> {}

/**
 * The dynamic resource that takes the snapshot. Use {@link VolumeSnapshot}; this class is the
 * component's child.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class VolumeSnapshotRequest extends PlatformResource {
  /** Declares the snapshot request; use {@link VolumeSnapshot} instead. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(registry.volumeSnapshot, name, args, opts);
  }
}

/**
 * Takes an on-demand snapshot of a volume and waits until it is listed. Change `triggers` to take
 * a new one; a snapshot is an event, so a changed `volumeId` alone (the volume deleted and made
 * again, say) takes none and replaces nothing restored from it, and preview and up warn. Deleting it changes nothing at the platform (snapshot retention removes snapshots).
 * Once retention has removed the snapshot, refresh records `listed: false` and keeps it in the
 * stack with its `snapshotId`, so a volume restored from it is never replaced because time passed.
 *
 * @example
 * ```ts
 * const snap = new VolumeSnapshot("nightly", { app: "demo-app", volumeId: data.volumeId });
 * new Volume("restored", { app: "demo-app", name: "restored", region: "ord", snapshotId: snap.snapshotId });
 * ```
 */
export class VolumeSnapshot extends pulumi.ComponentResource {
  /** Id of the backup record; null when a lost answer was resolved from the snapshot list. */
  public readonly backupId: pulumi.Output<string | null>;
  /** Id of the snapshot (`graph_id`), usable as `Volume.snapshotId`. */
  public readonly snapshotId: pulumi.Output<string>;
  /** State of the backup when it was started; null when the platform left it out. */
  public readonly state: pulumi.Output<string | null>;
  /** Size in bytes. */
  public readonly size: pulumi.Output<number | null>;
  /** Digest of the snapshot. */
  public readonly digest: pulumi.Output<string | null>;
  /** Days the snapshot is kept; null until listed, or when the platform does not say. */
  public readonly retentionDays: pulumi.Output<number | null>;
  /** Creation timestamp of the snapshot. */
  public readonly createdAt: pulumi.Output<string | null>;
  /** Whether the platform listed the snapshot at the last look; false once retention removed it. */
  public readonly listed: pulumi.Output<boolean>;
  /** When the snapshot was last seen listed; null while a timed-out wait is pending. */
  public readonly lastSeenAt: pulumi.Output<string | null>;
  /** The dynamic resource that took the snapshot. */
  public readonly request: VolumeSnapshotRequest;

  /** Declares a snapshot named `name` in the stack. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.ComponentResourceOptions) {
    super(componentTypeToken(registry.volumeSnapshot), name, {}, opts);
    this.request = new VolumeSnapshotRequest(name, args, { parent: this });
    warnIfSnapshotSourceChanged(this.request, args.volumeId);
    this.backupId = this.request.backupId;
    // The request's id is the snapshot id, and stays known while an in-place update of the request
    // is previewed (its outputs do not: a dynamic provider has no update preview). A volume
    // restored from `snapshotId` would otherwise preview as a replacement.
    this.snapshotId = this.request.id;
    this.state = this.request.state;
    this.size = this.request.size;
    this.digest = this.request.digest;
    this.retentionDays = this.request.retentionDays;
    this.createdAt = this.request.createdAt;
    this.listed = this.request.listed;
    this.lastSeenAt = this.request.lastSeenAt;
    this.registerOutputs({
      backupId: this.backupId,
      snapshotId: this.snapshotId,
      state: this.state,
      size: this.size,
      digest: this.digest,
      retentionDays: this.retentionDays,
      createdAt: this.createdAt,
      listed: this.listed,
      lastSeenAt: this.lastSeenAt,
    });
  }
}
