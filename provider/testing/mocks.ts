/**
 * Mocks for `pulumi.runtime.setMocks` that play the platform for our resources: each resource's
 * preview-time validation (its declaration's `check`) runs first and fails with the message
 * `pulumi preview` prints, then the resource gets the outputs a create would give (./outputs).
 * Every other resource and call goes to the mocks the test passes for its other providers.
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import {
  keyOfPluginToken,
  keyOfTypeToken,
  RESOURCE_KEYS,
  type ResourceKey,
  registry,
  TYPE_PACKAGE,
} from "../kinds/registry";
import { secretNames } from "../model/declaration";
import { inputFailures } from "../model/input-check";
import { shown, UNKNOWN, type ValidationFailure } from "../model/validation/common";
import { checkFailureMessage } from "./check-message";
import { DEFAULT_MOCK_PLATFORM, type MockContext, mockers } from "./outputs";

export { checkFailureMessage };

/** Options of {@link platformMocks}. */
export interface PlatformMocksOptions {
  /**
   * Mocks for every resource and call that is not ours (another provider's); by default a
   * resource's state is its inputs and its id `<name>_id`, and a call returns its inputs.
   */
  others?: pulumi.runtime.Mocks;
  /** The time the platform answers at (rotatedAt, a certificate's expiresInDays); default: now. */
  now?: () => Date;
  /** Region of a volume that names none (the app's primary region); default `iad`. */
  region?: string;
  /** Organization in a hostname's ownership TXT value; default `personal`. */
  org?: string;
  /**
   * What a resource whose inputs break a rule does. Either way the resource is registered with
   * its inputs as outputs (so the rest of the program runs on and no output waits forever) and
   * the message `pulumi preview` prints is added to {@link PlatformMocks.checkFailures}. `throw`
   * (default) also raises that message once, as one unhandled rejection of a
   * {@link PlatformCheckError}, which fails the test run (vitest, jest and mocha report it);
   * `record` raises nothing, for a test that expects the failure.
   */
  onCheckFailure?: "throw" | "record";
}

/** Pulumi mocks that also keep the check failures they met. */
export interface PlatformMocks extends pulumi.runtime.Mocks {
  /** Every check failure met so far, as `pulumi preview` prints it, oldest first. */
  readonly checkFailures: string[];
}

/** A check failure under mocks; `failures` are what the resource's `check` returned. */
export class PlatformCheckError extends Error {
  override readonly name = "PlatformCheckError";
  constructor(
    message: string,
    readonly failures: ValidationFailure[],
  ) {
    super(message);
  }
}

const COMPONENTS = new Set(
  RESOURCE_KEYS.flatMap((key) => {
    const row = registry[key] as { component?: string };
    return row.component ? [`${TYPE_PACKAGE}:index:${row.component}`] : [];
  }),
);

/** Raises a check failure as one unhandled rejection (see {@link PlatformMocksOptions.onCheckFailure}). */
function raiseOnce(err: PlatformCheckError): void {
  void Promise.reject(err);
}

/** The inputs without the dynamic door's serialized provider. */
function withoutProvider(inputs: Record<string, unknown>): Record<string, unknown> {
  const { __provider: _, ...rest } = inputs;
  return rest;
}

/**
 * The inputs as our `check` receives them from the engine: without the serialized provider, a
 * secret as its value (the engine's provider sees plain values: `pulumi.secret`, secret config,
 * a class's secret input such as `privateKey`), and a value unknown at preview (an Output of a
 * resource not created yet) as the engine's placeholder.
 */
function engineInputs(inputs: Record<string, unknown>): Record<string, unknown> {
  return plainValue(withoutProvider(inputs)) as Record<string, unknown>;
}

/** The inputs as a check failure's message shows them: as {@link engineInputs}, a secret `[secret]`. */
function shownInputs(inputs: Record<string, unknown>): Record<string, unknown> {
  return plainValue(withoutProvider(inputs), () => SECRET_SHOWN) as Record<string, unknown>;
}

const SECRET_SHOWN = "[secret]";

function plainValue(value: unknown, secret: (value: unknown) => unknown = (v) => v): unknown {
  if (pulumi.runtime.isRpcSecret(value)) return secret(plainValue(pulumi.runtime.unwrapRpcSecret(value)));
  if (pulumi.isUnknown(value)) return UNKNOWN;
  if (Array.isArray(value)) return value.map((v) => plainValue(v, secret));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v, secret)]));
  }
  return value;
}

/** A failure of a secret input, its reason without the value (a rule shows it as `(got "…")`). */
function withoutSecret(failure: ValidationFailure, value: unknown): ValidationFailure {
  const text = shown(value);
  return { ...failure, reason: failure.reason.split(text).join(SECRET_SHOWN) };
}

/** The inputs the program passed as secrets (the engine keeps an output of the same name secret). */
function secretInputNames(inputs: Record<string, unknown>): string[] {
  return Object.keys(inputs).filter((name) => pulumi.runtime.isRpcSecret(inputs[name]));
}

/**
 * Mocks for `pulumi.runtime.setMocks`: our resources are checked as at preview and get realistic
 * outputs (ids in the platform's shapes, states, a certificate's DNS requirements, a secret
 * password); everything else goes to `options.others`.
 *
 * @example
 * ```ts
 * pulumi.runtime.setMocks(platformMocks({ others: myAwsMocks }), "project", "stack", true);
 * const { Volume } = await import("pulumi-platform");
 * ```
 */
export function platformMocks(options: PlatformMocksOptions = {}): PlatformMocks {
  const context = (): MockContext => ({
    now: options.now?.() ?? new Date(),
    region: options.region ?? DEFAULT_MOCK_PLATFORM.region,
    org: options.org ?? DEFAULT_MOCK_PLATFORM.org,
  });
  const checkFailures: string[] = [];
  return {
    checkFailures,
    newResource(args) {
      // Either door's custom resource (the dynamic VolumeSnapshot component shares the plugin's token).
      const key =
        args.custom === false ? undefined : (keyOfTypeToken(args.type) ?? keyOfPluginToken(args.type));
      if (key === undefined) return other(args);
      try {
        return mockResource(key, args, context());
      } catch (err) {
        if (!(err instanceof PlatformCheckError)) throw err;
        checkFailures.push(...err.message.split("\n"));
        // Failing the registration would reject every output of the resource, each an unhandled
        // rejection of its own (dozens per resource), and leave the test's `apply` waiting until
        // it times out: the failure is raised once instead, and the resource registered.
        if (options.onCheckFailure !== "record") raiseOnce(err);
        return { id: `${args.name}_id`, state: withoutProvider(args.inputs) };
      }
    },
    call(args) {
      if (options.others) return options.others.call(args);
      return args.inputs;
    },
  };

  function other(
    args: pulumi.runtime.MockResourceArgs,
  ): pulumi.runtime.MockResourceResult | Promise<pulumi.runtime.MockResourceResult> {
    if (COMPONENTS.has(args.type)) return { id: undefined, state: {} };
    if (options.others) return options.others.newResource(args);
    return { id: args.id || `${args.name}_id`, state: args.inputs };
  }
}

function mockResource(
  key: ResourceKey,
  args: pulumi.runtime.MockResourceArgs,
  ctx: MockContext,
): { id: string; state: Record<string, unknown> } {
  const row = registry[key];
  const inputs = engineInputs(args.inputs);
  const failures = inputFailures(row.declaration, inputs, {}, ctx.now);
  if (failures.length > 0) {
    const printed = shownInputs(args.inputs);
    const secret = new Set(secretInputNames(args.inputs));
    const told = failures.map((f) => (secret.has(f.property) ? withoutSecret(f, inputs[f.property]) : f));
    const message = told.map((f) => checkFailureMessage(args.type, args.name, printed, f)).join("\n");
    throw new PlatformCheckError(message, told);
  }
  const mocker = mockers[key] as (d: unknown, i: unknown, c: MockContext) => { id: string; outputs: object };
  const { id, outputs } = mocker(row.declaration, inputs, ctx);
  // The engine keeps these secret through `additionalSecretOutputs`, which mocks do not apply,
  // and an output whose input of the same name was secret.
  const state: Record<string, unknown> = { ...outputs };
  for (const name of new Set([...secretNames(row.declaration), ...secretInputNames(args.inputs)])) {
    if (state[name] !== undefined) state[name] = pulumi.secret(state[name]);
  }
  return { id, state };
}
