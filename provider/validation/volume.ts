/**
 * Rules of Volume inputs (spec 2.2, 4.3, 8), checked at preview before any API call.
 * @module
 */
import { z } from "zod";
import { sameValue } from "../runtime/plain";
import {
  failuresOf,
  isSet,
  isUnknown,
  type KnownProperties,
  unknownPropertyFailures,
  type ValidationFailure,
} from "./common";
import { optionalBoolean, optionalInteger, optionalString, requiredString } from "./fields";

/** Snapshot retention limits in days (spec 8). */
export const SNAPSHOT_RETENTION_RANGE = { min: 1, max: 60 } as const;
/** Default of `restoreTimeoutSeconds`. */
export const DEFAULT_RESTORE_TIMEOUT_SECONDS = 600;
/** Upper bound of every wait, one day. */
export const MAX_WAIT_SECONDS = 86_400;
/** Largest size accepted at preview; the platform's own maximum is not documented. */
const MAX_SIZE_GB = 500_000;

/**
 * Volume inputs that, when changed, replace the volume: they are fixed at creation.
 * `sizeGb`, `snapshotRetention` and `autoBackupEnabled` change in place.
 */
export const VOLUME_REPLACE_PROPERTIES = [
  "app",
  "name",
  "region",
  "encrypted",
  "fstype",
  "snapshotId",
  "sourceVolumeId",
  "machinesOnly",
  "requireUniqueZone",
  "compute",
] as const;

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

/** Shape and range of every Volume input. */
export const VolumeInputsSchema = z.object({
  app: requiredString("app", "the name of the app that owns the volume"),
  name: requiredString("name", "the volume name"),
  region: optionalString("region", "the region to place the volume in"),
  sizeGb: optionalInteger("sizeGb", 1, MAX_SIZE_GB, "GB"),
  encrypted: optionalBoolean("encrypted"),
  fstype: optionalString("fstype", "the file system type, e.g. ext4"),
  autoBackupEnabled: optionalBoolean("autoBackupEnabled"),
  snapshotRetention: optionalInteger(
    "snapshotRetention",
    SNAPSHOT_RETENTION_RANGE.min,
    SNAPSHOT_RETENTION_RANGE.max,
    "days",
  ),
  snapshotId: optionalString("snapshotId", "the snapshot to restore"),
  sourceVolumeId: optionalString("sourceVolumeId", "the volume to fork"),
  machinesOnly: optionalBoolean("machinesOnly"),
  requireUniqueZone: optionalBoolean("requireUniqueZone"),
  compute: ComputeInputSchema.optional(),
  adoptVolumeId: optionalString("adoptVolumeId", "an existing volume to take under management"),
  restoreTimeoutSeconds: optionalInteger("restoreTimeoutSeconds", 1, MAX_WAIT_SECONDS, "seconds"),
});

/** The inputs a Volume takes; anything else is a typo reported at preview. */
export const VOLUME_PROPERTIES: KnownProperties = {
  names: Object.keys(VolumeInputsSchema.shape),
  nested: { compute: Object.keys(ComputeInputSchema.shape) },
};

/** Volume inputs as the provider receives them (camelCase). */
export type VolumeInputs = z.infer<typeof VolumeInputsSchema>;

/** Whether old and new inputs differ in a property that replaces the volume. */
function replacesVolume(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  return VOLUME_REPLACE_PROPERTIES.some((key) => isSet(news[key]) && !sameValue(news[key], olds[key]));
}

/**
 * Validates Volume inputs. `olds` are the previous inputs (empty on create): a smaller `sizeGb`
 * than before is rejected, since volumes can only grow, unless the volume is replaced anyway.
 */
export function validateVolumeArgs(
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): ValidationFailure[] {
  const failures = [
    ...unknownPropertyFailures("Volume", news, VOLUME_PROPERTIES),
    ...failuresOf(VolumeInputsSchema, news),
  ];
  const failed = new Set(failures.map((f) => f.property));

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
    !replacesVolume(olds, news)
  ) {
    failures.push({ property: "sizeGb", reason: shrinkMessage(oldSize, newSize) });
  }
  return failures;
}

/** The message of a rejected shrink. */
export function shrinkMessage(fromGb: number, toGb: number): string {
  return `volumes can only grow: ${fromGb} GB → ${toGb} GB`;
}
