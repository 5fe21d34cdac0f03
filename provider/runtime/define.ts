/**
 * Turns a resource's declaration and its platform calls into the provider object the engine
 * calls: `check` and `diff` come from the declaration; create/read/update/delete are the
 * resource's own. Checked against Pulumi's ResourceProvider at compile time only.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import { inputFailures, inputsWith, type ResourceDeclaration } from "../declaration";
import { clean } from "../json-values";
import { credentialProblems, noteProgramOperation } from "./credentials";
import { type DiffOutcome, diffInputs } from "./diff";
import { withVersion } from "./version";

type Props = Record<string, unknown>;

/** What a resource does at the platform; everything else comes from its declaration. */
export interface ResourceBehaviour {
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
  /** Adjusts the declared diff for `special` inputs; `olds` are the previous outputs. */
  diff?(id: string, olds: Props, news: Props, declared: DiffOutcome): DiffOutcome;
  /**
   * Inputs the resource computes at check time from the previous inputs (`olds`) and the checked
   * `news`, recorded in the state like the program's own: what must not change between two runs
   * unless a run decides it (a refresh diffs the recorded inputs, so it never sees such a change).
   */
  computedInputs?(olds: Props, news: Props): Props;
}

/**
 * One method as the engine calls it. Every error it throws ends with the package version (see
 * ./version). `program`: check, create and update run only when the program ran, i.e. when
 * `configure` got the current stack config (refresh and destroy get the config recorded in the
 * state), which a refused token's advice depends on.
 */
function method<A extends unknown[], R>(fn: (...args: A) => Promise<R>, program = false) {
  return async (...args: A): Promise<R> => {
    if (program) noteProgramOperation();
    try {
      return await fn(...args);
    } catch (err) {
      throw withVersion(err);
    }
  };
}

/** The provider methods of a declared resource (what the serialized stub puts on itself). */
export function defineProvider(declaration: ResourceDeclaration, behaviour: ResourceBehaviour) {
  const rules = {
    replaces: inputsWith(declaration, "replace"),
    updates: [...inputsWith(declaration, "update"), ...inputsWith(declaration, "record")],
    exact: Object.keys(declaration.inputs).filter((k) => declaration.inputs[k]?.exact),
  };
  return {
    check: method(async (olds: Props, news: Props) => {
      const refused = inputFailures(declaration, news, olds ?? {});
      const computed = refused.length === 0 ? behaviour.computedInputs?.(olds ?? {}, news) : undefined;
      return { inputs: clean({ ...news, ...computed }), failures: [...refused, ...credentialProblems()] };
    }, true),
    diff: method(async (id: string, olds: Props, news: Props) => {
      const declared = diffInputs(olds, news, rules);
      return behaviour.diff ? behaviour.diff(id, olds, news, declared) : declared;
    }),
    create: method((inputs: Props) => behaviour.create(inputs), true),
    read: method((id: string, props: Props) => behaviour.read(id, props)),
    update: method((id: string, olds: Props, news: Props) => behaviour.update(id, olds, news), true),
    delete: method((id: string, props: Props) => behaviour.delete(id, props)),
  } satisfies Omit<pulumi.dynamic.ResourceProvider, "configure">;
}
