import type { LoggedRequest, TimingOptions } from "../../../emulator";
import * as runtime from "../../../provider/runtime";
import type { ResourceInitError } from "../../../provider/runtime/kept-in-stack";
import { type ProviderEmulator, startProviderEmulator } from "./emulator";

/** Stand-in for the serialized provider the engine keeps in inputs and outputs. */
export const PROVIDER = "exports.handler = __f0; /* stub */";

export interface ProviderHarness extends ProviderEmulator {
  /** Method, path and status of every request the emulator received, oldest first. */
  requests(): Promise<{ method: string; path: string; status: number }[]>;
  close(): Promise<void>;
}

/** Starts an emulator and points the provider runtime at it through `configure`. */
export async function startHarness(timing: TimingOptions = {}): Promise<ProviderHarness> {
  const started = await startProviderEmulator("provider-it-", {
    restoreDelayMs: 300,
    snapshotListDelayMs: 200,
    ...timing,
  });
  const { emu, api } = started;
  await configureRuntime(emu.url, emu.token);
  return {
    ...started,
    requests: async () => {
      const { body } = await api<{ requests: LoggedRequest[] }>("GET", "/__emulator/requests");
      return body.requests.map((r) => ({ method: r.method, path: r.path, status: r.status }));
    },
    close: async () => {
      runtime.resetCredentials();
      await emu.close();
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
