/**
 * Runs `preview`, `up` or `refresh` of an Automation API stack and keeps what a user sees and the
 * engine planned: the printed output, each step's operation by resource, and the warnings.
 */
import type { EngineEvent, PreviewOptions, Stack, UpOptions } from "@pulumi/pulumi/automation";

/** What one command printed and planned. */
export interface Observed<R> {
  result: R;
  /** Everything the CLI printed. */
  output: string;
  /**
   * Every step that changes something, as `op name` (the URN's last part); a replacement is one
   * `replace`. A refresh's changes are in its result's summary.
   */
  changes: string[];
  /**
   * The text of every warning, with the name of the resource it is attached to (or "stack"); not
   * the CLI's notice of where it found the plugin.
   */
  warnings: string[];
  /**
   * What the engine planned for each resource that changes, by name (the URN's last part): the
   * step, the properties named as changed (`diffs`, preview --json's `diffReasons`) and the
   * provider's detailed diff (kind by property; undefined when the provider gave none).
   */
  planned: Record<string, PlannedStep>;
}

/** One resource's planned step (see {@link Observed.planned}). */
export interface PlannedStep {
  op: string;
  diffs: string[];
  replaceReasons: string[];
  detailedDiff: Record<string, string> | undefined;
}

/** Steps that change nothing (a refresh's own steps are judged by its summary). */
const UNCHANGED = new Set(["same", "read", "refresh"]);
/** The steps of one replacement, reported as one `replace`. */
const REPLACEMENT = new Set(["replace", "create-replacement", "delete-replaced"]);

const lastPart = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * The CLI's notice, in every command of a program using the provider plugin from PATH, of where it
 * found it: the CLI's, about the setup, not a warning about the stack.
 */
const PLUGIN_FOUND = /^using pulumi-resource-platform from \$PATH/;

function observed<R>(result: R, output: string, events: EngineEvent[]): Observed<R> {
  const changes = events.flatMap((e) => {
    const meta = e.resourcePreEvent?.metadata;
    // A provider's own step (its config changed with the stack's) is not a resource's change.
    if (!meta || UNCHANGED.has(meta.op) || meta.type.startsWith("pulumi:providers:")) return [];
    return [`${REPLACEMENT.has(meta.op) ? "replace" : meta.op} ${lastPart(meta.urn)}`];
  });
  const warnings = events.flatMap((e) => {
    const d = e.diagnosticEvent;
    if (d?.severity !== "warning" || PLUGIN_FOUND.test(d.message)) return [];
    return [`${d.urn ? lastPart(d.urn) : "stack"}: ${d.message.trim()}`];
  });
  const planned: Record<string, PlannedStep> = {};
  for (const e of events) {
    const meta = e.resourcePreEvent?.metadata;
    if (!meta || UNCHANGED.has(meta.op) || meta.type.startsWith("pulumi:providers:")) continue;
    const name = lastPart(meta.urn);
    if (planned[name]) continue;
    const detailed = meta.detailedDiff;
    planned[name] = {
      op: REPLACEMENT.has(meta.op) ? "replace" : meta.op,
      diffs: [...(meta.diffs ?? [])].sort(),
      replaceReasons: [...(meta.keys ?? [])].sort(),
      detailedDiff: detailed
        ? Object.fromEntries(Object.entries(detailed).map(([k, v]) => [k, String(v.diffKind)]))
        : undefined,
    };
  }
  return { result, output, changes: [...new Set(changes)], warnings, planned };
}

type Run<R> = (opts: { onOutput: (s: string) => void; onEvent: (e: EngineEvent) => void }) => Promise<R>;

async function run<R>(command: Run<R>): Promise<Observed<R>> {
  let output = "";
  const events: EngineEvent[] = [];
  const result = await command({ onOutput: (s) => (output += s), onEvent: (e) => events.push(e) });
  return observed(result, output, events);
}

/** `pulumi preview`, observed; `options` such as `diff`. */
export const observedPreview = (stack: Stack, options: PreviewOptions = {}) =>
  run((o) => stack.preview({ ...options, ...o }));
/** `pulumi up --yes` (no separate preview), observed; `options` such as `replace`. */
export const observedUp = (stack: Stack, options: UpOptions = {}) =>
  run((o) => stack.up({ ...options, ...o }));
/** `pulumi refresh --yes`, observed. */
export const observedRefresh = (stack: Stack) => run((o) => stack.refresh(o));

/** PEM armour or key material: none of it may appear in anything a command prints. */
export const PEM = /-----BEGIN|PRIVATE KEY/;

/** A member of the program's `state` output after an `up` (the day-2 and lifetime programs export one). */
export const stateValue = (up: Awaited<ReturnType<Stack["up"]>>, key: string): unknown =>
  (up.outputs.state?.value as Record<string, unknown> | undefined)?.[key];
