/**
 * `Volume`: a persistent storage volume of an app (spec 2.2, 4.3).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { volumeProvider } from "../stubs";

/** Placement hint of a new volume (spec 4.3 `compute`). Changing it replaces the volume. */
export interface VolumeComputeArgs {
  /** CPU kind of the machine the volume is meant for: `shared` or `performance`. */
  cpuKind?: pulumi.Input<"shared" | "performance">;
  /** Number of CPUs. */
  cpus?: pulumi.Input<number>;
  /** GPU model. */
  gpuKind?: pulumi.Input<string>;
  /** Number of GPUs. */
  gpus?: pulumi.Input<number>;
  /** Host dedication to place the volume on. */
  hostDedicationId?: pulumi.Input<string>;
  /** Kernel arguments of the machine. */
  kernelArgs?: pulumi.Input<pulumi.Input<string>[]>;
  /** Memory of the machine in MB. */
  memoryMb?: pulumi.Input<number>;
}

/** Placement hint as stored in outputs. */
export interface VolumeComputeOutput {
  /** CPU kind. */
  cpuKind?: "shared" | "performance";
  /** Number of CPUs. */
  cpus?: number;
  /** GPU model. */
  gpuKind?: string;
  /** Number of GPUs. */
  gpus?: number;
  /** Host dedication id. */
  hostDedicationId?: string;
  /** Kernel arguments. */
  kernelArgs?: string[];
  /** Memory in MB. */
  memoryMb?: number;
}

/**
 * Inputs of a {@link Volume}. Leaving an optional input out means "the platform's value": it is
 * never a change, so removing `sizeGb` from a program does not plan anything.
 */
export interface VolumeArgs {
  /** App that owns the volume. Changing it replaces the volume. */
  app: pulumi.Input<string>;
  /** Volume name. Changing it replaces the volume. */
  name: pulumi.Input<string>;
  /**
   * Region of the volume; defaults to the attached machine's region, else the app's primary
   * region. Required with `snapshotId` (it must equal the region of the machine the volume will
   * attach to). Changing it replaces the volume.
   */
  region?: pulumi.Input<string>;
  /**
   * Size in GB (platform default 3). Growing it extends the volume in place; shrinking is
   * rejected at preview ("volumes can only grow: 10 GB → 5 GB").
   */
  sizeGb?: pulumi.Input<number>;
  /** Whether the volume is encrypted (platform default true). Changing it replaces the volume. */
  encrypted?: pulumi.Input<boolean>;
  /** File system type (platform default `ext4`). Changing it replaces the volume. */
  fstype?: pulumi.Input<string>;
  /** Automatic daily snapshots (platform default true). Changes in place. */
  autoBackupEnabled?: pulumi.Input<boolean>;
  /** Days snapshots are kept, 1 to 60 (platform default 5). Changes in place. */
  snapshotRetention?: pulumi.Input<number>;
  /**
   * Snapshot to restore the new volume from; the create waits until the volume leaves
   * `restoring` (see `restoreTimeoutSeconds`). Changing it replaces the volume (a new restore).
   */
  snapshotId?: pulumi.Input<string>;
  /** Volume to fork. Changing it replaces the volume. */
  sourceVolumeId?: pulumi.Input<string>;
  /** True restricts attachment to machines, not allocations. Changing it replaces the volume. */
  machinesOnly?: pulumi.Input<boolean>;
  /**
   * Place the volume on hardware holding no other volume of the same name (platform default
   * true); creation may fail when unique zones run out. Changing it replaces the volume.
   */
  requireUniqueZone?: pulumi.Input<boolean>;
  /** Sizing hint for placement. Changing it replaces the volume. */
  compute?: pulumi.Input<VolumeComputeArgs>;
  /**
   * Id of an existing volume to take under management instead of creating one (`pulumi import`
   * does not work for dynamic resources). Its name, region, encryption and file system must match
   * the inputs; retention, backups and a larger `sizeGb` are then applied to it. Once adopted,
   * `pulumi destroy` deletes it (use the `retainOnDelete` option to keep it).
   */
  adoptVolumeId?: pulumi.Input<string>;
  /**
   * Seconds to wait for a volume restored from `snapshotId` to become `created` (default 600).
   * On timeout the volume stays in the stack and the next `pulumi up` waits again.
   */
  restoreTimeoutSeconds?: pulumi.Input<number>;
}

/**
 * A volume of an app. Growth of `sizeGb` and changes of `snapshotRetention` or
 * `autoBackupEnabled` are applied in place (one update does both); identity inputs replace it.
 * Refresh reports size, retention or backup changes made elsewhere, and a deleted volume.
 *
 * @example
 * ```ts
 * const data = new Volume("data", { app: "demo-app", name: "data", region: "ord", sizeGb: 10 });
 * ```
 */
export class Volume extends pulumi.dynamic.Resource {
  /** Volume id (also the resource id). */
  declare public readonly volumeId: pulumi.Output<string>;
  /** App that owns the volume. */
  declare public readonly app: pulumi.Output<string>;
  /** Volume name. */
  declare public readonly name: pulumi.Output<string>;
  /** Volume state: `created`, `restoring` or `destroyed`. */
  declare public readonly state: pulumi.Output<string>;
  /** Size in GB as the platform reports it. */
  declare public readonly sizeGb: pulumi.Output<number>;
  /** Region of the volume. */
  declare public readonly region: pulumi.Output<string>;
  /** Hardware zone of the volume. */
  declare public readonly zone: pulumi.Output<string>;
  /** Whether the volume is encrypted. */
  declare public readonly encrypted: pulumi.Output<boolean>;
  /** Machine the volume is attached to, or null. */
  declare public readonly attachedMachineId: pulumi.Output<string | null>;
  /** Allocation the volume is attached to, or null. */
  declare public readonly attachedAllocId: pulumi.Output<string | null>;
  /** Creation timestamp. */
  declare public readonly createdAt: pulumi.Output<string>;
  /** Total number of blocks (0 right after a create, restore or extend). */
  declare public readonly blocks: pulumi.Output<number>;
  /** Block size in bytes. */
  declare public readonly blockSize: pulumi.Output<number>;
  /** Blocks free for data and root-user operations. */
  declare public readonly blocksFree: pulumi.Output<number>;
  /** Blocks available for data. */
  declare public readonly blocksAvail: pulumi.Output<number>;
  /** File system type. */
  declare public readonly fstype: pulumi.Output<string>;
  /** Days snapshots are kept. */
  declare public readonly snapshotRetention: pulumi.Output<number>;
  /** Whether automatic daily snapshots are on. */
  declare public readonly autoBackupEnabled: pulumi.Output<boolean>;
  /** Host dedication key (empty string when none). */
  declare public readonly hostDedicationKey: pulumi.Output<string>;
  /** From the last extend: whether the attached machine must restart to use the added space. */
  declare public readonly needsRestart: pulumi.Output<boolean>;
  /** Snapshot the volume was restored from, when given. */
  declare public readonly snapshotId: pulumi.Output<string | undefined>;
  /** Volume this one was forked from, when given. */
  declare public readonly sourceVolumeId: pulumi.Output<string | undefined>;
  /** `machinesOnly` as given. */
  declare public readonly machinesOnly: pulumi.Output<boolean | undefined>;
  /** `requireUniqueZone` as given. */
  declare public readonly requireUniqueZone: pulumi.Output<boolean | undefined>;
  /** Placement hint as given. */
  declare public readonly compute: pulumi.Output<VolumeComputeOutput | undefined>;
  /** The adopted volume id, when the volume was adopted. */
  declare public readonly adoptVolumeId: pulumi.Output<string | undefined>;
  /** `restoreTimeoutSeconds` as given. */
  declare public readonly restoreTimeoutSeconds: pulumi.Output<number | undefined>;

  /** Declares a volume named `name` in the stack. */
  constructor(name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      volumeProvider,
      name,
      {
        volumeId: undefined,
        state: undefined,
        zone: undefined,
        attachedMachineId: undefined,
        attachedAllocId: undefined,
        createdAt: undefined,
        blocks: undefined,
        blockSize: undefined,
        blocksFree: undefined,
        blocksAvail: undefined,
        hostDedicationKey: undefined,
        needsRestart: undefined,
        region: undefined,
        sizeGb: undefined,
        encrypted: undefined,
        fstype: undefined,
        autoBackupEnabled: undefined,
        snapshotRetention: undefined,
        snapshotId: undefined,
        sourceVolumeId: undefined,
        machinesOnly: undefined,
        requireUniqueZone: undefined,
        compute: undefined,
        adoptVolumeId: undefined,
        restoreTimeoutSeconds: undefined,
        ...args,
      },
      opts,
      "platform",
      "Volume",
    );
  }
}
