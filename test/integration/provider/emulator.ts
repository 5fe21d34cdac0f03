import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { type RunningEmulator, type Store, startEmulator, type TimingOptions } from "../../../emulator";

/** The emulator's state dump (`GET /__emulator/state`). */
export type EmulatorState = ReturnType<Store["dump"]>;

/** A started emulator for provider tests, and callers of its API and control API. */
export interface ProviderEmulator {
  emu: RunningEmulator;
  /** Calls the emulator (remote or control API) with its token. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Emulator state dump. */
  state(): Promise<EmulatorState>;
}

/** Which answers the emulator gives: the spec's full ones, or the real platform's sparse ones. */
export type ResponsesMode = "full" | "sparse";

/**
 * Starts an emulator on free ports with a private task socket (in a temp dir named `prefix`);
 * `responses: "sparse"` leaves out or nulls every member the real platform may leave out or null.
 */
export async function startProviderEmulator(
  prefix: string,
  timing: TimingOptions,
  responses: ResponsesMode = "full",
): Promise<ProviderEmulator> {
  const emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: join(mkdtempSync(join(tmpdir(), prefix)), "api.sock"),
    timing,
    responses,
  });
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
  return { emu, api, state: async () => (await api<EmulatorState>("GET", "/__emulator/state")).body };
}
