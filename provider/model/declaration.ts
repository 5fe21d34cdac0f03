/**
 * The one place a resource is declared: its inputs (rule, what a change does, where the value
 * goes) and its outputs. The program's `Args` type, the class's declared outputs, `check`,
 * `diff`'s lists and the create body are all derived from a declaration, so adding an input is
 * one entry (see CONTRIBUTING.md). Loaded by the program (for the classes) and by the runtime.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { clean, sameValue } from "./json-values";
import type { KnownProperties, ValidationFailure } from "./validation/common";
import type { TypeFor, ValueType } from "./value-types";

/**
 * What a changed input does: `replace` makes a new resource, `update` is applied in place by the
 * resource's `update`, `record` changes only what is recorded (no platform call), `special` is
 * decided by the resource's own diff rule.
 */
export type InputChange = "replace" | "update" | "record" | "special";

/**
 * What one input's change does in a plan: `update` (applied in place at the platform), `replace`
 * (a new resource), `record` (only recorded in the stack, no platform call), `warn` (nothing at
 * all: a warning says why, e.g. a restored volume's moved `snapshotId`; not a change).
 */
export type PropertyEffect = "update" | "replace" | "record" | "warn";

/** What a kind's own rule for a `special` input reads (../model/change-plan's `planChanges`). */
export interface ChangeContext {
  /** The resource's id; empty at `check`, which runs before the engine names it. */
  readonly id: string;
  /**
   * What the inputs are compared with: the previous outputs at `diff` (a `live` input's value is
   * the platform's), the previous inputs at `check`. Untyped: any release may have recorded them.
   */
  readonly olds: Record<string, unknown>;
  /** The program's inputs (unknown values at preview, hence untyped). */
  readonly news: Record<string, unknown>;
}

/**
 * A kind's own rule for one `special` input: what its change does in this plan, or undefined when
 * it changes nothing. The only place an input's effect is decided other than by its tag.
 */
export type SpecialRule = (context: ChangeContext) => PropertyEffect | undefined;

/** How one input is declared. `P` is the type a program passes. */
export interface InputDeclaration<S extends z.ZodType = z.ZodType, P = unknown> {
  /** Shape and range; its messages name the property and the rule. */
  readonly rule: S;
  /** What a change does. */
  readonly change: InputChange;
  /** The kind's own rule, for a `special` input (and only for one: {@link input} says so). */
  readonly decide?: SpecialRule;
  /**
   * Where the output of the same name comes from: `stored` keeps the value as given (the platform
   * does not report it), `live` is what the platform reports (declared among the outputs).
   */
  readonly output: OutputSource;
  /** Compared even when absent: an absent or empty map equals no map (`triggers`). */
  readonly exact?: boolean;
  /** A secret: no check failure names it, since the engine would print its value. */
  readonly secret?: boolean;
  /**
   * Not a secret, but text no message should carry (a PEM chain): no check failure names it
   * either, for the same reason; the failure's reason names it instead.
   */
  readonly unprinted?: boolean;
  /**
   * The member of the platform's create body that takes it, when it is sent: a key of the sdk's
   * request type named by the declaration's `createRequest` (a typo does not compile).
   */
  readonly wire?: string;
  /** Turns the input into that member's value (default: as is). */
  readonly toWire?: (value: never) => unknown;
  /** Type marker only (the type a program passes; no value at run time). */
  readonly program: P;
}

/** A value of a type wrapped the way a program may pass it: any level may be an Output. */
export type InputOf<T> = pulumi.Input<
  T extends readonly (infer E)[] ? InputOf<E>[] : T extends object ? { [K in keyof T]: InputOf<T[K]> } : T
>;

/** Marks the program type of an input whose own interface documents nested members. */
export function programType<P>(): P {
  return undefined as P;
}

type InputSpec<O extends OutputSource, W extends string, C extends InputChange> = Omit<
  InputDeclaration,
  "rule" | "program" | "output" | "wire" | "change" | "decide"
> & {
  change: C;
  output: O;
  wire?: W;
} & (C extends "special" ? { decide: SpecialRule } : { decide?: never });

/** Where an input's output comes from (see {@link InputDeclaration.output}). */
export type OutputSource = "stored" | "live";

/** Declares an input; a program passes the rule's type, any part of it possibly an Output. */
export function input<
  S extends z.ZodType,
  O extends OutputSource,
  W extends string = never,
  C extends InputChange = InputChange,
>(
  rule: S,
  spec: InputSpec<O, W, C>,
): InputDeclaration<S, InputOf<Exclude<z.input<S>, undefined>>> & {
  readonly change: C;
  readonly output: O;
  readonly wire?: NoInfer<W>;
};
/** Declares an input whose program type `P` is documented by an interface of its own. */
export function input<
  S extends z.ZodType,
  O extends OutputSource,
  P,
  W extends string = never,
  C extends InputChange = InputChange,
>(
  rule: S,
  spec: InputSpec<O, W, C> & { program: P },
): InputDeclaration<S, P> & { readonly change: C; readonly output: O; readonly wire?: NoInfer<W> };
export function input(rule: z.ZodType, spec: InputSpec<OutputSource, string, InputChange>): InputDeclaration {
  return { rule, program: undefined, ...spec };
}

/** How one output is declared; `type` is a marker only (no value at run time). */
export interface OutputDeclaration<T> {
  readonly type: T;
  /** `T` at run time, for the package schema; a nullable one is not always there. */
  readonly valueType: ValueType;
  /** Kept secret in the state and in every output of the program. */
  readonly secret?: boolean;
}

/**
 * Declares an output of type `T`, tagged `valueType` for the schema (`output<string | null>(
 * t.nullable(t.string))`): the compiler checks that the tag is `T`'s.
 */
export function output<T>(valueType: TypeFor<T>, spec: { secret?: boolean } = {}): OutputDeclaration<T> {
  return { type: undefined as T, valueType: valueType as ValueType, ...spec };
}

type Inputs = Record<string, InputDeclaration<z.ZodType, unknown>>;
type Outputs = Record<string, OutputDeclaration<unknown>>;

/**
 * Extra rules across inputs, run after the shape rules; `failed` names inputs already refused,
 * `replaced` says that the plan (../model/change-plan, the one the diff answers) replaces the
 * resource anyway.
 */
export type CrossRules = (
  news: Record<string, unknown>,
  context: { olds: Record<string, unknown>; failed: ReadonlySet<string>; now: Date; replaced: boolean },
) => ValidationFailure[];

/** A resource as declared; everything else about its shape is derived from this. */
export interface ResourceDeclaration<
  I extends Inputs = Inputs,
  O extends Outputs = Outputs,
  W extends object = Record<string, unknown>,
  U extends object = Record<string, unknown>,
> {
  /** The resource's name in check failures ("unknown property sizeGB: Volume takes ..."). */
  readonly type: string;
  readonly inputs: I;
  readonly outputs: O;
  /** Outputs the runtime keeps for itself and the class does not declare. */
  readonly internalOutputs?: readonly string[];
  /**
   * Inputs the runtime computes at check (its `computedInputs`), recorded like the program's: a
   * change of one is only recorded, unless a `special` input's rule says what it asks for.
   */
  readonly computed?: readonly string[];
  readonly rules?: CrossRules;
  /**
   * Type marker only ({@link requestType}): the sdk's create request, whose keys the inputs'
   * `wire` members must be and which {@link createBody} returns.
   */
  readonly createRequest?: W;
  /**
   * Type marker only: the sdk's in-place update request, whose keys the `wire` members of the
   * `update` inputs must be too, and which {@link updateBody} returns.
   */
  readonly updateRequest?: U;
}

/** Marks the sdk type of a resource's create request (no value at run time). */
export function requestType<W extends object>(): W | undefined {
  return undefined;
}

type RequiredKeys<I extends Inputs> = {
  [K in keyof I]: undefined extends z.input<I[K]["rule"]> ? never : K;
}[keyof I];
type ProgramTypes<I extends Inputs> = { [K in keyof I]: I[K]["program"] };

/** The `Args` of a resource's class, documented by the declaration's comments. */
export type ArgsOf<D extends ResourceDeclaration> = Pick<
  ProgramTypes<D["inputs"]>,
  RequiredKeys<D["inputs"]>
> &
  Partial<Pick<ProgramTypes<D["inputs"]>, Exclude<keyof D["inputs"], RequiredKeys<D["inputs"]>>>>;

/** Checked inputs as the runtime receives them. */
export type InputValues<D extends ResourceDeclaration> = z.output<ReturnType<typeof inputSchema<D>>>;

/** The names of a resource's `stored` inputs. */
export type StoredKeys<I extends Inputs> = {
  [K in keyof I]: I[K]["output"] extends "stored" ? K : never;
}[keyof I];
/** The declared outputs' values (without the inputs stored as given). */
export type DeclaredOutputs<D extends ResourceDeclaration> = {
  [K in keyof D["outputs"]]: D["outputs"][K]["type"];
};
/** The names of a resource's `live` inputs: the platform reports each under the same name. */
export type LiveKeys<I extends Inputs> = {
  [K in keyof I]: I[K]["output"] extends "live" ? K : never;
}[keyof I];

/** Inputs whose `wire` is not a key of the create request `W`. */
type MisnamedWires<I extends Inputs, W> = {
  [K in keyof I]: Exclude<I[K]["wire"], undefined> extends keyof W ? never : K;
}[keyof I];

/** `update` inputs whose `wire` is not a key of the update request `U`. */
type MisnamedUpdateWires<I extends Inputs, U> = {
  [K in keyof I]: I[K]["change"] extends "update"
    ? Exclude<I[K]["wire"], undefined> extends keyof U
      ? never
      : K
    : never;
}[keyof I];

/** The sdk's create request of a resource (see {@link ResourceDeclaration.createRequest}). */
export type CreateRequestOf<D extends ResourceDeclaration> = Exclude<D["createRequest"], undefined>;
/** The sdk's update request of a resource (see {@link ResourceDeclaration.updateRequest}). */
export type UpdateRequestOf<D extends ResourceDeclaration> = Exclude<D["updateRequest"], undefined>;

type StoredOutputs<D extends ResourceDeclaration> = {
  [K in StoredKeys<D["inputs"]>]: z.output<D["inputs"][K]["rule"]>;
};

/** Every output value of a resource: the declared outputs and the inputs stored as given. */
export type OutputValues<D extends ResourceDeclaration> = DeclaredOutputs<D> & Partial<StoredOutputs<D>>;

/** The outputs a resource's class declares, each a `pulumi.Output`. */
export type OutputsOf<D extends ResourceDeclaration> = {
  readonly [K in keyof DeclaredOutputs<D>]: pulumi.Output<DeclaredOutputs<D>[K]>;
} & Pick<
  { readonly [K in keyof D["inputs"]]: pulumi.Output<z.output<D["inputs"][K]["rule"]>> },
  StoredKeys<D["inputs"]>
>;

/**
 * Declares a resource. A `live` input must have an output of its name, an input's `wire` must be
 * a member of the `createRequest`, and an `update` input's also of the `updateRequest` (the
 * compiler names the input).
 */
export function declareResource<
  I extends Inputs,
  O extends Outputs,
  W extends object = Record<string, unknown>,
  U extends object = Record<string, unknown>,
>(
  declaration: ResourceDeclaration<I, O, W, U> & {
    inputs: Record<MisnamedWires<I, W>, { wire: keyof W }> &
      Record<MisnamedUpdateWires<I, U>, { wire: keyof U }>;
    outputs: Record<LiveKeys<I>, unknown>;
  },
): ResourceDeclaration<I, O, W, U> {
  return declaration;
}

/** The zod object of all inputs. */
export function inputSchema<D extends ResourceDeclaration>(
  declaration: D,
): z.ZodObject<{ [K in keyof D["inputs"]]: D["inputs"][K]["rule"] }> {
  const shape = Object.fromEntries(Object.entries(declaration.inputs).map(([k, v]) => [k, v.rule]));
  return z.object(shape) as never;
}

/** Names of the inputs whose change is `change`. */
export function inputsWith(declaration: ResourceDeclaration, change: InputChange): string[] {
  return Object.keys(declaration.inputs).filter((k) => declaration.inputs[k]?.change === change);
}

/** Names of the inputs kept in outputs as given. */
export function storedInputs<D extends ResourceDeclaration>(
  declaration: D,
): (StoredKeys<D["inputs"]> & string)[] {
  return inputsFrom(declaration, "stored");
}

/** Names of the inputs whose value the platform reports (under the same name among the outputs). */
export function liveInputs<D extends ResourceDeclaration>(
  declaration: D,
): (LiveKeys<D["inputs"]> & string)[] {
  return inputsFrom(declaration, "live");
}

function inputsFrom<D extends ResourceDeclaration, K>(declaration: D, source: OutputSource): K[] {
  return Object.keys(declaration.inputs).filter((k) => declaration.inputs[k]?.output === source) as K[];
}

/** Every output name the class declares: the declared outputs and the stored inputs. */
export function outputNames(declaration: ResourceDeclaration): string[] {
  return [...new Set([...Object.keys(declaration.outputs), ...storedInputs(declaration)])];
}

/** Secret inputs and outputs: stored encrypted, never shown. */
export function secretNames(declaration: ResourceDeclaration): string[] {
  const inputs = Object.keys(declaration.inputs).filter((k) => declaration.inputs[k]?.secret);
  const outputs = Object.keys(declaration.outputs).filter((k) => declaration.outputs[k]?.secret);
  return [...new Set([...inputs, ...outputs])];
}

/** The input names a resource takes, with the members of object inputs (typos in them are found too). */
export function knownProperties(declaration: ResourceDeclaration): KnownProperties {
  const nested: Record<string, string[]> = {};
  for (const [name, decl] of Object.entries(declaration.inputs)) {
    const members = objectMembers(decl.rule);
    if (members) nested[name] = members;
  }
  return { names: Object.keys(declaration.inputs), nested };
}

function objectMembers(rule: z.ZodType): string[] | undefined {
  let inner: unknown = rule;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap();
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : undefined;
}

/**
 * The platform's create body: every input with a `wire` member that is set, none undefined. Each
 * member is a key of the sdk's request type (checked by {@link declareResource}); the sdk checks
 * the whole body against its schema before sending it.
 */
export function createBody<D extends ResourceDeclaration>(
  declaration: D,
  inputs: InputValues<D>,
): CreateRequestOf<D> {
  const body: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(declaration.inputs)) {
    const value = (inputs as Record<string, unknown>)[name];
    if (decl.wire === undefined || value === undefined || value === null) continue;
    body[decl.wire] = clean(decl.toWire ? (decl.toWire as (v: unknown) => unknown)(value) : value);
  }
  return body as CreateRequestOf<D>;
}

/**
 * The platform's in-place update body: every `update` input with a `wire` member that is set and
 * differs from the platform's object as it answered (`current`, in its wire form: the member under
 * the input's `wire` name is compared), so no list of updatable fields is written anywhere else.
 * Each member is a key of the sdk's update request (checked by {@link declareResource}); an empty
 * body means nothing to send.
 */
export function updateBody<D extends ResourceDeclaration>(
  declaration: D,
  inputs: InputValues<D>,
  current: Partial<UpdateRequestOf<D>>,
): Partial<UpdateRequestOf<D>> {
  const body: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(declaration.inputs)) {
    const value = (inputs as Record<string, unknown>)[name];
    if (decl.change !== "update" || decl.wire === undefined || value === undefined || value === null)
      continue;
    const wire = clean(decl.toWire ? (decl.toWire as (v: unknown) => unknown)(value) : value);
    if (sameValue(wire, (current as Record<string, unknown>)[decl.wire])) continue;
    body[decl.wire] = wire;
  }
  return body as Partial<UpdateRequestOf<D>>;
}
