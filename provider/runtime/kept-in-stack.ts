/**
 * What a create or update does when the platform made the resource but a wait did not finish:
 * the engine records the resource (so nothing is leaked) and the next `pulumi up` continues
 * (Pulumi's `ResourceInitError`, ./errors).
 * @module
 */
import { ResourceInitError } from "./errors";

/** The serialized provider the engine keeps beside a resource's inputs and outputs. */
export interface ProviderField {
  readonly __provider?: unknown;
}

/** The serialized provider of a resource's inputs, to carry into a {@link ResourceInitError}. */
export function providerOf(inputs: ProviderField): ProviderField {
  return inputs.__provider === undefined ? {} : { __provider: inputs.__provider };
}

/** The advice every timed-out wait ends with. */
export const KEEP_WAITING = "It is kept in the stack; run `pulumi up` again to keep waiting";

/** Keeps `id` in the stack with `outputs` (and the serialized provider of `inputs`), failing with `message`. */
export function keptInStack(
  id: string,
  outputs: Record<string, unknown>,
  inputs: ProviderField,
  message: string,
): ResourceInitError {
  return new ResourceInitError(id, { ...outputs, ...providerOf(inputs) }, message);
}

/** A wait's limit in ms from its seconds input (`waitTimeoutSeconds`, ...), else the default. */
export function waitMs(seconds: unknown, defaultSeconds: number): number {
  return (typeof seconds === "number" ? seconds : defaultSeconds) * 1000;
}
