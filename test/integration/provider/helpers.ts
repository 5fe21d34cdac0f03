import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { type RunningEmulator, startEmulator, type TimingOptions } from "../../../emulator";
import * as runtime from "../../../provider/runtime";

/** Stand-in for the serialized provider the engine keeps in inputs and outputs. */
export const PROVIDER = "exports.handler = __f0; /* stub */";

export interface ProviderHarness {
  emu: RunningEmulator;
  /** Calls the emulator (remote or control API) with its token. */
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Emulator state dump. */
  state(): Promise<any>;
  /** Paths of the requests the emulator received since `since` (an index into the log). */
  requests(): Promise<{ method: string; path: string; status: number }[]>;
  close(): Promise<void>;
}

/** Starts an emulator and points the provider runtime at it through `configure`. */
export async function startHarness(timing: TimingOptions = {}): Promise<ProviderHarness> {
  const emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: join(mkdtempSync(join(tmpdir(), "provider-it-")), "api.sock"),
    timing: { restoreDelayMs: 300, snapshotListDelayMs: 200, ...timing },
  });
  await configureRuntime(emu.url, emu.token);
  const api = async <T>(method: string, path: string, body?: unknown) => {
    const res = await request(`${emu.url}${path}`, {
      method: method as "GET",
      headers: {
        authorization: `Bearer ${emu.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  };
  return {
    emu,
    api,
    state: async () => (await api("GET", "/__emulator/state")).body,
    requests: async () => {
      const { body } = await api<any>("GET", "/__emulator/requests");
      return (body.requests ?? body).map((r: any) => ({
        method: r.method,
        path: r.path ?? r.url,
        status: r.status,
      }));
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
