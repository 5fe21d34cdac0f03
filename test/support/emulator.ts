import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { afterAll, beforeAll, beforeEach } from "vitest";
import {
  type ControlClient,
  createControlClient,
  type EmulatorOptions,
  type EmulatorState,
  type RunningEmulator,
  startEmulator,
} from "../../emulator";
import { PlatformClient, type PlatformClientOptions } from "../../sdk/index";

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

/** A started emulator with callers of its three APIs. */
export interface TestEmulator {
  emu: RunningEmulator;
  url: string;
  token: string;
  /** The typed control API client (`/__emulator/...`). */
  control: ControlClient;
  /** A raw call to the remote API (or the control API) with the token; `token: null` sends none. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  api<T = any>(method: string, path: string, body?: unknown, token?: string | null): Promise<Reply<T>>;
  /** A raw call to the local task API over the unix socket. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, checked by the assertions
  task<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>>;
  /** Moves the virtual clock on by `ms`. */
  advance(ms: number): Promise<void>;
  state(): Promise<EmulatorState>;
  /** Method, path and status of every logged request, oldest first. */
  requests(): Promise<{ method: string; path: string; status: number }[]>;
  /** An sdk client of the emulator (closed with the emulator). */
  client(options?: Partial<PlatformClientOptions>): PlatformClient;
  /** Back to the seed (`POST /__emulator/reset`). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export const tempDir = (prefix = "emu-test-") => mkdtempSync(join(tmpdir(), prefix));

/** Default timings: short enough for tests, long enough to observe the intermediate states. */
export const TEST_TIMING = {
  restoreDelayMs: 200,
  snapshotListDelayMs: 150,
  warmAfterMs: 1000,
  coldAfterMs: 5000,
};

/** Starts an emulator on 127.0.0.1 with free ports, a private task socket and `TEST_TIMING`. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({
    host: "127.0.0.1",
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: join(tempDir(), "api.sock"),
    ...options,
    timing: { ...TEST_TIMING, ...options.timing },
  });
  const control = createControlClient(emu.url, emu.token);
  const socketAgent = new Agent({ connect: { socketPath: emu.taskSocket } });
  const clients: PlatformClient[] = [];
  const reply = async <T>(res: Awaited<ReturnType<typeof request>>): Promise<Reply<T>> => {
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };
  return {
    emu,
    url: emu.url,
    token: emu.token,
    control,
    api: async <T>(method: string, path: string, body?: unknown, token: string | null = emu.token) => {
      const headers: Record<string, string> = {};
      if (token !== null) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
      return reply<T>(await request(`${emu.url}${path}`, { method: method as "GET", headers, body: text }));
    },
    task: async <T>(method: string, path: string, body?: unknown) =>
      reply<T>(
        await request(`http://platform${path}`, {
          method: method as "GET",
          dispatcher: socketAgent,
          headers: body === undefined ? {} : { "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      ),
    advance: async (ms) => {
      await control.time.advance(ms);
    },
    state: () => control.state(),
    requests: async () =>
      (await control.requests.list()).map((r) => ({ method: r.method, path: r.path, status: r.status })),
    client: (opts) => {
      const c = new PlatformClient({ baseUrl: emu.url, token: emu.token, ...opts });
      clients.push(c);
      return c;
    },
    reset: () => control.reset(),
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await socketAgent.close();
      await emu.close();
    },
  };
}

/** Timings the sdk tests' waits are tuned to (the emulator's idle defaults). */
export const SDK_TIMING = {
  restoreDelayMs: 300,
  snapshotListDelayMs: 300,
  replicationLagMs: 20,
  warmAfterMs: 5000,
  coldAfterMs: 30000,
};

export interface UseTestEmulatorOptions {
  emulator?: EmulatorOptions;
  /** Clear faults and the request log before each test. */
  resetEachTest?: boolean;
  /** Called once the emulator listens, before the tests. */
  started?: (t: TestEmulator) => void | Promise<void>;
}

/**
 * Starts an emulator before the file's (or describe block's) tests and closes it after them (after
 * afterAll hooks declared later). The returned handle is filled in when the tests start.
 */
export function useTestEmulator(options: UseTestEmulatorOptions = {}): TestEmulator {
  const handle = {} as TestEmulator;
  beforeAll(async () => {
    Object.assign(handle, await startTestEmulator(options.emulator));
    await options.started?.(handle);
  });
  afterAll(() => handle.close?.());
  if (options.resetEachTest) {
    beforeEach(async () => {
      await handle.control.faults.clear();
      await handle.control.requests.clear();
    });
  }
  return handle;
}
