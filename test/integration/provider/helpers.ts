import type { TimingOptions } from "../../../emulator";
import * as runtime from "../../../provider/kinds/runtime-entry";
import type { ResourceInitError } from "../../../provider/runtime/errors";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

/** Stand-in for the serialized provider the engine keeps in inputs and outputs. */
export const PROVIDER = "exports.handler = __f0; /* stub */";

/** A test emulator the provider runtime is configured against; `close` forgets the credentials. */
export type ProviderHarness = TestEmulator;

/** Starts an emulator (the emulator's idle timings) and points the provider runtime at it through `configure`. */
export async function startHarness(timing: TimingOptions = {}): Promise<ProviderHarness> {
  const t = await startTestEmulator({
    timing: {
      restoreDelayMs: 300,
      snapshotListDelayMs: 200,
      warmAfterMs: 5000,
      coldAfterMs: 30000,
      ...timing,
    },
  });
  await configureRuntime(t.url, t.token);
  return {
    ...t,
    close: async () => {
      runtime.resetCredentials();
      await t.close();
    },
  };
}

/** What the engine's `configure` call does: hand the stack config to the runtime. */
export async function configureRuntime(apiUrl?: string, apiToken?: string): Promise<void> {
  runtime.resetCredentials();
  const config: Record<string, string | undefined> = {
    "platform:apiUrl": apiUrl,
    "platform:apiToken": apiToken,
  };
  await runtime.configure({ config: { get: (key: string) => config[key] } });
}

/** True when `value` holds `undefined` anywhere (the engine's protobuf Struct rejects it). */
export function hasUndefined(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.some(hasUndefined);
  if (value !== null && typeof value === "object") return Object.values(value).some(hasUndefined);
  return false;
}

/** Inputs as the engine passes them: with the serialized provider. */
export function withProvider<T extends Record<string, unknown>>(inputs: T): T & { __provider: string } {
  return { ...inputs, __provider: PROVIDER };
}

/** The error `operation` rejects with: a wait that timed out rejects with a ResourceInitError. */
export function rejectionOf(operation: Promise<unknown>): Promise<ResourceInitError> {
  return operation.then(
    () => {
      throw new Error("expected the operation to fail");
    },
    (err: ResourceInitError) => err,
  );
}
