/**
 * Warnings about what time or people outside the stack did to a resource since the last `up`: a
 * custom certificate about to expire (or expired), a volume grown elsewhere. They are computed in
 * the program from the resource's recorded outputs, which the engine hands back at preview for a
 * resource that does not change, and attached to the resource, so `pulumi preview` and
 * `pulumi up` print them under its name.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import {
  certificateExpiryWarning,
  DEFAULT_EXPIRY_WARNING_DAYS,
  forkSourceChangedWarning,
  grownElsewhereWarning,
  restoreSourceChangedWarning,
  snapshotSourceChangedWarning,
} from "../../model/lifetime";

/** Warns, under the certificate's name, from `expiryWarningDays` before its expiry. */
export function warnBeforeExpiry(
  certificate: pulumi.Resource & {
    hostname: pulumi.Output<string>;
    expiresAt: pulumi.Output<string | null>;
  },
  windowDays: pulumi.Input<number> | undefined,
): void {
  pulumi
    .all([certificate.hostname, certificate.expiresAt, windowDays ?? DEFAULT_EXPIRY_WARNING_DAYS])
    .apply(([hostname, expiresAt, days]) => {
      if (typeof expiresAt !== "string") return;
      const warning = certificateExpiryWarning(hostname, expiresAt, new Date(), days);
      if (warning) void pulumi.log.warn(warning, certificate);
    });
}

/**
 * Warns, under the volume's name, when the platform's volume is larger than `sizeGb`; `fromData`:
 * it was restored or forked (its snapshot or source may have been larger).
 */
export function warnIfGrownElsewhere(
  volume: pulumi.Resource & {
    name: pulumi.Output<string>;
    volumeId: pulumi.Output<string>;
    sizeGb: pulumi.Output<number>;
  },
  sizeGb: pulumi.Input<number> | undefined,
  fromData = false,
): void {
  if (sizeGb === undefined) return;
  pulumi.all([volume.name, volume.volumeId, volume.sizeGb, sizeGb]).apply(([name, id, platformGb, asked]) => {
    const warning =
      typeof asked === "number" ? grownElsewhereWarning(name, id, platformGb, asked, fromData) : undefined;
    if (warning) void pulumi.log.warn(warning, volume);
  });
}

/** The warning texts of a volume made from data, by the input naming where the data came from. */
const SOURCE_CHANGED = { sourceVolumeId: forkSourceChangedWarning, snapshotId: restoreSourceChangedWarning };

/**
 * Warns, under the volume's name, when the program names another source than the one the volume
 * was made from: another volume than it was forked from (`sourceVolumeId`), another snapshot than
 * it was restored from (`snapshotId`).
 */
export function warnIfSourceChanged<K extends keyof typeof SOURCE_CHANGED>(
  volume: pulumi.Resource & {
    name: pulumi.Output<string>;
    volumeId: pulumi.Output<string>;
  } & { [key in K]: pulumi.Output<string | undefined> },
  key: K,
  given: pulumi.Input<string> | undefined,
): void {
  if (given === undefined) return;
  pulumi.all([volume.name, volume.volumeId, volume[key], given]).apply(([name, id, madeFrom, now]) => {
    const warning = typeof madeFrom === "string" ? SOURCE_CHANGED[key](name, id, madeFrom, now) : undefined;
    if (warning) void pulumi.log.warn(warning, volume);
  });
}

/** Warns, under the snapshot's name, when the program names another volume than it was taken of. */
export function warnIfSnapshotSourceChanged(
  request: pulumi.CustomResource & { volumeId: pulumi.Output<string> },
  volumeId: pulumi.Input<string>,
): void {
  pulumi.all([request.id, request.volumeId, volumeId]).apply(([snapshotId, takenOf, given]) => {
    const warning =
      typeof takenOf === "string" ? snapshotSourceChangedWarning(snapshotId, takenOf, given) : undefined;
    if (warning) void pulumi.log.warn(warning, request);
  });
}
