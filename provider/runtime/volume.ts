/**
 * Volume: check/diff/create/read/update/delete on top of the sdk's VolumesClient.
 * Outputs hold every spec 2.2 field in camelCase plus every input under its own name, so `diff`
 * (which receives the previous outputs) can compare inputs, and `read` can rebuild inputs.
 * @module
 */
import { AmbiguousRequestError, DEFAULT_FSTYPE, isNotFound, type Volume as WireVolume } from "../../sdk";
import { GONE_VOLUME_STATES } from "../../sdk/schemas/volume-constants";
import { type OutputValues, storedInputs } from "../declaration";
import {
  DEFAULT_RESTORE_TIMEOUT_SECONDS,
  type VolumeInputs,
  volumeCreateBody,
  volumeDeclaration,
} from "../declarations/volume";
import { volumeReport } from "../declarations/volume-mapping";
import { clean, pick } from "../json-values";
import { isUnknown } from "../validation/common";
import { platformClient } from "./credentials";
import { defineProvider } from "./define";
import type { DiffOutcome } from "./diff";
import { ApiError, explain, isMissing, TimeoutError } from "./errors";
import { KEEP_WAITING, keptInStack, waitMs } from "./kept-in-stack";
import { warnAboutLeftovers } from "./leftovers";

type Props = Record<string, unknown>;

/** Inputs the platform does not echo back; kept in outputs as given. */
const STORED_INPUTS = storedInputs(volumeDeclaration);

/** Inputs whose current value the platform reports (same name in outputs). */
const LIVE_INPUTS = Object.keys(volumeDeclaration.inputs).filter((k) => !STORED_INPUTS.includes(k));

/**
 * Maps a wire volume and the inputs to the resource's outputs. `programSizeGb` is the size the
 * program asked for (null when it set none): `sizeGb` is the platform's, which may be larger.
 */
export function volumeOutputs(
  volume: WireVolume,
  inputs: Props,
  extra: { needsRestart: boolean; previousFstype?: unknown; programSizeGb?: number | null },
): OutputValues<typeof volumeDeclaration> & { programInputs: string[]; programSizeGb: number | null } {
  const fstype =
    volume.fstype ||
    (typeof extra.previousFstype === "string" ? extra.previousFstype : "") ||
    (typeof inputs.fstype === "string" ? inputs.fstype : "");
  return clean({
    ...(pick(inputs, STORED_INPUTS) as Partial<VolumeInputs>),
    programInputs: programInputNames(inputs),
    programSizeGb:
      extra.programSizeGb !== undefined
        ? extra.programSizeGb
        : typeof inputs.sizeGb === "number"
          ? inputs.sizeGb
          : null,
    ...volumeReport(volume),
    fstype,
    needsRestart: extra.needsRestart,
  });
}

/**
 * Which live inputs the program sets. `read` only sees outputs, where every live field is
 * present; without this list a refresh would turn platform defaults (encrypted, fstype, ...)
 * into inputs the program never wrote, and the next `up` would show them as removed.
 * `inputs` are either the program's inputs (create/update) or previous outputs (read).
 */
function programInputNames(inputs: Props): string[] {
  const recorded = inputs.programInputs;
  if (Array.isArray(recorded)) return recorded.filter((k): k is string => typeof k === "string");
  if ("volumeId" in inputs) return [...LIVE_INPUTS]; // state written before this list existed
  return LIVE_INPUTS.filter((key) => inputs[key] !== undefined && inputs[key] !== null);
}

/**
 * The inputs that describe the volume as it is now (returned by `read`). `sizeGb` is the size the
 * program asked for, not a larger one the volume grew to elsewhere: the next preview compares the
 * program against its own last value, and a volume grown outside the stack is not a shrink.
 */
export function volumeInputsFromOutputs(outputs: Props): Props {
  const live = pick(outputs, programInputNames(outputs));
  if (live.fstype === "") delete live.fstype;
  if ("sizeGb" in live && typeof outputs.programSizeGb === "number") live.sizeGb = outputs.programSizeGb;
  return clean({ ...pick(outputs, STORED_INPUTS), ...live });
}

/** Waits for a restoring volume to become `created`; a timeout keeps the volume in state. */
async function waitRestored(
  app: string,
  volume: WireVolume,
  inputs: Props,
  extra: Props,
): Promise<WireVolume> {
  if (volume.state === "created") return volume;
  const timeoutMs = waitMs(inputs.restoreTimeoutSeconds, DEFAULT_RESTORE_TIMEOUT_SECONDS);
  try {
    return await platformClient().volumes.waitUntil(app, volume.id, "created", { timeoutMs });
  } catch (err) {
    const source = inputs.snapshotId ? ` from snapshot ${inputs.snapshotId}` : "";
    const message =
      err instanceof TimeoutError
        ? `volume ${volume.id} (app ${app}) is still "${volume.state}"${source} after ${timeoutMs / 1000} s ` +
          `(restoreTimeoutSeconds): ${err.message}. ${KEEP_WAITING}, or raise restoreTimeoutSeconds`
        : explain(err, `waiting for volume ${volume.id} to be restored`).message;
    throw keptInStack(volume.id, volumeOutputs(volume, inputs, { needsRestart: false }), extra, message);
  }
}

/**
 * Reads the volume again after an extend, whose answer may carry zeroed block counts and an empty
 * fstype (spec 2.2); falls back to what we have. A create is not read back: a fresh volume's
 * block counts are what the create answered (zero, per spec 2.2, until something is written),
 * and refresh reads them; the GET cost every create a round trip.
 */
async function readBack(app: string, volume: WireVolume): Promise<WireVolume> {
  try {
    return await platformClient().volumes.get(app, volume.id);
  } catch {
    return volume;
  }
}

function incompatible(volumeId: string, problems: string[]): Error {
  return new Error(
    `cannot adopt volume ${volumeId}: ${problems.join("; ")}. Change the inputs to match the volume, or remove adoptVolumeId to create a new one`,
  );
}

/** Takes an existing volume under management, then brings its mutable settings to the inputs. */
async function adopt(inputs: VolumeInputs, props: Props): Promise<{ id: string; outs: Props }> {
  const { app } = inputs;
  const volumeId = inputs.adoptVolumeId as string;
  const volumes = platformClient().volumes;
  let volume: WireVolume;
  try {
    volume = await volumes.get(app, volumeId);
  } catch (err) {
    if (isMissing(err))
      throw new Error(
        `cannot adopt volume ${volumeId}: app ${app} has no such volume (${(err as Error).message})`,
      );
    throw explain(err, `reading volume ${volumeId} to adopt it`);
  }
  const problems: string[] = [];
  if (GONE_VOLUME_STATES.has(volume.state)) problems.push(`it is ${volume.state}`);
  if (volume.name !== inputs.name) problems.push(`it is named "${volume.name}", not "${inputs.name}"`);
  if (inputs.region !== undefined && volume.region !== inputs.region) {
    problems.push(`it is in region ${volume.region}, not ${inputs.region}`);
  }
  if (inputs.encrypted !== undefined && volume.encrypted !== inputs.encrypted) {
    problems.push(`encrypted is ${volume.encrypted}, not ${inputs.encrypted}`);
  }
  if (inputs.fstype !== undefined && volume.fstype !== "" && volume.fstype !== inputs.fstype) {
    problems.push(`its file system is ${volume.fstype}, not ${inputs.fstype}`);
  }
  if (problems.length > 0) throw incompatible(volumeId, problems);
  volume = await waitRestored(app, volume, inputs, props);
  const outcome = await converge(app, volume, volume.size_gb, inputs, {
    snapshotRetention: volume.snapshot_retention,
    autoBackupEnabled: volume.auto_backup_enabled,
    needsRestart: false,
  });
  return {
    id: volume.id,
    outs: volumeOutputs(outcome.volume, inputs, { needsRestart: outcome.needsRestart }),
  };
}

/**
 * Applies in-place changes: one PUT for retention/backup when either differs, then an extend
 * when the size grows. Returns the volume as it is afterwards.
 */
async function converge(
  app: string,
  volume: WireVolume,
  currentSize: number,
  inputs: Props,
  current: { snapshotRetention: unknown; autoBackupEnabled: unknown; needsRestart: boolean },
): Promise<{ volume: WireVolume; needsRestart: boolean }> {
  const volumes = platformClient().volumes;
  const id = volume.id;
  const body: { snapshot_retention?: number; auto_backup_enabled?: boolean } = {};
  if (
    typeof inputs.snapshotRetention === "number" &&
    inputs.snapshotRetention !== current.snapshotRetention
  ) {
    body.snapshot_retention = inputs.snapshotRetention;
  }
  if (
    typeof inputs.autoBackupEnabled === "boolean" &&
    inputs.autoBackupEnabled !== current.autoBackupEnabled
  ) {
    body.auto_backup_enabled = inputs.autoBackupEnabled;
  }
  let latest = volume;
  let needsRestart = current.needsRestart;
  /** Whether `latest` is an extend's answer (zeroed block counts): read again. */
  let extended = false;
  if (Object.keys(body).length > 0) {
    try {
      latest = await volumes.update(app, id, body);
    } catch (err) {
      throw explain(err, `updating retention settings of volume ${id} (app ${app})`);
    }
  }
  const target = inputs.sizeGb;
  if (typeof target === "number" && target > currentSize) {
    try {
      const res = await volumes.extend(app, id, target);
      latest = res.volume;
      needsRestart = res.needs_restart;
      extended = true;
    } catch (err) {
      const landed = await extendLanded(app, id, target, err);
      if (!landed)
        throw explain(err, `extending volume ${id} (app ${app}) from ${currentSize} GB to ${target} GB`);
      latest = landed;
      // The answer that said so was lost: an attached machine is the one that may need a restart.
      needsRestart = needsRestart || landed.attached_machine_id !== null;
    }
  }
  return { volume: extended ? await readBack(app, latest) : latest, needsRestart };
}

/**
 * After a failed extend: the volume when it already has the target size. The sdk repeats an
 * extend whose answer was lost, and the repeat is refused (400, volumes can only grow) because
 * the first one landed; that is the extend's own success, not a failure.
 */
async function extendLanded(
  app: string,
  id: string,
  target: number,
  err: unknown,
): Promise<WireVolume | undefined> {
  if (!(err instanceof ApiError && err.status === 400) && !(err instanceof AmbiguousRequestError))
    return undefined;
  try {
    const volume = await platformClient().volumes.get(app, id);
    return volume.size_gb >= target ? volume : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Naming another known volume in `adoptVolumeId` swaps which volume is managed; naming this one
 * (or an unknown value, which may turn out to be this one) only records it: replacing would delete it.
 */
function diffAdoption(id: string, olds: Props, news: Props, outcome: DiffOutcome): DiffOutcome {
  const adopt = news.adoptVolumeId;
  if (adopt === undefined || adopt === null || adopt === olds.adoptVolumeId) return outcome;
  const replaces =
    typeof adopt === "string" && adopt !== id && !isUnknown(adopt)
      ? [...outcome.replaces, "adoptVolumeId"]
      : outcome.replaces;
  return { ...outcome, changes: true, replaces };
}

/**
 * `sizeGb` is the least the volume must have: it changes the volume only when it is above the
 * platform's size (`olds.sizeGb`, what the last up or refresh saw), so a volume grown elsewhere
 * plans nothing. An unknown size may be a growth.
 */
function diffSize(olds: Props, news: Props, outcome: DiffOutcome): DiffOutcome {
  const asked = news.sizeGb;
  if (asked === undefined || asked === null) return outcome;
  const grows = isUnknown(asked) || typeof olds.sizeGb !== "number" || Number(asked) > olds.sizeGb;
  return grows ? { ...outcome, changes: true } : outcome;
}

/** The declared diff with the Volume's own rules for `sizeGb` and `adoptVolumeId`. */
function diff(id: string, olds: Props, news: Props, declared: DiffOutcome): DiffOutcome {
  return diffAdoption(id, olds, news, diffSize(olds, news, declared));
}

/** Creates the volume (or adopts `adoptVolumeId`); a restore waits until `created`. */
async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const args = inputs as VolumeInputs;
  if (args.adoptVolumeId) return adopt(args, inputs);
  let volume: WireVolume;
  try {
    volume = await platformClient().volumes.create(args.app, volumeCreateBody(args));
  } catch (err) {
    throw explain(err, `creating volume "${args.name}" in app ${args.app}`, createAdvice(err));
  }
  await warnAboutLeftovers(args.app, volume);
  const fromData = Boolean(args.snapshotId || args.sourceVolumeId);
  if (volume.state === "restoring" || args.snapshotId)
    volume = await waitRestored(args.app, volume, inputs, inputs);
  // A fresh volume's answer may have an empty fstype: an empty create made the platform's default.
  const previousFstype = fromData ? undefined : DEFAULT_FSTYPE;
  return { id: volume.id, outs: volumeOutputs(volume, inputs, { needsRestart: false, previousFstype }) };
}

function createAdvice(err: unknown): string | undefined {
  if (isNotFound(err))
    return "Check that the app exists and, for a restore or fork, that snapshotId/sourceVolumeId exist";
  return undefined;
}

/** Reads the live volume; a 404, a 410 or state `destroyed` means it is gone (blank id). */
async function read(id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }> {
  const app = String(props.app);
  let volume: WireVolume;
  try {
    volume = await platformClient().volumes.getListed(app, id);
  } catch (err) {
    if (isMissing(err)) return { id: "", props: {} };
    throw explain(err, `reading volume ${id} (app ${app})`);
  }
  if (GONE_VOLUME_STATES.has(volume.state)) return { id: "", props: {} };
  const outputs = volumeOutputs(volume, props, {
    needsRestart: props.needsRestart === true,
    previousFstype: props.fstype,
    programSizeGb: recordedProgramSize(props),
  });
  return { id, props: outputs, inputs: volumeInputsFromOutputs(outputs) };
}

/**
 * The size the program asked for at the last create or update, from outputs. State written before
 * 0.3.0 has no record of it: there the size recorded before this read is the best known, since only
 * a refresh writes a size the program did not ask for.
 */
function recordedProgramSize(props: Props): number | null {
  if (typeof props.programSizeGb === "number" || props.programSizeGb === null) return props.programSizeGb;
  const programSets = programInputNames(props).includes("sizeGb");
  return programSets && typeof props.sizeGb === "number" ? props.sizeGb : null;
}

/**
 * Applies in-place changes (PUT and/or extend) and returns the full outputs. A `sizeGb` below the
 * volume's size (it grew elsewhere) extends nothing: volumes never shrink, and check already
 * refused a program that lowered its own value.
 */
async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const app = String(news.app);
  let volume: WireVolume;
  try {
    volume = await platformClient().volumes.get(app, id);
  } catch (err) {
    throw explain(err, `reading volume ${id} (app ${app}) before updating it`);
  }
  volume = await waitRestored(app, volume, news, news);
  const outcome = await converge(app, volume, volume.size_gb, news, {
    snapshotRetention: volume.snapshot_retention,
    autoBackupEnabled: volume.auto_backup_enabled,
    needsRestart: olds.needsRestart === true,
  });
  return {
    outs: volumeOutputs(outcome.volume, news, {
      needsRestart: outcome.needsRestart,
      previousFstype: olds.fstype,
    }),
  };
}

/** Deletes the volume; one that is already gone counts as deleted. */
async function remove(id: string, props: Props): Promise<void> {
  const app = String(props.app);
  try {
    await platformClient().volumes.delete(app, id);
  } catch (err) {
    if (isMissing(err)) return;
    throw explain(err, `deleting volume ${id} (app ${app})`);
  }
}

/** The provider methods of `Volume`. */
export const volume = defineProvider(volumeDeclaration, {
  create,
  read,
  update,
  delete: remove,
  diff,
});
