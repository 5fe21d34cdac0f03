import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlClient, type RunningEmulator, startEmulator } from "../../emulator";
import { createOfflineBackend, ensurePulumiCli, offlineEngineEnv } from "../../scripts/lib/pulumi-engine";

// examples/fleet rolls one stack per app through the Automation API, eight at a time, on one
// shared file backend, against a rate-limited platform: every stack converges with no duplicate,
// a second run changes nothing, and --destroy leaves nothing at the platform.

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "..", "..");
const exampleDir = path.join(repoRoot, "examples", "fleet");
const APPS = Array.from({ length: 20 }, (_, i) => `fleet-${String(i + 1).padStart(2, "0")}`);

let emu: RunningEmulator;
let tmp: string;
let backend: ReturnType<typeof createOfflineBackend>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-e2e-"));
  emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: path.join(tmp, "api.sock"),
    seed: { apps: APPS },
    rateLimitPerSecond: 10,
  });
  backend = createOfflineBackend("fleet");
});
afterAll(async () => {
  await emu?.close();
  backend?.remove();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface FleetSummary {
  seconds: number;
  results: {
    app: string;
    ok: boolean;
    changes: Record<string, number>;
    attempts: number;
    firstError?: string;
    error?: string;
  }[];
}

async function fleet(...args: string[]): Promise<FleetSummary> {
  return fleetRun(["--count", "20", "--prefix", "fleet-", "--concurrency", "8", ...args]);
}

async function fleetRun(args: string[]): Promise<FleetSummary> {
  const cliDir = ensurePulumiCli();
  // Exit code 1 means some stack failed: its summary line still says which and why.
  const { stdout } = await run(process.execPath, ["-r", "ts-node/register", "index.ts", "--json", ...args], {
    cwd: exampleDir,
    env: {
      ...process.env,
      ...offlineEngineEnv(backend, cliDir),
      TS_NODE_PROJECT: path.join(exampleDir, "tsconfig.json"),
      TS_NODE_TRANSPILE_ONLY: "true",
      PLATFORM_API_URL: emu.url,
      PLATFORM_API_TOKEN: emu.token,
    },
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
    if (!err.stdout?.trim()) throw new Error(`${err.message}\n${err.stderr ?? ""}`);
    return { stdout: err.stdout };
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as FleetSummary;
}

/** The emulator's control API (its state and request log). */
const control = () => createControlClient(emu.url, emu.token);

describe("examples/fleet: 20 apps, one stack each, concurrency 8, a shared file backend", () => {
  it("converges under a rate limit with no duplicate, a second run is all no-change, destroy leaves nothing", async () => {
    const first = await fleet();
    expect(first.results.filter((r) => !r.ok)).toEqual([]);
    expect(first.results).toHaveLength(20);
    for (const r of first.results) expect(r.changes, r.app).toMatchObject({ create: 3 });

    const state = await control().state();
    for (const app of APPS)
      expect(
        state.volumes.filter((v) => v.app === app),
        app,
      ).toHaveLength(1);
    expect(state.certificates).toHaveLength(20);
    const requests = await control().requests.list();
    const throttled = requests.filter((r) => r.status === 429).length;
    console.log(
      `fleet e2e: 20 stacks in ${first.seconds.toFixed(1)} s at concurrency 8; ${throttled} answers were 429; second runs: ${
        first.results
          .filter((r) => r.attempts > 1)
          .map((r) => `${r.app} (${r.firstError})`)
          .join(", ") || "none"
      }`,
    );
    expect(throttled).toBeGreaterThan(0);

    const second = await fleet();
    expect(second.results.filter((r) => !r.ok)).toEqual([]);
    expect(second.results).toHaveLength(20);
    for (const r of second.results) expect(Object.keys(r.changes), r.app).toEqual(["same"]);

    const destroyed = await fleet("--destroy");
    expect(destroyed.results.filter((r) => !r.ok)).toEqual([]);
    const after = await control().state();
    expect(after.volumes).toEqual([]);
    expect(after.certificates).toEqual([]);
  });
});

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway PostgreSQL server from the machine's own binaries (Debian's `postgresql`, which
 * .ci/run installs), run as the `postgres` user since initdb refuses root. Throws saying why
 * when it cannot start.
 */
async function startPostgres(): Promise<{ url: string; stop: () => void }> {
  const versions = fs.existsSync("/usr/lib/postgresql") ? fs.readdirSync("/usr/lib/postgresql").sort() : [];
  const bin = versions.length > 0 ? path.join("/usr/lib/postgresql", versions.at(-1) as string, "bin") : "";
  if (!bin || !fs.existsSync(path.join(bin, "initdb"))) {
    throw new Error(
      "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql",
    );
  }
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-pg-"));
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  const as = (cmd: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : path.join(bin, cmd),
      asRoot ? ["-u", "postgres", "--", path.join(bin, cmd), ...args] : args,
      { stdio: "pipe" },
    );
  const port = await freePort();
  const data = path.join(dir, "data");
  as("initdb", ["-D", data, "-U", "fleet", "--auth=trust"]);
  as("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    "start",
  ]);
  as("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "fleet", "pulumi"]);
  return {
    url: `postgres://fleet@127.0.0.1:${port}/pulumi?sslmode=disable`,
    stop: () => {
      try {
        as("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

describe("examples/fleet on PostgreSQL: two runners at once on one backend", () => {
  it("two processes of 6 apps each converge; a second run changes nothing; destroy leaves nothing", async () => {
    const pg = await startPostgres();
    try {
      const halves = [APPS.slice(0, 6), APPS.slice(6, 12)];
      const both = (...extra: string[]) =>
        Promise.all(
          halves.map((apps) =>
            fleetRun(["--apps", apps.join(","), "--concurrency", "4", "--backend", pg.url, ...extra]),
          ),
        );
      const first = (await both()).flatMap((s) => s.results);
      console.log(
        `fleet e2e (PostgreSQL, 2 runners): second runs: ${
          first
            .filter((r) => r.attempts > 1)
            .map((r) => `${r.app} (${r.firstError})`)
            .join(", ") || "none"
        }`,
      );
      expect(first.filter((r) => !r.ok)).toEqual([]);
      expect(first).toHaveLength(12);
      const state = await control().state();
      for (const app of APPS.slice(0, 12))
        expect(
          state.volumes.filter((v) => v.app === app),
          app,
        ).toHaveLength(1);

      const second = (await both()).flatMap((s) => s.results);
      expect(second).toHaveLength(12);
      for (const r of second) expect(Object.keys(r.changes), r.app).toEqual(["same"]);

      const destroyed = (await both("--destroy")).flatMap((s) => s.results);
      expect(destroyed.filter((r) => !r.ok)).toEqual([]);
      const after = await control().state();
      expect(after.volumes).toEqual([]);
      expect(after.certificates).toEqual([]);
    } finally {
      pg.stop();
    }
  });
});
