/**
 * Telling the user, in the run itself, that a create may be the rerun of an interrupted one: the
 * app already had, before this command's first create there, an unattached volume of the same name
 * and region made in the last day, which this create did not make. A pipeline that reran after a
 * kill without `pulumi-platform recover` leaves exactly that behind (the engine only warns about
 * pending operations in general). The warning names the command that finds and removes such
 * volumes; it cannot know whether the stack owns them, so it says "if".
 * @module
 */
import type { Volume as WireVolume } from "../../sdk";
import { GONE_VOLUME_STATES } from "../../sdk/schemas/volume-constants";
import { platformClient } from "./credentials";
import { warn } from "./warnings";

/** How recent a same-named volume must be to be suspected (the sweep's default window). */
const SUSPECT_FOR_MS = 86_400_000;

/** Same-named, unattached, recent volumes the app had before this command's first create there. */
export async function suspectedLeftovers(app: string, created: WireVolume): Promise<WireVolume[]> {
  const before = await platformClient().volumes.listedBeforeCreates(app);
  const now = Date.now();
  return before.filter(
    (v) =>
      v.id !== created.id &&
      v.name === created.name &&
      v.region === created.region &&
      !GONE_VOLUME_STATES.has(v.state) &&
      v.attached_machine_id === null &&
      now - Date.parse(v.created_at) < SUSPECT_FOR_MS,
  );
}

/** The warning about `suspects` of the volume just created, or undefined when there are none. */
export function leftoverWarning(
  app: string,
  created: WireVolume,
  suspects: WireVolume[],
): string | undefined {
  if (suspects.length === 0) return undefined;
  const listed = suspects.map((v) => `${v.id}, created ${v.created_at}`).join("; ");
  return `volume "${created.name}" (${created.id}) was created while app ${app} already had ${suspects.length} unattached volume(s) of that name and region made in the last day (${listed}). If an interrupted \`pulumi up\` made them, they are orphans now: \`npx pulumi-platform recover --sweep\` lists them, \`--sweep --delete --yes\` deletes them (run \`recover --unlock-if-stale --yes\` before every \`up\` to avoid this)`;
}

/** Warns about what {@link suspectedLeftovers} finds; never fails the create. */
export async function warnAboutLeftovers(app: string, created: WireVolume): Promise<void> {
  try {
    const warning = leftoverWarning(app, created, await suspectedLeftovers(app, created));
    // The dynamic host's way loads only Pulumi's log module (the package's index would load the
    // whole Pulumi runtime); the plugin sends the warning to the engine and loads neither.
    if (warning) await warn(warning, async (text) => (await import("@pulumi/pulumi/log")).warn(text));
  } catch {
    // A notice only: the create succeeded.
  }
}
