/**
 * `VolumeSnapshot`: an on-demand snapshot of a volume (spec 4.3, beta endpoint), as a component
 * around the dynamic resource `VolumeSnapshotRequest`.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { volumeSnapshotProvider } from "../stubs";

/** Inputs of a {@link VolumeSnapshot}. */
export interface VolumeSnapshotArgs {
  /** App that owns the volume. Changing it takes a new snapshot. */
  app: pulumi.Input<string>;
  /** Volume to snapshot, e.g. `volume.volumeId`. Changing it takes a new snapshot. */
  volumeId: pulumi.Input<string>;
  /** Arbitrary values; any change takes a new snapshot (the old one is left to retention). */
  triggers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Seconds to wait until the snapshot appears in the volume's snapshot list (default 300). On
   * timeout the snapshot stays in the stack and the next `pulumi up` waits again.
   */
  waitTimeoutSeconds?: pulumi.Input<number>;
}

/**
 * The dynamic resource that takes the snapshot. Use {@link VolumeSnapshot}; this class is the
 * component's child.
 */
export class VolumeSnapshotRequest extends pulumi.dynamic.Resource {
  /** Id of the backup record the snapshot was taken as. */
  declare public readonly backupId: pulumi.Output<string>;
  /** Id of the snapshot (the backup's `graph_id`); feed it to `Volume.snapshotId` to restore. */
  declare public readonly snapshotId: pulumi.Output<string>;
  /** State of the backup when it was started (e.g. `prepare`); null when the platform left it out. */
  declare public readonly state: pulumi.Output<string | null>;
  /** Backup type, `BACKUP_TYPE_ON_DEMAND`; null when the platform left it out. */
  declare public readonly backupType: pulumi.Output<string | null>;
  /** Whether the snapshot was listed (false only while a timed-out wait is pending). */
  declare public readonly listed: pulumi.Output<boolean>;
  /** Size in bytes, from the snapshot list. */
  declare public readonly size: pulumi.Output<number | null>;
  /** Digest, from the snapshot list. */
  declare public readonly digest: pulumi.Output<string | null>;
  /** Creation timestamp of the snapshot. */
  declare public readonly createdAt: pulumi.Output<string | null>;
  /** Days the snapshot is kept; null until listed, or when the platform does not say. */
  declare public readonly retentionDays: pulumi.Output<number | null>;
  /** App that owns the volume. */
  declare public readonly app: pulumi.Output<string>;
  /** Snapshotted volume. */
  declare public readonly volumeId: pulumi.Output<string>;
  /** `triggers` as given. */
  declare public readonly triggers: pulumi.Output<Record<string, string> | undefined>;
  /** `waitTimeoutSeconds` as given. */
  declare public readonly waitTimeoutSeconds: pulumi.Output<number | undefined>;

  /** Declares the snapshot request; use {@link VolumeSnapshot} instead. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      volumeSnapshotProvider,
      name,
      {
        backupId: undefined,
        snapshotId: undefined,
        state: undefined,
        backupType: undefined,
        backupCreatedAt: undefined,
        listed: undefined,
        size: undefined,
        digest: undefined,
        createdAt: undefined,
        retentionDays: undefined,
        triggers: undefined,
        waitTimeoutSeconds: undefined,
        ...args,
      },
      opts,
      "platform",
      "VolumeSnapshotRequest",
    );
  }
}

/**
 * Takes an on-demand snapshot of a volume and waits until it is listed. Change `triggers` to take
 * a new one. Deleting it changes nothing at the platform (snapshot retention removes snapshots);
 * refresh shows it gone once the platform no longer lists it.
 *
 * @example
 * ```ts
 * const snap = new VolumeSnapshot("nightly", { app: "demo-app", volumeId: data.volumeId });
 * new Volume("restored", { app: "demo-app", name: "restored", region: "ord", snapshotId: snap.snapshotId });
 * ```
 */
export class VolumeSnapshot extends pulumi.ComponentResource {
  /** Id of the backup record. */
  public readonly backupId: pulumi.Output<string>;
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
  /** The dynamic resource that took the snapshot. */
  public readonly request: VolumeSnapshotRequest;

  /** Declares a snapshot named `name` in the stack. */
  constructor(name: string, args: VolumeSnapshotArgs, opts?: pulumi.ComponentResourceOptions) {
    super("platform:index:VolumeSnapshot", name, {}, opts);
    this.request = new VolumeSnapshotRequest(name, args, { parent: this });
    this.backupId = this.request.backupId;
    this.snapshotId = this.request.snapshotId;
    this.state = this.request.state;
    this.size = this.request.size;
    this.digest = this.request.digest;
    this.retentionDays = this.request.retentionDays;
    this.createdAt = this.request.createdAt;
    this.registerOutputs({
      backupId: this.backupId,
      snapshotId: this.snapshotId,
      state: this.state,
      size: this.size,
      digest: this.digest,
      retentionDays: this.retentionDays,
      createdAt: this.createdAt,
    });
  }
}
