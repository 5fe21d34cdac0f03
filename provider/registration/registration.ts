/**
 * What every resource class registers, derived from its declaration (by way of its names,
 * ../model/kind's `KindNames`, so no rule loads): each declared output (so
 * the engine sets it on the object), the program's inputs, and which of them are secret; and the
 * stack traces capped while it registers (./kind-resource registers, through either door).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { type KindNames, REPLACE_ON_CHANGES, REPLACED_BY_OPTION } from "../model/kind";
import { stackTraceLimitPathOf } from "../pulumi-sdk/program";
import { cutToProgramFrames } from "./program-frames";

/**
 * The properties and options a resource registers: every declared output unset (so the engine
 * fills it in), then the program's inputs, secret inputs wrapped as secrets, the option
 * `replaceOnChanges` (as {@link REPLACE_ON_CHANGES}), whether `replaceWith` or `replacementTrigger`
 * is given (as {@link REPLACED_BY_OPTION}), and the declared secrets added to the options'
 * `additionalSecretOutputs`.
 */
export function registration(
  kind: KindNames,
  args: object,
  opts: pulumi.CustomResourceOptions | undefined,
): { props: pulumi.Inputs; opts: pulumi.CustomResourceOptions | undefined } {
  const props: pulumi.Inputs = Object.fromEntries(kind.outputs.map((name) => [name, undefined]));
  Object.assign(props, args);
  const replaceOnChanges = opts?.replaceOnChanges ?? [];
  if (replaceOnChanges.length > 0) props[REPLACE_ON_CHANGES] = [...replaceOnChanges];
  if ((opts?.replaceWith?.length ?? 0) > 0 || opts?.replacementTrigger !== undefined) {
    props[REPLACED_BY_OPTION] = true;
  }
  const secrets = [...kind.secrets];
  for (const name of kind.secretInputs) {
    if (props[name] !== undefined) props[name] = pulumi.secret(props[name]);
  }
  const replaceWith = opts?.replaceWith?.map(replacedResourceOf);
  const withReplace = replaceWith ? { ...opts, replaceWith } : opts;
  if (secrets.length === 0) return { props, opts: withReplace };
  return {
    props,
    opts: {
      ...withReplace,
      additionalSecretOutputs: [...secrets, ...(opts?.additionalSecretOutputs ?? [])],
    },
  };
}

/**
 * The resource the engine replaces for `resource` in `replaceWith`: a `VolumeSnapshot` is a
 * component, which the engine never replaces (nor does the Node SDK look through it, as it does
 * for `dependsOn`), so `replaceWith: [snap]` names the custom resource that took the snapshot
 * (its `request`), which a retaken snapshot replaces.
 */
function replacedResourceOf(resource: pulumi.Resource): pulumi.Resource {
  const request = (resource as { request?: unknown }).request;
  return pulumi.ComponentResource.isInstance(resource) && pulumi.CustomResource.isInstance(request)
    ? request
    : resource;
}

/** The constructor frames above which a stack is kept (`Error.captureStackTrace`'s second argument). */
type ResourceClass = NonNullable<Parameters<typeof Error.captureStackTrace>[1]>;

/** Stack traces capped while a resource registers (see {@link capStackTraces}). */
export interface CappedStackTraces {
  /** Puts the limit back. */
  restore(): void;
  /**
   * Puts the limit back and returns `err`, thrown by the registration, with the stack of the
   * resource's construction from the program's own line on (it was captured without frames).
   */
  withConstructionStack(err: unknown, resourceClass: ResourceClass): unknown;
}

/**
 * Caps stack traces while a resource registers. Pulumi's SDK formats a stack trace for four
 * promises per registered property, kept only for its report of leaked promises, and with
 * source maps installed (every program run) that was most of what a resource cost the program:
 * about 1.5 s of CPU per 100 Volumes (25 properties each). The resource's source position and
 * recorded stack trace are the program's own frames (Pulumi lifts the limit to compute them; see
 * ./program-frames). Not capped when PULUMI_DEBUG_PROMISE_LEAKS is
 * set, since that report prints the traces. A registration the engine refuses later fails
 * without stack frames (its message names the resource and its type). Both doors' classes
 * register this way (./kind-resource).
 */
export function capStackTraces(): CappedStackTraces {
  const limit = Error.stackTraceLimit;
  // Pulumi lifts the limit to take the resource's trace (../pulumi-sdk/program's `stackTraceLimit`).
  // Both paths are decided before the limit and the format change (their probes take traces).
  const cap = !process.env.PULUMI_DEBUG_PROMISE_LEAKS && stackTraceLimitPathOf() === "fast";
  const restoreFormat = cutToProgramFrames();
  if (cap) Error.stackTraceLimit = 0;
  const restore = () => {
    Error.stackTraceLimit = limit;
    restoreFormat();
  };
  return {
    restore,
    withConstructionStack(err, resourceClass) {
      restore();
      if (err instanceof Error) Error.captureStackTrace(err, resourceClass);
      return err;
    },
  };
}
