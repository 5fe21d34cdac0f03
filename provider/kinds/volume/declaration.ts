/**
 * `Volume` declared once (spec 2.2, 4.3, 8): its inputs, what a change of each does, and its
 * outputs. The class, `check`, `diff` and the create body are derived from this.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Compute, CreateVolumeRequest, UpdateVolumeRequest } from "../../../sdk/schemas/volume";
import { SNAPSHOT_RETENTION_MAX, SNAPSHOT_RETENTION_MIN } from "../../../sdk/schemas/volume-constants";
import { inputChanged } from "../../model/change-plan";
import {
  type ChangeContext,
  createBody,
  declareResource,
  type InputValues,
  input,
  output,
  type PropertyEffect,
  programType,
  requestType,
} from "../../model/declaration";
import { inputFailures } from "../../model/input-check";
import { isSet, isUnknown, type ValidationFailure } from "../../model/validation/common";
import {
  optionalBoolean,
  optionalInteger,
  optionalString,
  optionalWaitSeconds,
  requiredString,
} from "../../model/validation/fields";
import { optionalRegion } from "../../model/validation/region";
import { t } from "../../model/value-types";

/** Default of `restoreTimeoutSeconds`. */
export const DEFAULT_RESTORE_TIMEOUT_SECONDS = 600;
/** Largest size accepted at preview; the platform's own maximum is not documented. */
const MAX_SIZE_GB = 500_000;

/** Placement hint of a new volume (spec 4.3 `compute`). */
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

const ComputeInputSchema = z.object(
  {
    cpuKind: z
      .enum(["shared", "performance"], {
        error: (iss) =>
          `compute.cpuKind must be "shared" or "performance" (got ${JSON.stringify(iss.input)})`,
      })
      .optional(),
    cpus: optionalInteger("compute.cpus", 1, 1024, ""),
    gpuKind: optionalString("compute.gpuKind", "the GPU model"),
    gpus: optionalInteger("compute.gpus", 0, 64, ""),
    hostDedicationId: optionalString("compute.hostDedicationId", "the host dedication to place on"),
    kernelArgs: z
      .array(z.string({ error: "compute.kernelArgs entries must be strings" }), {
        error: "compute.kernelArgs must be a list of strings",
      })
      .optional(),
    memoryMb: optionalInteger("compute.memoryMb", 1, 16_777_216, "MB"),
  },
  {
    error: "compute must be an object (cpuKind, cpus, gpuKind, gpus, hostDedicationId, kernelArgs, memoryMb)",
  },
);

/** Placement hint as stored in outputs. */
export type VolumeComputeOutput = z.output<typeof ComputeInputSchema>;

// The documented interface and the rule name the same members.
const computeMembersMatch: [keyof VolumeComputeArgs] extends [keyof VolumeComputeOutput]
  ? [keyof VolumeComputeOutput] extends [keyof VolumeComputeArgs]
    ? true
    : false
  : false = true;
void computeMembersMatch;

function computeToWire(c: VolumeComputeOutput): Compute {
  return {
    cpu_kind: c.cpuKind,
    cpus: c.cpus,
    gpu_kind: c.gpuKind,
    gpus: c.gpus,
    host_dedication_id: c.hostDedicationId,
    kernel_args: c.kernelArgs,
    memory_mb: c.memoryMb,
  };
}

/** The message of a rejected shrink. */
export function shrinkMessage(fromGb: number, toGb: number): string {
  return `volumes can only grow: ${fromGb} GB → ${toGb} GB`;
}

/**
 * A volume of an app. Growth of `sizeGb` and changes of `snapshotRetention` or `autoBackupEnabled`
 * are applied in place (one update does both); the inputs that identify it replace it. Leaving an
 * optional input out means "the platform's value": it is never a change, so removing `sizeGb` from
 * a program does not plan anything. `pulumi refresh` reports size, retention or backup changes made
 * elsewhere, and a deleted volume. A volume grown elsewhere beyond `sizeGb` keeps its size: no
 * change is planned, and preview and up warn.
 */
export const volumeDeclaration = declareResource({
  type: "Volume",
  createRequest: requestType<CreateVolumeRequest>(),
  updateRequest: requestType<UpdateVolumeRequest>(),
  inputs: {
    /** App that owns the volume. */
    app: input(requiredString("app", "the name of the app that owns the volume"), {
      change: "replace",
      output: "stored",
    }),
    /** Volume name. */
    name: input(requiredString("name", "the volume name"), {
      change: "replace",
      output: "live",
      wire: "name",
    }),
    /**
     * Region of the volume, a region code of three lowercase letters (`iad`, `lhr`); defaults to
     * the attached machine's region, else the app's primary region. Required with `snapshotId` (it
     * must equal the region of the machine the volume will attach to). A code of another shape is
     * refused at preview; a well-shaped code this release does not know is warned about (naming
     * the nearest known one) and left to the platform.
     */
    region: input(optionalRegion("region"), {
      change: "replace",
      output: "live",
      wire: "region",
    }),
    /**
     * Size in GB (platform default 3), the least the volume must have. Raising it above the
     * platform's size extends the volume in place; lowering it below what the program had before
     * is rejected at preview ("volumes can only grow: 10 GB → 5 GB"). A volume grown outside the
     * stack to more than this keeps its size: no change is planned, and a warning says so.
     */
    sizeGb: input(optionalInteger("sizeGb", 1, MAX_SIZE_GB, "GB"), {
      change: "special",
      decide: sizeChange,
      output: "live",
      wire: "size_gb",
    }),
    /** Whether the volume is encrypted (platform default true). */
    encrypted: input(optionalBoolean("encrypted"), { change: "replace", output: "live", wire: "encrypted" }),
    /** File system type (platform default `ext4`). */
    fstype: input(optionalString("fstype", "the file system type, e.g. ext4"), {
      change: "replace",
      output: "live",
      wire: "fstype",
    }),
    /** Automatic daily snapshots (platform default true). */
    autoBackupEnabled: input(optionalBoolean("autoBackupEnabled"), {
      change: "update",
      output: "live",
      wire: "auto_backup_enabled",
    }),
    /** Days snapshots are kept, 1 to 60 (platform default 5). */
    snapshotRetention: input(
      optionalInteger("snapshotRetention", SNAPSHOT_RETENTION_MIN, SNAPSHOT_RETENTION_MAX, "days"),
      { change: "update", output: "live", wire: "snapshot_retention" },
    ),
    /**
     * Snapshot to restore the new volume from; the create waits until the volume leaves
     * `restoring` (see `restoreTimeoutSeconds`). A restore is an event, like a fork: once restored,
     * a changed or unknown `snapshotId` (the snapshot taken again, its resource recreated)
     * changes nothing; the stack keeps the snapshot it was restored from, and the preview and the
     * up of that change warn (once). To restore it again whenever the snapshot is taken again, give
     * it the resource option `replaceWith` naming the `VolumeSnapshot` (every language; the
     * TypeScript classes also take `replaceOnChanges: ["snapshotId"]`). Set on a volume that was
     * not restored, it replaces it (a restore). To restore again once, replace the volume
     * (`pulumi up --replace <urn>`).
     */
    snapshotId: input(optionalString("snapshotId", "the snapshot to restore"), {
      change: "special",
      decide: (context) => sourceChange("snapshotId", context),
      output: "stored",
      wire: "snapshot_id",
    }),
    /**
     * Volume to fork. A fork is an event, like a snapshot: once forked, a changed `sourceVolumeId`
     * (the source was deleted and made again, say) changes nothing; the stack keeps the volume it
     * was forked from, and the preview and the up of that change warn (once). To fork it again
     * whenever the source is made anew, give it the resource option `replaceWith` naming the source
     * `Volume` (every language; the TypeScript classes also take
     * `replaceOnChanges: ["sourceVolumeId"]`). To fork again once, replace the volume
     * (`pulumi up --replace <urn>`).
     */
    sourceVolumeId: input(optionalString("sourceVolumeId", "the volume to fork"), {
      change: "special",
      decide: (context) => sourceChange("sourceVolumeId", context),
      output: "stored",
      wire: "source_volume_id",
    }),
    /** True restricts attachment to machines, not allocations. */
    machinesOnly: input(optionalBoolean("machinesOnly"), {
      change: "replace",
      output: "stored",
      wire: "machines_only",
    }),
    /**
     * Place the volume on hardware holding no other volume of the same name (platform default
     * true); creation may fail when unique zones run out.
     */
    requireUniqueZone: input(optionalBoolean("requireUniqueZone"), {
      change: "replace",
      output: "stored",
      wire: "require_unique_zone",
    }),
    /** Sizing hint for placement. */
    compute: input(ComputeInputSchema.optional(), {
      change: "replace",
      output: "stored",
      wire: "compute",
      toWire: computeToWire,
      program: programType<pulumi.Input<VolumeComputeArgs>>(),
    }),
    /**
     * Id of an existing volume to take under management instead of creating one (`pulumi import`
     * does not work for dynamic resources). Its name, region, encryption and file system must match
     * the inputs; retention, backups and a larger `sizeGb` are then applied to it. Once adopted,
     * `pulumi destroy` deletes it (use the `retainOnDelete` option to keep it).
     */
    adoptVolumeId: input(optionalString("adoptVolumeId", "an existing volume to take under management"), {
      change: "special",
      decide: adoptionChange,
      output: "stored",
    }),
    /**
     * Seconds to wait for a volume restored from `snapshotId` to become `created` (default 600).
     * On timeout the volume stays in the stack and the next `pulumi up` waits again.
     */
    restoreTimeoutSeconds: input(optionalWaitSeconds("restoreTimeoutSeconds"), {
      change: "record",
      output: "stored",
    }),
  },
  outputs: {
    /** Volume id (also the resource id). */
    volumeId: output<string>(t.string),
    /** Volume name. */
    name: output<string>(t.string),
    /** Volume state: `created`, `restoring` or `destroyed`. */
    state: output<string>(t.string),
    /** Size in GB as the platform reports it. */
    sizeGb: output<number>(t.integer),
    /** Region of the volume. */
    region: output<string>(t.string),
    /** Hardware zone of the volume. */
    zone: output<string>(t.string),
    /** Whether the volume is encrypted. */
    encrypted: output<boolean>(t.boolean),
    /** Machine the volume is attached to, or null. */
    attachedMachineId: output<string | null>(t.nullable(t.string)),
    /** Allocation the volume is attached to, or null. */
    attachedAllocId: output<string | null>(t.nullable(t.string)),
    /** Creation timestamp. */
    createdAt: output<string>(t.string),
    /** Total number of blocks (0 right after a create, restore or extend). */
    blocks: output<number>(t.number),
    /** Block size in bytes. */
    blockSize: output<number>(t.integer),
    /** Blocks free for data and root-user operations. */
    blocksFree: output<number>(t.number),
    /** Blocks available for data. */
    blocksAvail: output<number>(t.number),
    /** File system type. */
    fstype: output<string>(t.string),
    /** Days snapshots are kept. */
    snapshotRetention: output<number>(t.integer),
    /** Whether automatic daily snapshots are on. */
    autoBackupEnabled: output<boolean>(t.boolean),
    /** Host dedication key (empty string when none). */
    hostDedicationKey: output<string>(t.string),
    /** From the last extend: whether the attached machine must restart to use the added space. */
    needsRestart: output<boolean>(t.boolean),
  },
  // Which live inputs the program sets, and the size it asked for (see the runtime's volumeOutputs).
  internalOutputs: ["programInputs", "programSizeGb"],
  rules: volumeRules,
});

/** Volume inputs as the runtime receives them (camelCase). */
export type VolumeInputs = InputValues<typeof volumeDeclaration>;

/**
 * The size the program asked for at the last create or update (`programSizeGb`), or null when it
 * set none. Previous inputs (`check`) hold the program's size as `sizeGb`; so do outputs recorded
 * before 0.3.0 (no record of it: the size recorded before a read is the best known, since only a
 * refresh writes a size the program did not ask for), when `programInputs` names it or is absent.
 */
export function programSizeOf(recorded: Record<string, unknown>): number | null {
  const size = recorded.programSizeGb;
  if (typeof size === "number" || size === null) return size;
  const list = recorded.programInputs;
  const sets = !Array.isArray(list) || list.includes("sizeGb");
  return sets && typeof recorded.sizeGb === "number" ? recorded.sizeGb : null;
}

/**
 * `sizeGb` is the least the volume must have: above the platform's size (`olds.sizeGb`, what the
 * last up or refresh saw) it is an update (an extend; an unknown size may be one). At or below it
 * (the volume grew elsewhere) the up does nothing at the platform: a program value other than the
 * last one it gave is only warned about (the lifetime warning says the volume is larger).
 */
function sizeChange({ olds, news }: ChangeContext): PropertyEffect | undefined {
  const asked = news.sizeGb;
  if (asked === undefined || asked === null) return undefined;
  if (isUnknown(asked) || typeof olds.sizeGb !== "number" || Number(asked) > olds.sizeGb) return "update";
  const last = programSizeOf(olds);
  return last !== null && Number(asked) !== last ? "warn" : undefined;
}

/**
 * A fork or a restore is an event: once the volume was forked (restored), a changed or unknown
 * `sourceVolumeId` (`snapshotId`) changes nothing (`warn`), whatever made it change (the source
 * deleted and made again, the snapshot taken again or moved to the other door); `check` warns as
 * it moves. The program's `replaceOnChanges` on it makes that a restore again (a replace; see
 * ../../model/change-plan). Naming a source (a snapshot) for a volume that was not made from one
 * replaces it.
 */
function sourceChange(
  key: "sourceVolumeId" | "snapshotId",
  { olds, news }: ChangeContext,
): PropertyEffect | undefined {
  const source = news[key];
  if (source === undefined || source === null) return undefined;
  if (!isSet(olds[key])) return "replace";
  return inputChanged(olds, news, key) ? "warn" : undefined;
}

/**
 * Naming another known volume in `adoptVolumeId` swaps which volume is managed (a replace); naming
 * this one (or an unknown value, which may turn out to be this one) only records it: replacing
 * would delete it. At `check` the id is not known yet: any other volume named counts as a swap.
 */
function adoptionChange({ id, olds, news }: ChangeContext): PropertyEffect | undefined {
  const adopt = news.adoptVolumeId;
  if (adopt === undefined || adopt === null || adopt === olds.adoptVolumeId) return undefined;
  const swaps = typeof adopt === "string" && adopt !== id && !isUnknown(adopt);
  return swaps ? "replace" : "record";
}

/**
 * Rules across Volume inputs; a smaller `sizeGb` than before is refused unless the plan replaces
 * the volume (an identity input, a first restore, the program's `replaceOnChanges`).
 */
function volumeRules(
  news: Record<string, unknown>,
  {
    olds,
    failed,
    replaced,
  }: { olds: Record<string, unknown>; failed: ReadonlySet<string>; replaced: boolean },
): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  if (isSet(news.snapshotId) && isSet(news.sourceVolumeId)) {
    failures.push({
      property: "sourceVolumeId",
      reason:
        "snapshotId and sourceVolumeId exclude each other: a volume is either restored from a snapshot or forked from a volume",
    });
  }
  if (isSet(news.snapshotId) && !isSet(news.region) && !failed.has("snapshotId")) {
    failures.push({
      property: "region",
      reason:
        "region is required when restoring from snapshotId: it must equal the region of the machine the volume will attach to",
    });
  }
  if (isSet(news.adoptVolumeId)) {
    for (const key of ["snapshotId", "sourceVolumeId"] as const) {
      if (isSet(news[key])) {
        failures.push({
          property: key,
          reason: `${key} only applies to a new volume and cannot be combined with adoptVolumeId, which takes an existing volume`,
        });
      }
    }
  }
  const oldSize = olds.sizeGb;
  const newSize = news.sizeGb;
  if (
    typeof oldSize === "number" &&
    typeof newSize === "number" &&
    !isUnknown(newSize) &&
    newSize < oldSize &&
    !failed.has("sizeGb") &&
    !replaced
  ) {
    failures.push({ property: "sizeGb", reason: shrinkMessage(oldSize, newSize) });
  }
  return failures;
}

/**
 * Validates Volume inputs. `olds` are the previous inputs (empty on create): a smaller `sizeGb`
 * than before is rejected, since volumes can only grow, unless the volume is replaced anyway.
 */
export function validateVolumeArgs(
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): ValidationFailure[] {
  return inputFailures(volumeDeclaration, news, olds);
}

/** The platform's create body of checked Volume inputs. */
export function volumeCreateBody(inputs: VolumeInputs): CreateVolumeRequest {
  return createBody(volumeDeclaration, inputs);
}
