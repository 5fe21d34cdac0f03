import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../../emulator";

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export interface TestEmulator {
  emu: RunningEmulator;
  /** A call to the remote API (or the control API) with the emulator's token. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  api<T = any>(method: string, path: string, body?: unknown, token?: string | null): Promise<Reply<T>>;
  /** A call to the local task API over the unix socket. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  task<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>>;
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export const tempDir = () => mkdtempSync(join(tmpdir(), "emu-test-"));

/** Starts an emulator on free ports with a private socket and fast, test-friendly timings. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: join(tempDir(), "api.sock"),
    ...options,
    timing: {
      restoreDelayMs: 200,
      snapshotListDelayMs: 150,
      warmAfterMs: 1000,
      coldAfterMs: 5000,
      ...options.timing,
    },
  });
  const socketAgent = new Agent({ connect: { socketPath: emu.taskSocket } });
  const api = async <T>(method: string, path: string, body?: unknown, token: string | null = emu.token) => {
    const headers: Record<string, string> = {};
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await request(`${emu.url}${path}`, {
      method: method as "GET",
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };
  const task = async <T>(method: string, path: string, body?: unknown) => {
    const res = await request(`http://platform${path}`, {
      method: method as "GET",
      dispatcher: socketAgent,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };
  return {
    emu,
    api,
    task,
    advance: async (ms) => {
      const r = await api("POST", "/__emulator/time/advance", { ms });
      if (r.status !== 200) throw new Error(`advance failed: ${JSON.stringify(r.body)}`);
    },
    close: async () => {
      await socketAgent.close();
      await emu.close();
    },
  };
}
