/**
 * The one diff rule every resource uses: `olds` are the previous OUTPUTS, which hold every input
 * under its own name; `news` are the checked inputs. An input left out of the program is not a
 * change (the platform keeps its value), except `triggers`, which rotate on any difference.
 * @module
 */

import { sameValue } from "../model/json-values";
import { containsUnknown } from "../model/validation";

/** How a resource's inputs affect the diff. */
export interface DiffRules {
  /** Inputs that replace the resource when they change. */
  replaces: readonly string[];
  /** Inputs that update it in place when they change. */
  updates: readonly string[];
  /** Inputs compared even when absent (an absent or empty map equals no map). */
  exact?: readonly string[];
}

/** The diff result the engine gets: `changes` is always set. */
export interface DiffOutcome {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

function normalizeMap(value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) {
    return undefined;
  }
  return value ?? undefined;
}

/** Names of the inputs that differ between `olds` (outputs) and `news` (inputs). */
export function changedInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  rules: DiffRules,
): string[] {
  const changed: string[] = [];
  const exact = new Set(rules.exact ?? []);
  for (const key of [...rules.replaces, ...rules.updates]) {
    const next = news[key];
    if (exact.has(key)) {
      if (containsUnknown(next) || !sameValue(normalizeMap(olds[key]), normalizeMap(next))) changed.push(key);
      continue;
    }
    if (next === undefined || next === null) continue;
    if (containsUnknown(next) || !sameValue(olds[key], next)) changed.push(key);
  }
  return changed;
}

/** Computes the diff; unknown values count as changed. */
export function diffInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  rules: DiffRules,
): DiffOutcome {
  const changed = changedInputs(olds, news, rules);
  const replaces = changed.filter((key) => rules.replaces.includes(key));
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: false };
}
