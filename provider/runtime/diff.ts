/**
 * The one answer of a diff: for every input that changed, what the change does (`properties`),
 * decided once by the kind (its declaration's `change`, then its own rules for `special` inputs);
 * `changes` and `replaces`, the plugin's `detailedDiff` and the dynamic host's answer are all
 * derived from it (see {@link outcomeOf}), never recomputed.
 *
 * What each input is compared with: a `live` input with the platform's value as the last `up` or
 * refresh saw it (the previous outputs: an update sends what differs from the platform's answer);
 * a `stored` one with the previous input (the engine's old inputs where it gives them, the plugin;
 * else the previous outputs, which hold it as given). An input left out of the program is not a
 * change (the platform keeps its value), except an `exact` one (`triggers`), which changes on any
 * difference.
 * @module
 */

import { sameValue } from "../model/json-values";
import { REPLACE_ON_CHANGES } from "../model/kind";
import { containsUnknown } from "../model/validation";

/**
 * What one input's change does: `update` (applied in place at the platform), `replace` (a new
 * resource), `record` (only recorded in the stack, no platform call), `warn` (nothing at all: a
 * warning says why, e.g. a restored volume's moved `snapshotId`; not a change).
 */
export type PropertyEffect = "update" | "replace" | "record" | "warn";

/** How a resource's declared inputs affect the diff. */
export interface DiffRules {
  /** Inputs that replace the resource when they change. */
  replaces: readonly string[];
  /** Inputs that update it in place when they change. */
  updates: readonly string[];
  /** Inputs that are only recorded when they change. */
  records?: readonly string[];
  /** Inputs compared even when absent (an absent or empty map equals no map). */
  exact?: readonly string[];
  /** Inputs compared with the previous input rather than the platform's value (`stored`). */
  stored?: readonly string[];
}

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

/** Names of the inputs in `rules` that differ between `olds` and `news`. */
export function changedInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  rules: DiffRules,
): string[] {
  const exact = new Set(rules.exact ?? []);
  return [...rules.replaces, ...rules.updates, ...(rules.records ?? [])].filter((key) =>
    inputChanged(olds, news, key, exact.has(key)),
  );
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

/** `outcome` with input `key`'s effect set (or removed, `undefined`), the rest derived again. */
export function withEffect(
  outcome: DiffOutcome,
  key: string,
  effect: PropertyEffect | undefined,
): DiffOutcome {
  const { [key]: _, ...others } = outcome.properties;
  return outcomeOf(effect === undefined ? others : { ...others, [key]: effect }, outcome.deleteBeforeReplace);
}

/**
 * The declared diff: each declared input that changed, with its declared effect. `olds` are the
 * previous outputs; `oldInputs` the previous inputs where the engine gives them (the plugin), with
 * which `stored` inputs are compared. Unknown values count as changed.
 */
export function diffInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  rules: DiffRules,
  oldInputs?: Record<string, unknown>,
): DiffOutcome {
  const stored = new Set(rules.stored ?? []);
  const exact = new Set(rules.exact ?? []);
  const properties: Record<string, PropertyEffect> = {};
  const groups: [readonly string[], PropertyEffect][] = [
    [rules.replaces, "replace"],
    [rules.updates, "update"],
    [rules.records ?? [], "record"],
  ];
  for (const [keys, effect] of groups) {
    for (const key of keys) {
      const before = oldInputs && stored.has(key) ? oldInputs : olds;
      if (inputChanged(before, news, key, exact.has(key))) properties[key] = effect;
    }
  }
  return outcomeOf(properties);
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
