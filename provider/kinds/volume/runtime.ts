/**
 * Volume: check/diff/create/read/update/delete on top of the sdk's VolumesClient.
 * Outputs hold every spec 2.2 field in camelCase plus every input under its own name, so `diff`
 * (which receives the previous outputs) can compare inputs, and `read` can rebuild inputs.
 * @module
 */
import { AmbiguousRequestError, DEFAULT_FSTYPE, isNotFound, type Volume as WireVolume } from "../../../sdk";
import { GONE_VOLUME_STATES } from "../../../sdk/schemas/volume-constants";
import type { DiffOutcome } from "../../model/change-plan";
import { liveInputs, storedInputs, updateBody } from "../../model/declaration";
import { clean, pick } from "../../model/json-values";
import { type Door, sourceChangedWarning } from "../../model/lifetime";
import { isUnknown } from "../../model/validation/common";
import { regionWarning } from "../../model/validation/region";
import { platformClient } from "../../runtime/credentials";
import {
  type CheckedInputs,
  defineProvider,
  type EngineProps,
  type ProviderField,
  type RecordedOutputs,
} from "../../runtime/define";
import { whileEngineRuns } from "../../runtime/engine-presence";
import { ApiError, explain, isMissing, TimeoutError } from "../../runtime/errors";
import { KEEP_WAITING, keptInStack, waitMs } from "../../runtime/kept-in-stack";
import { createWarningAboutLeftovers } from "../../runtime/leftovers";
import type { WarningSink } from "../../runtime/warnings";
import {
  DEFAULT_RESTORE_TIMEOUT_SECONDS,
  programSizeOf,
  volumeCreateBody,
  volumeDeclaration,
} from "./declaration";
import { type ProgramRecord, programRecord, volumeOutputs } from "./mapping";

/** Inputs the platform does not echo back; kept in outputs as given. */
const STORED_INPUTS = storedInputs(volumeDeclaration);

/** Inputs whose current value the platform reports (same name in outputs). */
const LIVE_INPUTS = liveInputs(volumeDeclaration);

type Checked = CheckedInputs<typeof volumeDeclaration>;

/** What the program asked for, kept among the outputs (the declaration's `internalOutputs`). */
/** The outputs of a Volume. */
type VolumeOutputs = ReturnType<typeof volumeOutputs>;

/** The previous outputs of a Volume, with what releases before 0.3.0 did not record filled in. */
type VolumeState = RecordedOutputs<typeof volumeDeclaration> & ProgramRecord & { app: string };

/**
 * Narrows recorded outputs. Releases before 0.3.0 recorded neither `programInputs` nor
 * `programSizeGb` (see {@link programInputNames} and the declaration's `programSizeOf`).
 */
function volumeState(recorded: RecordedOutputs<typeof volumeDeclaration>): VolumeState {
  return {
    ...recorded,
    // A required input: every release recorded it.
    app: recorded.app ?? "",
    programInputs: programInputNames(recorded),
    programSizeGb: programSizeOf(recorded),
  };
}

/**
 * Which live inputs the program sets. `read` only sees outputs, where every live field is
 * present; without this list a refresh would turn platform defaults (encrypted, fstype, ...)
 * into inputs the program never wrote, and the next `up` would show them as removed.
 */
function programInputNames(recorded: RecordedOutputs<typeof volumeDeclaration>): string[] {
  const list = recorded.programInputs;
  if (Array.isArray(list)) return list.filter((k): k is string => typeof k === "string");
  if ("volumeId" in recorded) return [...LIVE_INPUTS]; // state written before this list existed
  return Object.keys(pick(recorded, LIVE_INPUTS));
}

/**
 * The inputs that describe the volume as it is now (returned by `read`). `sizeGb` is the size the
 * program asked for, not a larger one the volume grew to elsewhere: the next preview compares the
 * program against its own last value, and a volume grown outside the stack is not a shrink.
 */
export function volumeInputsFromOutputs(outputs: VolumeOutputs): EngineProps {
  const live = pick<EngineProps, string>(outputs, outputs.programInputs);
  if (live.fstype === "") delete live.fstype;
  if ("sizeGb" in live && outputs.programSizeGb !== null) live.sizeGb = outputs.programSizeGb;
  return clean({ ...pick(outputs, STORED_INPUTS), ...live });
}

/** Waits for a restoring volume to become `created`; a timeout keeps the volume in state. */
async function waitRestored(
  app: string,
  volume: WireVolume,
  inputs: Checked,
  extra: ProviderField,
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
    const outputs = volumeOutputs(volume, inputs, programRecord(inputs), { needsRestart: false });
    throw keptInStack(volume.id, outputs, extra, message);
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
async function adopt(inputs: Checked, volumeId: string): Promise<{ id: string; outs: VolumeOutputs }> {
  const { app } = inputs;
  const volumes = platformClient().volumes;
  let volume: WireVolume;
  try {
    volume = await volumes.get(app, volumeId);
  } catch (err) {
    if (isMissing(err))
      throw new Error(
        `cannot adopt volume ${volumeId}: app ${app} has no such volume (${err instanceof Error ? err.message : err})`,
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
  volume = await waitRestored(app, volume, inputs, inputs);
  const outcome = await converge(app, volume, inputs, false);
  return {
    id: volume.id,
    outs: volumeOutputs(outcome.volume, inputs, programRecord(inputs), {
      needsRestart: outcome.needsRestart,
    }),
  };
}

/**
 * Applies in-place changes to `volume` (as the platform answered): one PUT of the declaration's
 * `update` inputs that differ from it (retention, backup), then an extend when the size grows.
 * Returns the volume as it is afterwards; `needsRestart` whether an extend before this one said so.
 */
async function converge(
  app: string,
  volume: WireVolume,
  inputs: Checked,
  restartNeeded: boolean,
): Promise<{ volume: WireVolume; needsRestart: boolean }> {
  const volumes = platformClient().volumes;
  const id = volume.id;
  const currentSize = volume.size_gb;
  const body = updateBody(volumeDeclaration, inputs, volume);
  let latest = volume;
  let needsRestart = restartNeeded;
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
  if (target !== undefined && target > currentSize) {
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
 * After a failed extend: the volume when it already has the target size. The sdk looks before it
 * repeats an extend whose outcome is unknown; a 400 (volumes can only grow) here is an extend that
 * landed in an earlier run whose answer never reached the stack (a killed `pulumi up`): that
 * is this extend's success, not a failure.
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
 * Creates the volume (or adopts `adoptVolumeId`); a restore waits until `created`. `about`: where
 * a warning of leftovers goes (../../runtime/warnings).
 */
async function create(inputs: Checked, about?: WarningSink): Promise<{ id: string; outs: VolumeOutputs }> {
  if (inputs.adoptVolumeId) return adopt(inputs, inputs.adoptVolumeId);
  const { app } = inputs;
  const fromData = Boolean(inputs.snapshotId || inputs.sourceVolumeId);
  const body = volumeCreateBody(inputs);
  // A restore or fork is never asked for less than its snapshot or source holds (the platform
  // refuses that, and neither size is known here): it takes their size, then grows to `sizeGb`.
  if (fromData) delete body.size_gb;
  let volume: WireVolume;
  try {
    volume = await createWarningAboutLeftovers(
      app,
      () => whileEngineRuns((signal) => platformClient().volumes.create(app, body, { signal })),
      about,
    );
  } catch (err) {
    throw explain(err, `creating volume "${inputs.name}" in app ${app}`, createAdvice(err));
  }
  if (volume.state === "restoring" || inputs.snapshotId)
    volume = await waitRestored(app, volume, inputs, inputs);
  let needsRestart = false;
  if (fromData && inputs.sizeGb !== undefined && inputs.sizeGb > volume.size_gb) {
    const grown = await growNew(app, volume, inputs);
    volume = grown.volume;
    needsRestart = grown.needsRestart;
  }
  // A fresh volume's answer may have an empty fstype: an empty create made the platform's default.
  const previousFstype = fromData ? undefined : DEFAULT_FSTYPE;
  const outs = volumeOutputs(volume, inputs, programRecord(inputs), { needsRestart, previousFstype });
  return { id: volume.id, outs };
}

/** Extends a restore or fork just made to `sizeGb`; a failure keeps the volume in the stack. */
async function growNew(
  app: string,
  volume: WireVolume,
  inputs: Checked,
): Promise<{ volume: WireVolume; needsRestart: boolean }> {
  try {
    return await converge(app, volume, inputs, false);
  } catch (err) {
    const outputs = volumeOutputs(volume, inputs, programRecord(inputs), { needsRestart: false });
    throw keptInStack(volume.id, outputs, inputs, (err as Error).message);
  }
}

function createAdvice(err: unknown): string | undefined {
  if (isNotFound(err))
    return "Check that the app exists and, for a restore or fork, that snapshotId/sourceVolumeId exist";
  return undefined;
}

/** Reads the live volume; a 404, a 410 or state `destroyed` means it is gone (blank id). */
async function read(
  id: string,
  state: VolumeState,
): Promise<{ id: string; props: EngineProps; inputs?: EngineProps }> {
  const { app } = state;
  let volume: WireVolume;
  try {
    volume = await platformClient().volumes.getListed(app, id);
  } catch (err) {
    if (isMissing(err)) return { id: "", props: {} };
    throw explain(err, `reading volume ${id} (app ${app})`);
  }
  if (GONE_VOLUME_STATES.has(volume.state)) return { id: "", props: {} };
  const outputs = volumeOutputs(volume, state, state, {
    needsRestart: state.needsRestart === true,
    previousFstype: state.fstype,
  });
  return { id, props: outputs, inputs: volumeInputsFromOutputs(outputs) };
}

/**
 * Applies in-place changes (PUT and/or extend) and returns the full outputs. A `sizeGb` below the
 * volume's size (it grew elsewhere) extends nothing: volumes never shrink, and check already
 * refused a program that lowered its own value.
 */
async function update(id: string, olds: VolumeState, news: Checked): Promise<{ outs: VolumeOutputs }> {
  const { app } = news;
  let volume: WireVolume;
  try {
    volume = await platformClient().volumes.get(app, id);
  } catch (err) {
    throw explain(err, `reading volume ${id} (app ${app}) before updating it`);
  }
  volume = await waitRestored(app, volume, news, news);
  const outcome = await converge(app, volume, news, olds.needsRestart === true);
  // The volume stays recorded as made from what it was forked or restored from (see diffSource).
  const recorded = {
    ...news,
    sourceVolumeId: olds.sourceVolumeId ?? news.sourceVolumeId,
    snapshotId: olds.snapshotId ?? news.snapshotId,
  };
  return {
    outs: volumeOutputs(outcome.volume, recorded, programRecord(news), {
      needsRestart: outcome.needsRestart,
      previousFstype: olds.fstype,
    }),
  };
}

/** Deletes the volume; one that is already gone counts as deleted. */
async function remove(id: string, { app }: VolumeState): Promise<void> {
  try {
    await platformClient().volumes.delete(app, id);
  } catch (err) {
    if (isMissing(err)) return;
    throw explain(err, `deleting volume ${id} (app ${app})`);
  }
}

/** A region the program names anew (created, or changed) that the shared list does not know. */
function regionWarnings(olds: EngineProps, news: EngineProps): string[] {
  const region = news.region;
  if (typeof region !== "string" || isUnknown(region) || region === olds.region) return [];
  const warning = regionWarning(region);
  return warning ? [warning] : [];
}

/**
 * A restored (forked) volume whose program names another snapshot (source) than at the last
 * `up` (`olds`, the previous inputs, which the engine records at every up, the volume's step a
 * `same` or not): said at the previews and the up of that change, then not again, since the next
 * run's previous inputs name the new value. The plan (`plan`, ../../runtime/define says where it
 * is known) replaces nothing; one that makes the move a restore (`replaceOnChanges`) says nothing.
 */
function sourceWarnings(olds: EngineProps, news: EngineProps, door: Door, plan: DiffOutcome): string[] {
  const name = typeof news.name === "string" && !isUnknown(news.name) ? news.name : String(olds.name ?? "");
  return (["snapshotId", "sourceVolumeId"] as const).flatMap((key) => {
    const from = olds[key];
    const given = news[key];
    if (typeof from !== "string" || given === undefined || given === null) return [];
    if (plan.properties[key] === "replace") return [];
    const warning = sourceChangedWarning(key, name, from, isUnknown(given) ? undefined : String(given), door);
    return warning ? [warning] : [];
  });
}

/** The provider methods of `Volume`. */
export const volume = defineProvider(volumeDeclaration, {
  state: volumeState,
  changeWarnings: sourceWarnings,
  resourceWarnings: regionWarnings,
  create,
  read,
  update,
  delete: remove,
});
