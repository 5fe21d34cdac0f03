/**
 * The shape both doors' `VolumeSnapshot` classes share: a component `platform:index:VolumeSnapshot`
 * around the custom resource that takes the snapshot (the dynamic door's `VolumeSnapshotRequest`,
 * the plugin's `platform:index:VolumeSnapshot`), both named as the snapshot. Every release
 * recorded this shape, so a stack moves between the doors with the component matched as it is and
 * only its child's type changing, which the children's type aliases carry over (docs/plugin.md).
 * A custom resource at the top would take the component's URN: the engine matches a resource by
 * URN before its aliases and replaces a component by a custom resource (a new snapshot).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import type { OutputsOf } from "../../model/declaration";
import { componentTypeToken } from "../../model/kind";
import { KIND_NAMES } from "../names";

/** The component's type token (`platform:index:VolumeSnapshot`, the class a program constructs). */
const COMPONENT_TYPE = componentTypeToken({
  component: KIND_NAMES.volumeSnapshot.component ?? KIND_NAMES.volumeSnapshot.className,
});

import type { volumeSnapshotDeclaration } from "./declaration";

/** The child that takes the snapshot, in either door. */
export type SnapshotRequest = pulumi.CustomResource & OutputsOf<typeof volumeSnapshotDeclaration>;

/** A `VolumeSnapshot` component; `request` makes its child (whose parent must be the component). */
export abstract class SnapshotComponent<R extends SnapshotRequest> extends pulumi.ComponentResource {
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
  /** The custom resource that took the snapshot. */
  public readonly request: R;

  protected constructor(
    name: string,
    opts: pulumi.ComponentResourceOptions | undefined,
    request: (parent: pulumi.ComponentResource) => R,
  ) {
    super(COMPONENT_TYPE, name, {}, opts);
    this.request = request(this);
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
