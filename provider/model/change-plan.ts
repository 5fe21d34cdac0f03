/**
 * The one plan of a change: for every input that changed, what the change does (`properties`),
 * decided once from the declaration: an input's tag (`replace`, `update`, `record`), a `special`
 * input's own rule (its `decide`), then the program's `replaceOnChanges`. The diff of both doors
 * answers it (`changes` and `replaces`, the plugin's `detailedDiff` and the dynamic host's answer
 * are derived from it, see {@link outcomeOf}); `check` makes it from the previous inputs for the
 * rules a replace lifts (a volume's shrink) and for the warnings about a change only a replace
 * acts on; docs/resources.md shows each tag.
 *
 * What each input is compared with: a `live` input with the platform's value as the last `up` or
 * refresh saw it (the previous outputs: an update sends what differs from the platform's answer);
 * a `stored` one with the previous input (the engine's old inputs where it gives them, the plugin;
 * else the previous outputs, which hold it as given). An input left out of the program is not a
 * change (the platform keeps its value), except an `exact` one (`triggers`), which changes on any
 * difference.
 * @module
 */

import {
  type ChangeContext,
  type InputChange,
  type PropertyEffect,
  type ResourceDeclaration,
  storedInputs,
} from "./declaration";
import { sameValue } from "./json-values";
import { REPLACE_ON_CHANGES } from "./kind";
import { containsUnknown, isUnknown } from "./validation/common";

export type { ChangeContext, PropertyEffect, SpecialRule } from "./declaration";

/** The diff result the engine gets: `changes`, `replaces` derived from `properties`. */
export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Every input that changed and what its change does; an input not named did not change. */
  properties: Record<string, PropertyEffect>;
}

function normalizeMap(value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) {
    return undefined;
  }
  return value ?? undefined;
}

/** Whether input `key` differs between `olds` and `news` (an unknown value counts as changed). */
export function inputChanged(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  key: string,
  exact = false,
): boolean {
  const next = news[key];
  if (exact) return containsUnknown(next) || !sameValue(normalizeMap(olds[key]), normalizeMap(next));
  if (next === undefined || next === null) return false;
  return containsUnknown(next) || !sameValue(olds[key], next);
}

/** Whether a recorded-only value differs, an absent one equal to null (an unknown one differs). */
export function recordedChanged(olds: Record<string, unknown>, news: Record<string, unknown>, key: string) {
  return isUnknown(news[key]) || !sameValue(news[key] ?? null, olds[key] ?? null);
}

/** `changes` and `replaces` of `properties`: what the engine is told follows from them alone. */
export function outcomeOf(
  properties: Record<string, PropertyEffect>,
  deleteBeforeReplace = false,
): DiffOutcome {
  const effects = Object.entries(properties);
  return {
    changes: effects.some(([, effect]) => effect !== "warn"),
    replaces: effects.filter(([, effect]) => effect === "replace").map(([key]) => key),
    deleteBeforeReplace,
    properties,
  };
}

const TAGGED: Record<Exclude<InputChange, "special">, PropertyEffect> = {
  replace: "replace",
  update: "update",
  record: "record",
};

const storedSets = new WeakMap<ResourceDeclaration, ReadonlySet<string>>();

/** The `stored` inputs of a declaration, found once per declaration (a plan is made per diff). */
function storedOf(declaration: ResourceDeclaration): ReadonlySet<string> {
  let stored = storedSets.get(declaration);
  if (!stored) {
    stored = new Set<string>(storedInputs(declaration));
    storedSets.set(declaration, stored);
  }
  return stored;
}

/**
 * The plan of a change of `declaration`'s resource. `olds`: the previous outputs at `diff`, the
 * previous inputs at `check`; `oldInputs`: the previous inputs where the engine gives them (the
 * plugin's diff), with which `stored` inputs are compared. Unknown values count as changed.
 */
export function planChanges(
  declaration: ResourceDeclaration,
  context: ChangeContext & { readonly oldInputs?: Record<string, unknown> },
): DiffOutcome {
  const { olds, news, oldInputs } = context;
  const stored = storedOf(declaration);
  const properties: Record<string, PropertyEffect> = {};
  for (const [key, input] of Object.entries(declaration.inputs)) {
    let effect: PropertyEffect | undefined;
    if (input.change === "special") {
      effect = input.decide?.(context);
    } else {
      const before = oldInputs && stored.has(key) ? oldInputs : olds;
      if (inputChanged(before, news, key, input.exact === true)) effect = TAGGED[input.change];
    }
    if (effect !== undefined) properties[key] = effect;
  }
  for (const key of declaration.computed ?? []) {
    if (!(key in properties) && recordedChanged(olds, news, key)) properties[key] = "record";
  }
  return applyReplaceOnChanges(outcomeOf(properties), news);
}

export { REPLACE_ON_CHANGES };

/** The paths of the program's `replaceOnChanges` option carried in the inputs, if any. */
export function replaceOnChangesOf(news: Record<string, unknown>): string[] {
  const paths = news[REPLACE_ON_CHANGES];
  return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === "string") : [];
}

/**
 * Whether the program's `replaceOnChanges` names input `key`: the key, a path inside it
 * (`compute.cpus`), or `*`, as the engine reads the option.
 */
export function replacesOnChange(paths: readonly string[], key: string): boolean {
  return paths.some((p) => p === "*" || p === key || p.startsWith(`${key}.`) || p.startsWith(`${key}[`));
}

/**
 * The program's `replaceOnChanges` applied to the kind's answer: every changed input it names
 * replaces, whatever the kind would do with it (a restored volume's new `snapshotId`, a `warn`,
 * becomes a restore). The engine applies the option only to the properties a provider names as
 * changed and only when something changes, and the dynamic host forwards no property names at
 * all; the classes of both doors pass the option along (`__replaceOnChanges`, see
 * ../registration/registration), so it is decided here, once, for both doors.
 */
export function applyReplaceOnChanges(outcome: DiffOutcome, news: Record<string, unknown>): DiffOutcome {
  const paths = replaceOnChangesOf(news);
  if (paths.length === 0) return outcome;
  const properties = { ...outcome.properties };
  for (const key of Object.keys(properties)) {
    if (replacesOnChange(paths, key)) properties[key] = "replace";
  }
  return outcomeOf(properties, outcome.deleteBeforeReplace);
}
