/**
 * Turns a resource's declaration and its platform calls into the provider object the engine
 * calls: `check` and `diff` come from the declaration; create/read/update/delete are the
 * resource's own. Checked against Pulumi's ResourceProvider at compile time only.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import { type DiffOutcome, planChanges } from "../model/change-plan";
import type { InputValues, OutputValues, ResourceDeclaration } from "../model/declaration";
import { inputFailures, planFromInputs } from "../model/input-check";
import { clean } from "../model/json-values";
import { REPLACED_BY_OPTION } from "../model/kind";
import type { Door } from "../model/lifetime";
import type { ValidationFailure } from "../model/validation/common";
import { credentialProblems, noteProgramOperation } from "./credentials";
import type { ProviderField } from "./kept-in-stack";
import { withVersion } from "./version";
import { sendCallWarnings, type WarningSink, warn } from "./warnings";

/** What the engine passes and takes: plain JSON-like objects. */
export type EngineProps = Record<string, unknown>;

export type { ProviderField };

/**
 * Inputs as create and update receive them: what `check` accepted (the declaration's rules all
 * passed, so each has its declared type), with the serialized provider and the inputs the
 * resource computed at check (`computedInputs`, untyped).
 */
export type CheckedInputs<D extends ResourceDeclaration> = InputValues<D> &
  ProviderField & { readonly [key: string]: unknown };

/**
 * The previous outputs as any release recorded them: every declared output and stored input may be
 * missing from an older release's state, and a state may hold what this release no longer writes.
 * A resource narrows it once into its own state type (`state` below).
 */
export type RecordedOutputs<D extends ResourceDeclaration> = Partial<OutputValues<D>> &
  ProviderField & { readonly [key: string]: unknown };

/** The outputs a method returns: the declared ones, and whatever the resource keeps for itself. */
export type Outs<D extends ResourceDeclaration> = OutputValues<D> & ProviderField & EngineProps;

/** A resource's provider methods as the engine (and `recover`) call them. */
export interface EngineProvider {
  check(
    olds: EngineProps,
    news: EngineProps,
  ): Promise<{ inputs: EngineProps; failures: ValidationFailure[] }>;
  /**
   * `olds`: the previous outputs; `oldInputs`: the previous inputs, where the engine gives them
   * (the plugin; the dynamic host passes only the outputs).
   */
  diff(id: string, olds: EngineProps, news: EngineProps, oldInputs?: EngineProps): Promise<DiffOutcome>;
  create(inputs: EngineProps): Promise<{ id: string; outs: EngineProps }>;
  read(id: string, props?: EngineProps): Promise<{ id: string; props: EngineProps; inputs?: EngineProps }>;
  update(id: string, olds: EngineProps, news: EngineProps): Promise<{ outs: EngineProps }>;
  delete(id: string, props: EngineProps): Promise<void>;
}

/**
 * A kind's runtime provider: the methods the dynamic host calls (their warnings take the host's
 * way), and the same methods for a call about one resource, whose warnings go to `about` (the
 * plugin: the engine's Log naming the resource; see ./warnings).
 */
export interface RuntimeProvider extends EngineProvider {
  about(sink: WarningSink): EngineProvider;
}

/**
 * What a resource does at the platform; everything else comes from its declaration. `S` is the
 * resource's view of its previous outputs, after `state` narrowed and normalised them.
 */
export interface ResourceBehaviour<D extends ResourceDeclaration, S> {
  /**
   * The previous outputs (this or any earlier release's) as the methods below take them: the one
   * place where what an older release did not record gets its value.
   */
  state(recorded: RecordedOutputs<D>): S;
  /** `about`: where the call's warnings go, when the call names its resource (./warnings). */
  create(inputs: CheckedInputs<D>, about?: WarningSink): Promise<{ id: string; outs: Outs<D> }>;
  /** A blank id (with empty props) means the resource is gone. */
  read(id: string, state: S): Promise<{ id: string; props: EngineProps; inputs?: EngineProps }>;
  update(id: string, olds: S, news: CheckedInputs<D>): Promise<{ outs: Outs<D> }>;
  delete(id: string, state: S): Promise<void>;
  /**
   * Inputs the resource computes at check time from the previous inputs (`olds`) and the checked
   * `news`, recorded in the state like the program's own: what must not change between two runs
   * unless a run decides it (a refresh diffs the recorded inputs, so it never sees such a change).
   * `news` passed the rules but may hold unknown values at preview (hence untyped).
   */
  computedInputs?(olds: RecordedOutputs<D>, news: EngineProps): EngineProps;
  /**
   * Warnings about inputs that passed the rules but may still be wrong (a region this release does
   * not know), printed by `check` at preview and up; `olds` are the previous inputs (empty on
   * create), `news` the checked inputs, which may hold unknown values at preview.
   */
  checkWarnings?(olds: EngineProps, news: EngineProps): string[];
  /**
   * Warnings like {@link checkWarnings} that `check` prints only when its call names the resource
   * (the plugin's): the dynamic door's program prints them itself, under the resource (the
   * kind's `inputWarnings`), since the dynamic host prints a provider's warnings under the stack.
   */
  resourceWarnings?(olds: EngineProps, news: EngineProps): string[];
  /**
   * Warnings about a change that only a replace would act on (a restored volume's new
   * `snapshotId`), said where the plan is known. The plugin's `diff` says them when its answer
   * replaces nothing: the engine does not ask `diff` when it replaces the resource on its own
   * (`--replace`, `replaceWith`, `replacementTrigger`), so a plan that replaces says nothing. The
   * dynamic door's `diff` gets no previous inputs: its `check` says them, unless the program gave
   * an option that replaces the resource ({@link REPLACED_BY_OPTION}). `olds`: the previous inputs;
   * `plan`: the change's plan (../model/change-plan), the diff's answer, which replaces nothing.
   */
  changeWarnings?(olds: EngineProps, news: EngineProps, door: Door, plan: DiffOutcome): string[];
}

/**
 * One method as the engine calls it. Every error it throws ends with the package version (see
 * ./version). `program`: check, create and update run only when the program ran, i.e. when
 * `configure` got the current stack config (refresh and destroy get the config recorded in the
 * state), which a refused token's advice depends on. What the call warned of deep inside goes to
 * `about` as it ends.
 */
function method<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
  about?: WarningSink,
  program = false,
) {
  return async (...args: A): Promise<R> => {
    if (program) noteProgramOperation();
    try {
      return await fn(...args);
    } catch (err) {
      throw withVersion(err);
    } finally {
      await sendCallWarnings(about);
    }
  };
}

/**
 * The provider methods of a declared resource (what the serialized stub puts on itself). This is
 * where the engine's untyped objects become the declaration's types: `news` once `check` accepted
 * them, the previous outputs through the resource's `state`.
 */
export function defineProvider<D extends ResourceDeclaration, S>(
  declaration: D,
  behaviour: ResourceBehaviour<D, S>,
): RuntimeProvider {
  // The engine's objects are the declaration's: news passed `check` (or are what it returned), and
  // olds are outputs some release's methods returned.
  const checked = (news: EngineProps) => news as CheckedInputs<D>;
  const state = (props: EngineProps | undefined) => behaviour.state((props ?? {}) as RecordedOutputs<D>);
  const methods = (about?: WarningSink) =>
    ({
      check: method(
        async (olds: EngineProps, news: EngineProps) => {
          // One plan (from the previous inputs) for the cross rules and the change warnings.
          const plan = planFromInputs(declaration, olds ?? {}, news);
          const refused = inputFailures(declaration, news, olds ?? {}, new Date(), plan);
          const computed =
            refused.length === 0
              ? behaviour.computedInputs?.((olds ?? {}) as RecordedOutputs<D>, news)
              : undefined;
          if (refused.length === 0) {
            const ofResource = about ? (behaviour.resourceWarnings?.(olds ?? {}, news) ?? []) : [];
            // The dynamic door's `diff` gets no previous inputs: `check` says what only a replace
            // would act on, unless the plan replaces the resource.
            const ofChange =
              about || news[REPLACED_BY_OPTION] === true || plan === undefined || plan.replaces.length > 0
                ? []
                : (behaviour.changeWarnings?.(olds ?? {}, news, "dynamic", plan) ?? []);
            const warnings = [
              ...ofResource,
              ...(behaviour.checkWarnings?.(olds ?? {}, news) ?? []),
              ...ofChange,
            ];
            for (const warning of warnings) {
              // The dynamic host prints a provider's stderr as a message of the stack; the plugin
              // sends the warning to the engine as the resource's (./warnings).
              await warn(warning, (text) => console.warn(`warning: ${text}`), about);
            }
          }
          return { inputs: clean({ ...news, ...computed }), failures: [...refused, ...credentialProblems()] };
        },
        about,
        true,
      ),
      // The change's one plan (../model/change-plan), from the previous outputs.
      diff: method(async (id: string, olds: EngineProps, news: EngineProps, oldInputs?: EngineProps) => {
        const answer = planChanges(declaration, { id, olds, news, oldInputs });
        if (about && oldInputs && answer.replaces.length === 0) {
          for (const warning of behaviour.changeWarnings?.(oldInputs, news, "plugin", answer) ?? []) {
            await warn(warning, (text) => console.warn(`warning: ${text}`), about);
          }
        }
        return answer;
      }, about),
      create: method((inputs: EngineProps) => behaviour.create(checked(inputs), about), about, true),
      read: method((id: string, props?: EngineProps) => behaviour.read(id, state(props)), about),
      update: method(
        (id: string, olds: EngineProps, news: EngineProps) =>
          behaviour.update(id, state(olds), checked(news)),
        about,
        true,
      ),
      delete: method((id: string, props: EngineProps) => behaviour.delete(id, state(props)), about),
    }) satisfies EngineProvider &
      Omit<pulumi.dynamic.ResourceProvider<EngineProps, EngineProps>, "configure">;
  return { ...methods(), about: methods };
}
