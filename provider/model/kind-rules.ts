/**
 * The rules a resource kind states about itself beside its declaration, which both doors apply:
 * its day-2 warnings (what time or people outside the stack did since the last `up`) and what an
 * import id means to it. Each kind's row (../kinds/<kind>/kind.ts) must state both, so a new kind
 * is named by the compiler wherever a door applies them.
 * @module
 */
import { isUnknown } from "./validation/common";

/** Recorded outputs or program inputs, plain. */
export type Props = Record<string, unknown>;

/**
 * One of a kind's day-2 warnings, computed from its recorded outputs (`olds`) and the program's
 * inputs (`news`, which may hold unknowns at preview): the dynamic door in the program, from the
 * resource's outputs (waiting on what the check reads: an output unknown at preview holds back
 * only the checks that read it); the plugin at `diff`, from the state the engine sends.
 */
export interface LifetimeCheck {
  /** The recorded outputs it reads. */
  readonly reads: readonly string[];
  /** The program inputs whose values it reads. */
  readonly given: readonly string[];
  /** The program inputs it only asks whether the program sets (their values are not waited on). */
  readonly present?: readonly string[];
  /** The warning about resource `id`, or undefined. */
  warning(id: string, olds: Props, news: Props, now: Date): string | undefined;
}

/** A kind's day-2 warnings; empty for a kind with none. */
export type LifetimeRule = readonly LifetimeCheck[];

/** The warnings of `rule` about resource `id`, as texts. */
export function lifetimeWarnings(
  rule: LifetimeRule,
  id: string,
  olds: Props,
  news: Props,
  now: Date,
): string[] {
  return rule.map((check) => check.warning(id, olds, news, now)).filter((w): w is string => w !== undefined);
}

/** A kind with no day-2 warnings. */
export const NO_LIFETIME_WARNINGS: LifetimeRule = [];

/**
 * A warning about an input the program names anew (the resource is created or replaced, or the
 * value differs from the recorded one) that passed its rule but may still be wrong (a region this
 * release does not know). The plugin's `check` prints it, under the resource (the runtime's
 * `resourceWarnings`); the dynamic door's program does, since its provider host could print it
 * only under the stack.
 */
export interface InputWarning {
  /** The input it reads; its recorded value is the output of the same name. */
  readonly input: string;
  /** The warning about the input's `value`, or undefined. */
  warning(value: string): string | undefined;
}

/** What an import id `<app>/<id>` means to a kind, or why the kind cannot be imported. */
export type ImportRule =
  | {
      /** What the part after the slash names, for the message about a malformed id. */
      readonly idName: string;
      /** The state the kind's `read` needs to read resource `id` of app `app`. */
      state(app: string, id: string): Props;
    }
  | {
      /** Why the kind cannot be imported and what to do instead (`id`: the part after the slash). */
      refusal(id: string): string;
    };

/** A string the rule can read: not an unknown (a preview's placeholder). */
export function known(value: unknown): value is string {
  return typeof value === "string" && !isUnknown(value);
}

/** An input the program gives (known or not). */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}
