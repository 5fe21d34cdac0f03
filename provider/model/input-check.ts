/**
 * A declaration's `check`: every rule the program's inputs break, with the cross rules told what
 * the plan does (./change-plan), so a rule that a replace lifts (a volume's shrink) reads the same
 * answer as the diff.
 * @module
 */
import type { z } from "zod";
import { type DiffOutcome, planChanges } from "./change-plan";
import { inputSchema, knownProperties, type ResourceDeclaration } from "./declaration";
import {
  failuresOf,
  type KnownProperties,
  unknownPropertyFailures,
  type ValidationFailure,
  withoutSecretProperties,
} from "./validation/common";

/** What `check` needs of a declaration, built once per declaration (not per call). */
interface CheckRules {
  schema: z.ZodObject;
  known: KnownProperties;
  /** Inputs no failure may name as its property: the secret and the unprinted ones. */
  unnamed: string[];
}

const checkRules = new WeakMap<ResourceDeclaration, CheckRules>();

function checkRulesOf(declaration: ResourceDeclaration): CheckRules {
  let rules = checkRules.get(declaration);
  if (!rules) {
    rules = {
      schema: inputSchema(declaration) as unknown as z.ZodObject,
      known: knownProperties(declaration),
      unnamed: Object.keys(declaration.inputs).filter(
        (k) => declaration.inputs[k]?.secret || declaration.inputs[k]?.unprinted,
      ),
    };
    checkRules.set(declaration, rules);
  }
  return rules;
}

/**
 * Every rule a resource's inputs break: unknown names, shapes and ranges, then the cross rules.
 * `olds` are the previous inputs (empty on create), from which the cross rules' plan is made
 * (`plan`, when the caller made it already). Failures about secret (or unprinted) inputs name no
 * property.
 */
export function inputFailures(
  declaration: ResourceDeclaration,
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
  now: Date = new Date(),
  plan: DiffOutcome | undefined = planFromInputs(declaration, olds, news),
): ValidationFailure[] {
  const { schema, known, unnamed } = checkRulesOf(declaration);
  const failures = [...unknownPropertyFailures(declaration.type, news, known), ...failuresOf(schema, news)];
  const failed = new Set(failures.map((f) => f.property));
  const replaced = plan !== undefined && plan.replaces.length > 0;
  failures.push(...(declaration.rules?.(news, { olds, failed, now, replaced }) ?? []));
  return withoutSecretProperties(failures, unnamed);
}

/**
 * The plan `check` reads: made from the previous inputs (no id is known yet); undefined on a
 * create, which replaces nothing.
 */
export function planFromInputs(
  declaration: ResourceDeclaration,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): DiffOutcome | undefined {
  return Object.keys(olds).length > 0 ? planChanges(declaration, { id: "", olds, news }) : undefined;
}
