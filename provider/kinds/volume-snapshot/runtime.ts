/**
 * VolumeSnapshotRequest (the dynamic resource inside the VolumeSnapshot component): takes an
 * on-demand snapshot (beta endpoint) and waits until the snapshot is listed. Snapshots are
 * removed by retention, so delete leaves the platform alone. A snapshot is an event: once
 * retention removes it, refresh records `listed: false` and keeps the resource and its id, so a
 * volume restored from it is never replaced because time passed.
 * @module
 */
import {
  AmbiguousRequestError,
  AmbiguousTakeOverError,
  type Backup,
  lookVerdict,
  lostAnswerText,
  type Snapshot,
} from "../../../sdk";
import { sleep } from "../../../sdk/retry";
import { poll } from "../../../sdk/wait";
import { storedInputs } from "../../model/declaration";
import { clean, pick } from "../../model/json-values";
import { platformClient } from "../../runtime/credentials";
import {
  type CheckedInputs,
  defineProvider,
  type EngineProps,
  type Outs,
  type RecordedOutputs,
} from "../../runtime/define";
import { explain, isMissing, TimeoutError } from "../../runtime/errors";
import { KEEP_WAITING, keptInStack, waitMs } from "../../runtime/kept-in-stack";
import { warnOfCall } from "../../runtime/warnings";
import { DEFAULT_SNAPSHOT_WAIT_SECONDS, volumeSnapshotDeclaration } from "./declaration";
import {
  BACKUP_KEYS,
  type BackupFacts,
  backupFields,
  type Sighting,
  type SnapshotFacts,
  snapshotInfo,
  snapshotOutputs,
} from "./mapping";

type Declaration = typeof volumeSnapshotDeclaration;
type Checked = CheckedInputs<Declaration>;
type SnapshotOutputs = Outs<Declaration>;

/**
 * The previous outputs. Every release recorded the app, the volume and the snapshot id (the
 * resource's id); `lastSeenAt` and the backup's fields may be missing (older releases, a lost answer).
 */
type SnapshotState = RecordedOutputs<Declaration> & { app: string; volumeId: string; snapshotId: string };

function snapshotState(recorded: RecordedOutputs<Declaration>): SnapshotState {
  return {
    ...recorded,
    app: recorded.app ?? "",
    volumeId: recorded.volumeId ?? "",
    snapshotId: String(recorded.snapshotId),
  };
}

const STORED = storedInputs(volumeSnapshotDeclaration);

const seenNow = (): Sighting => ({ listed: true, lastSeenAt: new Date().toISOString() });
const NOT_YET_LISTED: Sighting = { listed: false, lastSeenAt: null };
const outputs = snapshotOutputs;

/** What the previous outputs know of the backup record. */
function backupOf(state: SnapshotState): BackupFacts {
  return { ...pick(state, BACKUP_KEYS), snapshotId: state.snapshotId };
}

/** Starts the snapshot and waits until it is listed; its id is the snapshot id (`graph_id`). */
async function create(inputs: Checked): Promise<{ id: string; outs: SnapshotOutputs }> {
  const { app, volumeId, waitTimeoutSeconds } = inputs;
  const volumes = platformClient().volumes;
  const action = `taking an on-demand snapshot of volume ${volumeId} (app ${app})`;
  const timeoutMs = waitMs(waitTimeoutSeconds, DEFAULT_SNAPSHOT_WAIT_SECONDS);
  let before: Set<string>;
  try {
    before = new Set((await volumes.listSnapshots(app, volumeId)).map((s) => s.id));
  } catch (err) {
    throw explain(err, `listing snapshots of volume ${volumeId} (app ${app}) before ${action}`);
  }
  let backup: Backup;
  try {
    backup = await volumes.createSnapshot(app, volumeId);
  } catch (err) {
    if (!(err instanceof AmbiguousRequestError)) throw explain(err, action);
    return identifyLostSnapshot(inputs, before, timeoutMs, err);
  }
  const fields = backupFields(backup);
  try {
    const snapshot = await volumes.waitForSnapshot(app, volumeId, backup.graph_id, { timeoutMs });
    return { id: backup.graph_id, outs: outputs(inputs, fields, snapshotInfo(snapshot), seenNow()) };
  } catch (err) {
    const message =
      err instanceof TimeoutError
        ? `snapshot ${backup.graph_id} (backup ${backup.id}) of volume ${volumeId} is not listed yet after ${timeoutMs / 1000} s (waitTimeoutSeconds): ${err.message}. ${KEEP_WAITING}`
        : explain(err, `waiting for snapshot ${backup.graph_id} of volume ${volumeId} to be listed`).message;
    throw keptInStack(backup.graph_id, outputs(inputs, fields, undefined, NOT_YET_LISTED), inputs, message);
  }
}

/**
 * The snapshot POST is not idempotent, so a lost answer is never repeated: the snapshot it took,
 * if any, is the one snapshot of the volume that was not listed before the POST. Exactly one new
 * snapshot is taken into the stack; none within the wait, or more than one (someone else took one
 * at the same time), fails naming what was seen and what to do.
 */
async function identifyLostSnapshot(
  inputs: Checked,
  before: Set<string>,
  timeoutMs: number,
  lost: AmbiguousRequestError,
): Promise<{ id: string; outs: SnapshotOutputs }> {
  const { app, volumeId } = inputs;
  let fresh: Snapshot[] = [];
  const look = async (signal?: AbortSignal) => {
    const list = await platformClient().volumes.listSnapshots(app, volumeId, { signal });
    fresh = list.filter((s) => !before.has(s.id));
    return fresh.length > 0 ? fresh : undefined;
  };
  await poll({ timeoutMs }, look).catch(() => undefined);
  // Another snapshot taken at about the same time (an automatic one, say) may be listed a moment
  // later: look once more before deciding that the first new one is ours.
  if (fresh.length === 1) {
    await sleep(1000);
    await look().catch(() => undefined);
  }
  // The retry policy's one rule (lookVerdict): one new snapshot is taken, and the run says so.
  const verdict = lookVerdict(fresh);
  if (verdict.take === "one") {
    const only = verdict.candidate;
    warnOfCall(
      `snapshot ${only.id} of volume ${volumeId} (app ${app}, created ${only.created_at}) was taken over after the answer to its POST was lost (${lostAnswerText(lost)}): it is the only snapshot of the volume listed since, so it is taken as this request's. If someone else took a snapshot of the volume at that moment, it may be theirs`,
    );
    const backup = { snapshotId: only.id, backupId: null, backupCreatedAt: only.created_at };
    return { id: only.id, outs: outputs(inputs, backup, snapshotInfo(only), seenNow()) };
  }
  if (verdict.take === "none-of-many") {
    throw new AmbiguousTakeOverError(
      "POST",
      lost.path,
      `new snapshots of volume ${volumeId} (app ${app})`,
      verdict.candidates.map((s) => ({ id: s.id, detail: `created ${s.created_at}` })),
      "None is recorded in the stack (retention removes the one this request may have taken, in time); run `pulumi up` again to take a new one.",
      lost,
    );
  }
  throw new Error(
    `taking an on-demand snapshot of volume ${volumeId} (app ${app}): the answer was lost (${lost.message}); no new snapshot of the volume was listed within ${timeoutMs / 1000} s (waitTimeoutSeconds), so none is recorded. If one appears later it is not in the stack (retention removes it); run \`pulumi up\` again to take the snapshot`,
  );
}

/** Whether a create's wait for the snapshot to be listed timed out and nothing has listed it since. */
function pendingListing(props: SnapshotState): boolean {
  return props.listed === false && (props.lastSeenAt === undefined || props.lastSeenAt === null);
}

/**
 * A snapshot that was listed and no longer is (retention removed it, or its volume is gone): the
 * record stays, with what was known of it, `listed: false` and when it was last seen.
 */
function noLongerListed(props: SnapshotState): SnapshotOutputs {
  const lastSeenAt = [props.lastSeenAt, props.createdAt, props.backupCreatedAt].find(
    (t): t is string => typeof t === "string",
  );
  return outputs(props, backupOf(props), snapshotOf(props), {
    listed: false,
    lastSeenAt: lastSeenAt ?? new Date().toISOString(),
  });
}

/**
 * Looks the snapshot up in the volume's list. One no longer listed stays in the stack with
 * `listed: false` (never a blank id: the engine would delete it from the stack and plan a new
 * snapshot, replacing every volume restored from this one).
 */
async function read(
  id: string,
  props: SnapshotState,
): Promise<{ id: string; props: EngineProps; inputs: EngineProps }> {
  const { app, volumeId } = props;
  let list: Snapshot[];
  try {
    list = await platformClient().volumes.listSnapshots(app, volumeId);
  } catch (err) {
    if (!isMissing(err)) throw explain(err, `listing snapshots of volume ${volumeId} (app ${app})`);
    // A snapshot never listed, of a volume that is gone, was never taken: nothing to keep.
    if (pendingListing(props)) return { id: "", props: {}, inputs: {} };
    list = [];
  }
  const snapshot = list.find((s) => s.id === id);
  // Not listed yet after a timed-out create: still pending.
  const outs = snapshot
    ? outputs(props, backupOf(props), snapshotInfo(snapshot), seenNow())
    : pendingListing(props)
      ? clean({ ...props })
      : noLongerListed(props);
  return { id, props: outs, inputs: pick(outs, STORED) };
}

/**
 * Only the wait timeout can change in place; a snapshot still unlisted is waited for again. The
 * volume stays the one the snapshot was taken of, whatever `volumeId` the program gives now.
 */
async function update(id: string, olds: SnapshotState, given: Checked): Promise<{ outs: SnapshotOutputs }> {
  const news = { ...given, volumeId: olds.volumeId || given.volumeId };
  const { app, volumeId } = news;
  const backup = backupOf(olds);
  if (!pendingListing(olds)) {
    const sighting = { listed: olds.listed === true, lastSeenAt: olds.lastSeenAt ?? null };
    return { outs: outputs(news, backup, snapshotOf(olds), sighting) };
  }
  const timeoutMs = waitMs(news.waitTimeoutSeconds, DEFAULT_SNAPSHOT_WAIT_SECONDS);
  try {
    const snapshot = await platformClient().volumes.waitForSnapshot(app, volumeId, id, { timeoutMs });
    return { outs: outputs(news, backup, snapshotInfo(snapshot), seenNow()) };
  } catch (err) {
    throw keptInStack(
      id,
      outputs(news, backup, undefined, NOT_YET_LISTED),
      news,
      explain(err, `waiting for snapshot ${id} of volume ${volumeId} to be listed`).message,
    );
  }
}

/** What the stack recorded of the snapshot, under the mapping's names. */
function snapshotOf(props: SnapshotState): SnapshotFacts {
  return {
    snapshotId: props.snapshotId,
    size: props.size ?? null,
    digest: props.digest ?? null,
    createdAt: props.createdAt ?? null,
    // A listed snapshot whose retention the platform did not give stays null (not 0).
    retentionDays: props.retentionDays ?? null,
  };
}

/** Nothing at the platform: retention removes snapshots. */
async function remove(_id: string, _props: SnapshotState): Promise<void> {}

/** The provider methods of `VolumeSnapshotRequest`. */
export const volumeSnapshot = defineProvider(volumeSnapshotDeclaration, {
  state: snapshotState,
  create,
  read,
  update,
  delete: remove,
});
