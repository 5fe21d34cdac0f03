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
 * A kind's day-2 warnings, computed from its recorded outputs (`olds`) and the program's inputs
 * (`news`, which may hold unknowns at preview): the dynamic door in the program, from the
 * resource's outputs; the plugin at `diff`, from the state the engine sends.
 */
export interface LifetimeRule {
  /** The recorded outputs the rule reads (the dynamic door waits on these outputs only). */
  readonly reads: readonly string[];
  /** The program inputs the rule reads. */
  readonly given: readonly string[];
  /** The warnings about resource `id`; undefined entries are no warning. */
  warnings(id: string, olds: Props, news: Props, now: Date): (string | undefined)[];
}

/** The warnings of `rule` about resource `id`, as texts. */
export function lifetimeWarnings(
  rule: LifetimeRule,
  id: string,
  olds: Props,
  news: Props,
  now: Date,
): string[] {
  return rule.warnings(id, olds, news, now).filter((w): w is string => w !== undefined);
}

/** A kind with no day-2 warnings. */
export const NO_LIFETIME_WARNINGS: LifetimeRule = { reads: [], given: [], warnings: () => [] };

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
