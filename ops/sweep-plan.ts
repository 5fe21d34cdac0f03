/**
 * What `pulumi-platform recover --sweep` finds after the fact: volumes an interrupted `pulumi up`
 * created that the stack never recorded, once its pending creates are gone (`pulumi refresh
 * --clear-pending-creates`, or reruns that created the volume again). Such an orphan has the name
 * and region of a volume the stack owns (its twin), is attached to nothing, and was created
 * around the twin: after the last update that completed before the twin's own update (the stack's
 * history says when; never longer than `windowMs` before the twin), and before the twin — or, when
 * the killed CLI's provider process outlived it, before the end of the twin's own update. Reading
 * only; the command deletes what the plan names.
 *
 * What it cannot tell apart: a volume someone else created, unattached, with the name and region
 * of an owned one, inside that window. `recover` removes from the lists it is given every volume
 * another stack of the backend records (./other-stacks), so only a person's, or an unreadable
 * stack's, remains (then deleting needs `--yes-delete-unowned`).
 * @module
 */
import { GONE_VOLUME_STATES } from "../sdk/schemas/volume-constants";
import { type CheckpointResource, type ExportedDeployment, kindOf, type ListedVolume } from "./recover-plan";

/**
 * A `pulumi up` of the stack that completed (`pulumi stack history`, kind `update`). Refreshes and
 * destroys are left out: one run after the kill (`refresh --clear-pending-creates`) says nothing
 * of when the killed `up` began.
 */
export interface CompletedUpdate {
  startTime: Date;
  endTime: Date;
}

/** One orphan to delete, with its owned twin. */
export interface Orphan {
  app: string;
  id: string;
  what: string;
  /** The owned resource it duplicates. */
  twin: string;
}

/**
 * The earliest an update interrupted before `at` can have started: the end of the last update that
 * completed before the update that was running at `at` (or, when none was, before `at`), and never
 * earlier than `windowMs` before `at`.
 */
export function interruptedSince(updates: CompletedUpdate[], at: Date, windowMs: number): Date {
  const t = at.getTime();
  const running = runningAt(updates, t);
  const before = running ? running.startTime.getTime() : t;
  const ends = updates.map((u) => u.endTime.getTime()).filter((end) => end <= before);
  return new Date(Math.max(t - windowMs, ...ends));
}

/** The completed update that was running at `t`, if one was. */
function runningAt(updates: CompletedUpdate[], t: number): CompletedUpdate | undefined {
  // The history keeps whole seconds, rounded down.
  return updates.find((u) => u.startTime.getTime() <= t && t < u.endTime.getTime() + 1000);
}

/**
 * The latest an orphan of a twin made at `at` can have been created: the end of the update that
 * made the twin (a killed CLI's provider process can outlive it and create during the rerun),
 * else the twin's own creation.
 */
export function interruptedUntil(updates: CompletedUpdate[], at: Date): Date {
  const running = runningAt(updates, at.getTime());
  return running ? new Date(running.endTime.getTime() + 1000) : at;
}

interface Twin {
  urn: string;
  app: string;
  name: string;
  region: string;
  createdAt: Date;
}

function twinOf(r: CheckpointResource): Twin | undefined {
  if (kindOf(r.type) !== "volume" || !r.id) return undefined;
  const o = { ...(r.inputs ?? {}), ...(r.outputs ?? {}) };
  const createdAt = new Date(String(o.createdAt));
  if (typeof o.app !== "string" || typeof o.name !== "string" || Number.isNaN(createdAt.getTime())) {
    return undefined;
  }
  return { urn: r.urn, app: o.app, name: o.name, region: String(o.region ?? ""), createdAt };
}

/** The orphans of the stack's volumes, given each app's volumes and the stack's history. */
export async function planSweep(
  exported: ExportedDeployment,
  updates: CompletedUpdate[],
  volumes: (app: string) => Promise<ListedVolume[]>,
  options: { windowMs: number },
): Promise<Orphan[]> {
  const resources = exported.deployment.resources ?? [];
  const owned = new Set(resources.filter((r) => kindOf(r.type) === "volume" && r.id).map((r) => r.id));
  const twins = resources.map(twinOf).filter((t): t is Twin => t !== undefined);
  const orphans = new Map<string, Orphan>();
  for (const app of new Set(twins.map((t) => t.app))) {
    const listed = await volumes(app);
    for (const twin of twins.filter((t) => t.app === app)) {
      const since = interruptedSince(updates, twin.createdAt, options.windowMs).getTime();
      const until = interruptedUntil(updates, twin.createdAt).getTime();
      for (const v of listed) {
        const created = Date.parse(v.created_at);
        const matches =
          !owned.has(v.id) &&
          !GONE_VOLUME_STATES.has(v.state) &&
          v.attached_machine_id === null &&
          v.name === twin.name &&
          (twin.region === "" || v.region === twin.region) &&
          created > since &&
          created < until;
        if (matches && !orphans.has(v.id)) {
          orphans.set(v.id, {
            app,
            id: v.id,
            what: `volume ${v.id} "${v.name}" (${v.region}, created ${v.created_at}, not attached)`,
            twin: `${twin.urn} (created ${twin.createdAt.toISOString()})`,
          });
        }
      }
    }
  }
  return [...orphans.values()];
}
