/**
 * The one mapping of a volume as the platform reports it (the sdk's parsed `Volume`, spec 2.2) to
 * the `Volume` outputs. The runtime's outputs, the lookups' `VolumeInfo` and `adopt`'s inputs are
 * derived from it, so a field the platform reports reaches them by one entry here: the declared
 * outputs are exhaustive, and the compiler names this line when one is missing.
 * Loaded by the program too (lookups, adopt): it imports the sdk's types only.
 * @module
 */
import type { Volume } from "../../../sdk/schemas/volume";
import type { DeclaredOutputs, LiveKeys } from "../../model/declaration";
import type { volumeDeclaration } from "./declaration";

/**
 * A volume as the platform reports it, camelCase: every declared output of `Volume` except
 * `needsRestart`, which only an extend's answer tells.
 */
export type VolumeReport = Omit<DeclaredOutputs<typeof volumeDeclaration>, "needsRestart">;

/** The inputs the platform reports the current value of (same names as their outputs). */
export type VolumeLiveInputs = Pick<VolumeReport, LiveKeys<(typeof volumeDeclaration)["inputs"]>>;

/** The report of a parsed volume. */
export function volumeReport(volume: Volume): VolumeReport {
  return {
    volumeId: volume.id,
    name: volume.name,
    state: volume.state,
    sizeGb: volume.size_gb,
    region: volume.region,
    zone: volume.zone,
    encrypted: volume.encrypted,
    attachedMachineId: volume.attached_machine_id,
    attachedAllocId: volume.attached_alloc_id,
    createdAt: volume.created_at,
    blocks: volume.blocks,
    blockSize: volume.block_size,
    blocksFree: volume.blocks_free,
    blocksAvail: volume.blocks_avail,
    fstype: volume.fstype,
    snapshotRetention: volume.snapshot_retention,
    autoBackupEnabled: volume.auto_backup_enabled,
    hostDedicationKey: volume.host_dedication_key,
  };
}

/** The live inputs of a report: what a program declaring the volume as it is today sets. */
export function volumeLiveInputs(report: VolumeReport): VolumeLiveInputs {
  return {
    name: report.name,
    region: report.region,
    sizeGb: report.sizeGb,
    encrypted: report.encrypted,
    fstype: report.fstype,
    autoBackupEnabled: report.autoBackupEnabled,
    snapshotRetention: report.snapshotRetention,
  };
}
