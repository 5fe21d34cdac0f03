/**
 * What time does to a resource between two runs, as pure functions shared by the runtime (the
 * outputs it records) and the program (the warnings it prints): days until a custom
 * certificate's expiry and the warning from `expiryWarningDays` before it, and the warning for a
 * volume grown outside the stack. No message holds PEM text or key material.
 * @module
 */

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;

/** Default of `expiryWarningDays`: warn from 30 days before a custom certificate expires. */
export const DEFAULT_EXPIRY_WARNING_DAYS = 30;

/** `2027-01-10 08:30 UTC` */
function utc(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The warning for a custom certificate expiring at `expiresAt`, seen at `now` with a window of
 * `windowDays`; undefined while it is further away than that.
 */
export function certificateExpiryWarning(
  hostname: string,
  expiresAt: string,
  now: Date,
  windowDays: number = DEFAULT_EXPIRY_WARNING_DAYS,
): string | undefined {
  const at = new Date(expiresAt);
  const left = at.getTime() - now.getTime();
  if (Number.isNaN(left)) return undefined;
  const renew = "import a renewed chain (new fullchain and privateKey) and run `pulumi up`";
  if (left <= 0) {
    const days = Math.floor(-left / DAY_MS);
    const ago = days === 0 ? "less than a day ago" : days === 1 ? "1 day ago" : `${days} days ago`;
    return `EXPIRED: the custom certificate of ${hostname} expired on ${utc(at)} (${ago}); clients served it see an expired certificate: ${renew}`;
  }
  if (left > windowDays * DAY_MS) return undefined;
  const days = Math.floor(left / DAY_MS);
  const within = days === 0 ? "in less than a day" : days === 1 ? "in 1 day" : `in ${days} days`;
  return `the custom certificate of ${hostname} expires on ${utc(at)} (${within}): ${renew} before then`;
}

/** Whole days from `now` until `expiresAt` (negative once expired); null when unknown. */
export function daysUntil(expiresAt: string | null, now: Date): number | null {
  if (expiresAt === null) return null;
  const left = Date.parse(expiresAt) - now.getTime();
  return Number.isNaN(left) ? null : Math.floor(left / DAY_MS);
}

/** The warning for a volume the platform reports larger than the program asks for. */
export function grownElsewhereWarning(
  name: string,
  volumeId: string,
  platformGb: number,
  programGb: number,
  fromData = false,
): string | undefined {
  if (!(platformGb > programGb)) return undefined;
  const why = fromData
    ? "its snapshot or source volume was larger, or it grew outside this stack"
    : "it grew outside this stack";
  return `volume ${name} (${volumeId}) is ${platformGb} GB at the platform, more than sizeGb ${programGb} in the program: ${why}. It keeps ${platformGb} GB (volumes never shrink) and no change is planned; set sizeGb to ${platformGb} to record it`;
}

/**
 * The warning for a snapshot whose program now names another volume than the one it was taken of
 * (a snapshot is an event: no new one is taken).
 */
export function snapshotSourceChangedWarning(
  snapshotId: string,
  takenOf: string,
  given: string,
): string | undefined {
  if (takenOf === "" || takenOf === given) return undefined;
  return `snapshot ${snapshotId} was taken of volume ${takenOf}; volumeId is now ${given}. A snapshot is an event: none is taken of ${given} and nothing restored from ${snapshotId} changes. Change triggers to take a snapshot of ${given}`;
}

/** What a restore (a fork) is made from, by the input that names it. */
const SOURCES = {
  snapshotId: { event: "restore", verb: "restored", what: "snapshot" },
  sourceVolumeId: { event: "fork", verb: "forked", what: "volume" },
} as const;

/** Which door a message is for: the dynamic door serves TypeScript only, the plugin every language. */
export type Door = "dynamic" | "plugin";

/**
 * How to restore (fork) again whenever the source is made anew, in the program's words: the engine's
 * own options, which work in every language (the engine replaces the volume without asking the
 * provider), and for TypeScript the classes' `replaceOnChanges`, which they pass to the provider.
 * Outside TypeScript `replaceOnChanges` on `snapshotId` does nothing (the provider answers no change
 * of it, so the engine has no change to turn into a replace): this text, which the same plan
 * prints, says so.
 */
function againAdvice(key: keyof typeof SOURCES, door: Door): string {
  const { event, what } = SOURCES[key];
  const source = what === "snapshot" ? "the VolumeSnapshot" : "the source Volume";
  const v = what === "snapshot" ? "snap" : "source";
  const typescript = `TypeScript \`replaceWith: [${v}]\` or \`replaceOnChanges: ["${key}"]\``;
  if (door === "dynamic") {
    return `To ${event} again whenever ${source} is made anew, give the Volume the option replaceWith naming it, or replacementTrigger set to its id (${typescript})`;
  }
  return `To ${event} again whenever ${source} is made anew, give the Volume the resource option replaceWith naming it (${typescript}; Python \`replace_with=[${v}]\`; Go \`pulumi.ReplaceWith([]pulumi.Resource{${v}})\`; YAML \`options: { replaceWith: ["\${${v}}"] }\`), or replacementTrigger set to its id; \`replaceOnChanges: ["${key}"]\` does this only from TypeScript classes`;
}

/**
 * The warning for a restored (forked) volume whose program names another snapshot (source volume)
 * than at the last `up`: a restore (a fork) is an event, the volume is kept. Said at the previews
 * and the `up` that make the change (the previous inputs still name `from`), not again, and never
 * when the plan replaces the volume; `given` undefined: the new value is not known until the up
 * (what it comes from changes). `door`: which languages the advice names.
 */
export function sourceChangedWarning(
  key: keyof typeof SOURCES,
  name: string,
  from: string,
  given: string | undefined,
  door: Door,
): string | undefined {
  if (from === "" || from === given) return undefined;
  const { event, verb } = SOURCES[key];
  const change =
    given === undefined
      ? `${key} (${from}) may change at this up (it comes from a resource that changes); nothing is ${verb} from a new value`
      : `${key} changes from ${from} to ${given}; nothing is ${verb} from ${given}`;
  return `volume ${name}: ${change}. A ${event} is an event: the volume and its data are kept (said at the preview and the up of this change only). ${againAdvice(key, door)}; to ${event} again once, replace it (\`pulumi up --replace <urn>\`)`;
}
