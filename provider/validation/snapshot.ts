/**
 * Rules of VolumeSnapshot inputs.
 * @module
 */
import { z } from "zod";
import { failuresOf, unknownPropertyFailures, type ValidationFailure } from "./common";
import { optionalInteger, optionalStringMap, requiredString } from "./fields";
import { MAX_WAIT_SECONDS } from "./volume";

/** Default of `waitTimeoutSeconds`: how long to wait for the snapshot to be listed. */
export const DEFAULT_SNAPSHOT_WAIT_SECONDS = 300;

/** Inputs that take a new snapshot (through a replace) when changed. */
export const SNAPSHOT_REPLACE_PROPERTIES = ["app", "volumeId", "triggers"] as const;

/** Shape of every VolumeSnapshot input. */
export const VolumeSnapshotInputsSchema = z.object({
  app: requiredString("app", "the name of the app that owns the volume"),
  volumeId: requiredString("volumeId", "the volume to snapshot"),
  triggers: optionalStringMap("triggers"),
  waitTimeoutSeconds: optionalInteger("waitTimeoutSeconds", 1, MAX_WAIT_SECONDS, "seconds"),
});
/** VolumeSnapshot inputs as the provider receives them. */
export type VolumeSnapshotInputs = z.infer<typeof VolumeSnapshotInputsSchema>;

/** Validates VolumeSnapshot inputs. */
export function validateVolumeSnapshotArgs(news: Record<string, unknown>): ValidationFailure[] {
  return [
    ...unknownPropertyFailures("VolumeSnapshot", news, {
      names: Object.keys(VolumeSnapshotInputsSchema.shape),
    }),
    ...failuresOf(VolumeSnapshotInputsSchema, news),
  ];
}
