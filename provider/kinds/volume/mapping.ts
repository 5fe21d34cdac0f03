/**
 * The one mapping of a volume as the platform reports it (the sdk's parsed `Volume`, spec 2.2) to
 * the `Volume` outputs. The runtime's outputs, the lookups' `VolumeInfo` and `adopt`'s inputs are
 * derived from it, so a field the platform reports reaches them by one entry here: the declared
 * outputs are exhaustive, and the compiler names this line when one is missing. The resource's
 * outputs ({@link volumeOutputs}) add the stored inputs and the program's record; the runtime and
 * the testing mocks record them.
 * Loaded by the program too (lookups, adopt): it imports the sdk's types only.
 * @module
 */
import type { Volume } from "../../../sdk/schemas/volume";
import { type DeclaredOutputs, type LiveKeys, liveInputs, storedInputs } from "../../model/declaration";
import { clean, pick } from "../../model/json-values";
import type { CheckedInputs, Outs, RecordedOutputs } from "../../runtime/define";
import { volumeDeclaration } from "./declaration";

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

type Declaration = typeof volumeDeclaration;

const STORED_INPUTS = storedInputs(volumeDeclaration);
const LIVE_INPUTS = liveInputs(volumeDeclaration);

/** What the runtime records of the program beside the outputs. */
export interface ProgramRecord {
  /** Which live inputs the program sets (a refresh keeps platform defaults out of the inputs). */
  programInputs: string[];
  /** The size the program asked for; null when it set none (`sizeGb` is the platform's). */
  programSizeGb: number | null;
}

/** The program's record of checked inputs (create, update, adopt). */
export function programRecord(inputs: CheckedInputs<Declaration>): ProgramRecord {
  return { programInputs: Object.keys(pick(inputs, LIVE_INPUTS)), programSizeGb: inputs.sizeGb ?? null };
}

/**
 * Maps a wire volume to the resource's outputs ({@link volumeReport}), with the stored inputs of
 * `source` (the checked inputs, or the previous outputs) and the program's record.
 * `previousFstype` fills an empty fstype (an extend's or a fresh volume's answer).
 */
export function volumeOutputs(
  volume: Volume,
  source: CheckedInputs<Declaration> | RecordedOutputs<Declaration>,
  program: ProgramRecord,
  extra: { needsRestart: boolean; previousFstype?: string | undefined },
): Outs<Declaration> & ProgramRecord {
  return clean({
    ...pick(source, STORED_INPUTS),
    programInputs: program.programInputs,
    programSizeGb: program.programSizeGb,
    ...volumeReport(volume),
    fstype: volume.fstype || extra.previousFstype || source.fstype || "",
    needsRestart: extra.needsRestart,
  });
}
