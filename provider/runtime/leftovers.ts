/**
 * Telling the user, in the run itself, that a create may be the rerun of an interrupted one: the
 * app has an unattached volume of the same name and region, made in the last day, that this
 * process's creates did not make. A pipeline that reran after a kill without `pulumi-platform
 * recover` leaves exactly that behind (the engine only warns about pending operations in
 * general). The warning names the command that finds and removes such volumes; it cannot know
 * whether the stack owns them, so it says "if".
 *
 * Two looks, neither a list per create (N creates would cost N²): each create compares with the
 * list its client took before its first create in the app; and before the provider process stops,
 * one more list names the same-named volumes that landed while the command ran. A killed CLI's
 * provider process can outlive it and go on creating after the rerun's first list.
 * @module
 */
import type { TakeOver, UnknownCreate, Volume as WireVolume } from "../../sdk";
import { GONE_VOLUME_STATES } from "../../sdk/schemas/volume-constants";
import { hostWarn } from "../pulumi-sdk/processes";
import { beforeStop } from "./before-stop";
import { type ProviderClient, platformClient } from "./credentials";
import { type WarningSink, warn } from "./warnings";

/** How recent a same-named volume must be to be suspected (the sweep's default window). */
const SUSPECT_FOR_MS = 86_400_000;

/** What one client's creates in one app have made and named so far. */
interface AppWatch {
  inFlight: number;
  /** The look before the process stops is waiting. */
  armed: boolean;
  /** Volumes these creates returned: never suspects. */
  made: Map<string, WireVolume>;
  /** Suspects already named in a warning. */
  named: Set<string>;
}

const watches = new WeakMap<ProviderClient, Map<string, AppWatch>>();

function watchOf(client: ProviderClient, app: string): AppWatch {
  const apps = watches.get(client) ?? new Map<string, AppWatch>();
  watches.set(client, apps);
  const watch = apps.get(app) ?? { inFlight: 0, armed: false, made: new Map(), named: new Set() };
  apps.set(app, watch);
  return watch;
}

/** Whether `v` could be a leftover at all: live, unattached, made in the last day. */
function leftoverLike(v: WireVolume, now: number): boolean {
  return (
    !GONE_VOLUME_STATES.has(v.state) &&
    v.attached_machine_id === null &&
    now - Date.parse(v.created_at) < SUSPECT_FOR_MS
  );
}

/** What a leftover shares with the volume it duplicates. */
const nameAndRegion = (v: WireVolume) => `${v.name}\u0000${v.region}`;

/** Same-named, unattached, recent volumes the app had before this client's first create there. */
export async function suspectedLeftovers(app: string, created: WireVolume): Promise<WireVolume[]> {
  const before = await platformClient().volumes.listedBeforeCreates(app);
  const now = Date.now();
  const twin = nameAndRegion(created);
  return before.filter((v) => v.id !== created.id && nameAndRegion(v) === twin && leftoverLike(v, now));
}

const RECOVER_ADVICE =
  "If an interrupted `pulumi up` made them, they are orphans now: `npx pulumi-platform recover --sweep` lists them, `--sweep --delete --yes` deletes them (run `recover --unlock-if-stale --yes` before every `up` to avoid this)";

function listed(volumes: WireVolume[]): string {
  return volumes.map((v) => `${v.id}, created ${v.created_at}`).join("; ");
}

/** The warning about `suspects` of the volume just created, or undefined when there are none. */
export function leftoverWarning(
  app: string,
  created: WireVolume,
  suspects: WireVolume[],
  uncertain: readonly UnknownCreate[] = [],
): string | undefined {
  const { own, others } = splitOwn(suspects, uncertain);
  const parts: string[] = [];
  if (others.length > 0)
    parts.push(
      `volume "${created.name}" (${created.id}) was created while app ${app} already had ${others.length} unattached volume(s) of that name and region made in the last day (${listed(others)}). ${RECOVER_ADVICE}`,
    );
  if (own.length > 0) parts.push(ownWarning(app, own));
  return parts.length > 0 ? parts.join("\n") : undefined;
}

/** The warning about suspects that landed while this process's creates ran, or undefined. */
export function lateLeftoverWarning(
  app: string,
  suspects: WireVolume[],
  uncertain: readonly UnknownCreate[] = [],
): string | undefined {
  const { own, others } = splitOwn(suspects, uncertain);
  const parts: string[] = [];
  if (others.length > 0) {
    const names = [...new Set(others.map((v) => `"${v.name}"`))].join(", ");
    parts.push(
      `while this run created volume(s) ${names}, app ${app} got ${others.length} more unattached volume(s) of those names and regions that this run did not make (${listed(others)}); a killed \`pulumi up\` whose provider process outlived it may still be creating. ${RECOVER_ADVICE}`,
    );
  }
  if (own.length > 0) parts.push(ownWarning(app, own));
  return parts.length > 0 ? parts.join("\n") : undefined;
}

/**
 * Suspects this run's own creates may have made: a create attempt whose answer could not be
 * trusted and whose look found nothing, of that name (and region), sent before the suspect was
 * (the sdk's window: the platform's clock from its `Date` header, else a fixed slack).
 */
function splitOwn(
  suspects: WireVolume[],
  uncertain: readonly UnknownCreate[],
): { own: WireVolume[]; others: WireVolume[] } {
  const mayBeOwn = (v: WireVolume) =>
    uncertain.some(
      (a) =>
        a.name === v.name &&
        (a.region === undefined || a.region === v.region) &&
        Date.parse(v.created_at) >= a.madeFrom,
    );
  return { own: suspects.filter(mayBeOwn), others: suspects.filter((v) => !mayBeOwn(v)) };
}

function ownWarning(app: string, own: WireVolume[]): string {
  const names = [...new Set(own.map((v) => `"${v.name}"`))].join(", ");
  return `this run's create of volume(s) ${names} in app ${app} got an answer it could not trust, found nothing when it looked, and was sent again: ${own.length} unattached volume(s) of that name and region that the stack does not own may be what that attempt made (${listed(own)}). \`npx pulumi-platform recover --sweep\` lists them, \`--sweep --delete --yes\` deletes them`;
}

/**
 * The warning that a create's answer was lost and its look took a volume over (the sdk's rule,
 * `lookVerdict`): the volume's id and why, so that a person can check it is not another writer's.
 */
export function takeOverWarning(
  app: string,
  volume: WireVolume,
  takeOver: TakeOver | undefined,
): string | undefined {
  if (!takeOver) return undefined;
  return `volume "${volume.name}" in app ${app} is ${volume.id}, taken over after a lost answer: ${takeOver.why} (another stack's volume in your state would be deleted by your \`pulumi destroy\`; if it is not yours, \`pulumi state delete\` it and run \`pulumi up\` again)`;
}

/** Warns with `warning` when there is one; `about`: the call's sink, if it names one (./warnings). */
async function send(warning: string | undefined, about?: WarningSink): Promise<void> {
  // The dynamic host's way loads only Pulumi's log module (../pulumi-sdk/processes' `hostWarn`);
  // the plugin sends the warning to the engine and loads neither.
  if (warning) await warn(warning, hostWarn, about);
}

/** Names the suspects that landed since the first list, alike to what this process made there. */
async function lookAgain(client: ProviderClient, app: string, watch: AppWatch): Promise<void> {
  // A create still in flight (a cancelled command) may be in the list before its answer came.
  if (watch.inFlight > 0) return;
  const volumes = await client.volumes.list(app);
  const before = new Set((await client.volumes.listedBeforeCreates(app)).map((v) => v.id));
  const now = Date.now();
  const twins = new Set([...watch.made.values()].map(nameAndRegion));
  const late = volumes.filter(
    (v) =>
      !watch.made.has(v.id) &&
      !before.has(v.id) &&
      !watch.named.has(v.id) &&
      twins.has(nameAndRegion(v)) &&
      leftoverLike(v, now),
  );
  for (const v of late) watch.named.add(v.id);
  await send(lateLeftoverWarning(app, late, client.volumes.uncertainCreates(app)));
}

/**
 * Runs a volume create (`post`) and warns about what looks like an interrupted run's leftovers
 * (see the module's comment); the create's own outcome is never changed by the warnings, which go
 * to `about` when the call names its resource (./warnings).
 */
export async function createWarningAboutLeftovers(
  app: string,
  post: () => Promise<WireVolume>,
  about?: WarningSink,
): Promise<WireVolume> {
  const client = platformClient();
  const watch = watchOf(client, app);
  watch.inFlight += 1;
  let volume: WireVolume;
  try {
    volume = await post();
  } finally {
    watch.inFlight -= 1;
  }
  watch.made.set(volume.id, volume);
  await send(takeOverWarning(app, volume, client.volumes.takenOver(app, volume.id)), about).catch(
    () => undefined,
  );
  if (!watch.armed) {
    watch.armed = true;
    beforeStop(async () => {
      watch.armed = false;
      await lookAgain(client, app, watch).catch(() => undefined);
    });
  }
  try {
    const suspects = (await suspectedLeftovers(app, volume)).filter((v) => !watch.named.has(v.id));
    for (const v of suspects) watch.named.add(v.id);
    await send(leftoverWarning(app, volume, suspects, client.volumes.uncertainCreates(app)), about);
  } catch {
    // A notice only: the create succeeded.
  }
  return volume;
}
