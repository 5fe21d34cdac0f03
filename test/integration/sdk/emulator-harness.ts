import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../emulator";
import { PlatformClient, type PlatformClientOptions } from "../../../sdk/index";

/** A started emulator plus helpers for its control API. */
export interface Harness {
  emu: RunningEmulator;
  /** Calls `/__emulator/<path>` with the token; returns the JSON answer. */
  // biome-ignore lint/suspicious/noExplicitAny: control answers are loosely shaped test data
  control(method: string, path: string, body?: unknown): Promise<any>;
  /** A client for the emulator with short retries unless overridden. */
  client(opts?: Partial<PlatformClientOptions>): PlatformClient;
  /** Requests the emulator logged since the last `clearLog`. */
  requests(): Promise<{ method: string; path: string; status: number }[]>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    taskSocket: join(tmpdir(), `sdk-it-${process.pid}-${randomBytes(4).toString("hex")}.sock`),
    timing: { restoreDelayMs: 300, snapshotListDelayMs: 300, replicationLagMs: 20 },
    quiet: true,
  });
  const clients: PlatformClient[] = [];
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emu.url}/__emulator${path}`, {
      method,
      headers: {
        authorization: `Bearer ${emu.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    emu,
    control,
    client: (opts) => {
      const c = new PlatformClient({ baseUrl: emu.url, token: emu.token, ...opts });
      clients.push(c);
      return c;
    },
    requests: async () => (await control("GET", "/requests")).requests,
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await emu.close();
    },
  };
}

/**
 * The hooks the files share: starts a harness before the file's tests and hands it to `started`,
 * closes it after them (after the file's own afterAll hooks), and with `resetEachTest` clears
 * faults and the request log before each test.
 */
export function useHarness(
  started: (h: Harness) => void | Promise<void>,
  options: { resetEachTest?: boolean } = {},
): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness();
    await started(h);
  });
  afterAll(() => h?.close());
  if (options.resetEachTest) {
    beforeEach(async () => {
      await h?.control("DELETE", "/faults");
      await h?.control("DELETE", "/requests");
    });
  }
}
