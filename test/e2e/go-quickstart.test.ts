import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import { createOfflineBackend, ensurePulumiCli, offlineEngineEnv } from "../../scripts/lib/pulumi-engine";
import {
  expectNoPlaintext,
  expectNothingLeftAt,
  plainExport,
  platformConfig,
  useE2eEmulator,
} from "../support/e2e";
import { step } from "../support/step";

// examples/go-quickstart (a volume, its snapshot, a restore, an ACME certificate, an alternating
// Postgres password rotation) on the generated Go SDK, through the real CLI and the plugin
// pulumi-resource-platform, as an Automation API INLINE program: examples/go-quickstart/automation
// runs quickstart.Program (the function the example's `runtime: go` main.go runs too) with
// auto.UpsertStackInlineSource; its own process serves the language runtime and the CLI connects
// to it, so no Go language host is needed (the CLI here has none). The driver is built once, in
// beforeAll; each command is one run of it, printing a JSON result.

const e = useE2eEmulator();
const APP = "demo-app";
const HOSTNAME = "*.go.example.com";
const example = path.resolve(__dirname, "..", "..", "examples", "go-quickstart");
const root = path.resolve(__dirname, "..", "..");

/** What the driver prints on stdout (examples/go-quickstart/automation/main.go's `result`). */
const DriverResult = z.object({
  command: z.string(),
  ok: z.boolean(),
  changes: z.record(z.string(), z.number()).optional(),
  outputs: z.record(z.string(), z.object({ value: z.unknown(), secret: z.boolean() })).optional(),
  error: z.string().optional(),
});
/** The driver's result, and what the command printed (its stderr: the engine's output). */
type DriverResult = z.infer<typeof DriverResult> & { printed?: string };

/** Seconds since `started`, for the log. */
const seconds = (started: number) => ((performance.now() - started) / 1000).toFixed(1);

/**
 * Builds the driver with `go build -trimpath` (the flag CI's gen-sdks check builds the example
 * with, so the Go build cache is shared), printing how long it took: a cold build cache compiles
 * the Pulumi Go SDK and its Automation API (minutes), a warm one takes seconds.
 */
function buildDriver(outDir: string): string {
  const bin = path.join(outDir, "go-quickstart-automation");
  const started = performance.now();
  try {
    execFileSync("go", ["build", "-trimpath", "-o", bin, "./automation"], {
      cwd: example,
      stdio: ["ignore", "ignore", "pipe"],
    });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(
      `go build of examples/go-quickstart/automation failed (is the Go toolchain \`go\` on PATH?): ${String(err)}\n${stderr}`,
    );
  }
  console.log(`go-quickstart: go build -trimpath ./automation took ${seconds(started)} s`);
  return bin;
}

describe("the Go quickstart through the engine (an Automation API inline program, the plugin, the emulator)", () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "go-quickstart-driver-"));
  let driver: string | undefined;
  let buildError: unknown;
  // A failed build (no `go`, a compile error) fails the test below; a failed hook would only
  // mark it skipped.
  beforeAll(() => {
    try {
      driver = buildDriver(outDir);
    } catch (err) {
      buildError = err;
    }
  });
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it("walks preview, up, a clean preview and refresh, the password a secret in the state, a grow in place, a shrink rejected at preview, and destroy", async () => {
    if (driver === undefined) throw buildError;
    const bin = driver;
    const cliDir = ensurePulumiCli();
    const backend = createOfflineBackend("go-quickstart");
    onTestFinished(() => backend.remove());
    const workDir = path.join(backend.dir, "work");
    const env = { ...offlineEngineEnv(backend, cliDir), PULUMI_PLATFORM_CLI_DIR: cliDir };
    const STACK = "dev";

    /** One run of the driver: its parsed result (a non-zero exit is a result with ok false). */
    const drive = (args: string[]): Promise<DriverResult> => {
      const started = performance.now();
      return new Promise((resolve, reject) => {
        execFile(
          bin,
          ["-stack", STACK, "-work-dir", workDir, "-plugin-dir", root, ...args],
          { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
          (err, stdout, stderr) => {
            // Never a config value (the token is one).
            const shown = args[0] === "set-config" ? args.slice(0, -1) : args;
            console.log(`go-quickstart: ${shown.join(" ")} took ${seconds(started)} s`);
            const line = stdout.trim().split("\n").pop() ?? "";
            try {
              resolve({ ...DriverResult.parse(JSON.parse(line)), printed: stderr });
            } catch (parseErr) {
              reject(
                new Error(
                  `driver ${args[0]}: no JSON result (${String(parseErr)}; exit ${err?.code ?? 0})\n${stderr}`,
                ),
              );
            }
          },
        );
      });
    };
    /** A run that must succeed. */
    const ok = async (args: string[]): Promise<DriverResult> => {
      const result = await drive(args);
      expect(result.ok, `${result.command}: ${result.error}`).toBe(true);
      return result;
    };
    const volume = async (id: string) => (await e.api("GET", `/v1/apps/${APP}/volumes/${id}`)).body;
    const hostnames = async () => ((await e.state()).certificates ?? []).map((c) => c.hostname);

    await step("config", async () => {
      const config = platformConfig(e.emu);
      await ok(["set-config", "platform:apiUrl", config["platform:apiUrl"]]);
      await ok(["set-config", "-secret", "platform:apiToken", config["platform:apiToken"].value]);
      await ok(["set-config", "sizeGb", "3"]);
    });

    await step("preview", async () => {
      // The stack, the volume, its snapshot, the restored volume, the certificate, the rotation.
      const preview = await ok(["preview"]);
      expect(preview.changes?.create).toBe(6);
    });

    const ids = await step("up", async () => {
      const up = await ok(["up"]);
      expect(up.changes).toEqual({ create: 6 });
      const out = (key: string) => up.outputs?.[key]?.value;
      expect(out("app")).toBe(APP);
      expect(out("sizeGb")).toBe(3);
      expect(String(out("snapshotId"))).toMatch(/^vs_/);
      expect(out("restoredState")).toBe("created");
      // The restore names the snapshot the program took of the first volume: typed outputs chained.
      expect(out("restoredFrom")).toBe(out("snapshotId"));
      // The lookup's fields are its answer: LookupVolumeOutput(...).Name().
      expect(out("lookedUpName")).toBe("data");
      expect(out("certHostname")).toBe(HOSTNAME);
      expect(out("certStatus")).toBe("pending_validation");
      expect(out("acmeChallengeRecord")).toMatchObject({ name: "_acme-challenge.go.example.com" });
      // The first rotation of an alternating pair rotates `username` and makes it current.
      expect(out("dbUsername")).toBe("app_user");
      // A secret output, printed as such.
      expect(up.outputs?.dbPassword).toEqual({ value: "[secret]", secret: true });
      expect(up.outputs?.volumeId?.secret).toBe(false);
      return {
        data: String(out("volumeId")),
        restored: String(out("restoredVolumeId")),
      };
    });
    expect((await volume(ids.data)).size_gb).toBe(3);
    expect((await volume(ids.restored)).name).toBe("data_restored");
    expect(await hostnames()).toEqual([HOSTNAME]);

    await step("preview --expect-no-changes, refresh --expect-no-changes", async () => {
      await ok(["preview", "--expect-no-changes"]);
      const refresh = await ok(["refresh", "--expect-no-changes"]);
      expect(refresh.changes).toEqual({ same: 6 });
    });

    await step(
      "the password: the platform's, a secret in the state (ciphertext in `pulumi stack export`)",
      async () => {
        // Printed as "[secret]" unless asked (-show-secrets, as `pulumi stack output --show-secrets`).
        expect((await ok(["outputs"])).outputs?.dbPassword).toEqual({ value: "[secret]", secret: true });
        const withSecrets = await ok(["-show-secrets", "outputs"]);
        const password = withSecrets.outputs?.dbPassword;
        expect(password?.secret).toBe(true);
        expect(typeof password?.value).toBe("string");
        const value = String(password?.value);
        expect(await e.control.postgres.login("demo-pg", { username: "app_user", password: value })).toBe(
          true,
        );
        const exported = plainExport({ env, cliDir }, STACK, workDir);
        expectNoPlaintext(exported, e.emu.token, [value]);
        const resources: { type?: string; outputs?: Record<string, unknown> }[] =
          JSON.parse(exported).deployment.resources ?? [];
        const rotation = resources.find((r) => r.type === "platform:index:PostgresPasswordRotation");
        expect(rotation?.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
        const stackOutputs = resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs;
        expect(stackOutputs?.dbPassword).toMatchObject({ ciphertext: expect.any(String) });
      },
    );

    await step("a grow in place: sizeGb 3 → 5 is one update, no replace", async () => {
      await ok(["set-config", "sizeGb", "5"]);
      const up = await ok(["up"]);
      expect(up.changes).toEqual({ update: 1, same: 5 });
      expect(up.outputs?.volumeId?.value).toBe(ids.data);
      expect(up.outputs?.sizeGb?.value).toBe(5);
      expect((await volume(ids.data)).size_gb).toBe(5);
      await ok(["preview", "--expect-no-changes"]);
    });

    await step("a shrink 5 → 4 rejected at preview, naming sizeGb, with no mutating request", async () => {
      await ok(["set-config", "sizeGb", "4"]);
      await e.control.requests.clear();
      const rejected = await drive(["preview"]);
      expect(rejected.ok, "the shrink's preview must fail").toBe(false);
      expect(rejected.error).toMatch(/sizeGb/);
      expect(rejected.error).toMatch(/volumes can only grow: 5 GB → 4 GB/);
      const mutating = (await e.control.requests.list()).filter((r) => r.method !== "GET");
      expect(mutating).toEqual([]);
      expect((await volume(ids.data)).size_gb).toBe(5);
      await ok(["set-config", "sizeGb", "5"]);
    });

    await step("a retaken snapshot: restored again through pulumi.ReplaceWith, and no advice", async () => {
      await ok(["set-config", "snapshotRun", "2"]);
      const preview = await ok(["preview"]);
      expect(preview.changes).toMatchObject({ replace: 2 });
      expect(preview.printed).not.toMatch(/snapshotId changes|may change at this up|replaceOnChanges/);
      const up = await ok(["up"]);
      expect(up.changes).toMatchObject({ replace: 2 });
      expect(up.printed).not.toMatch(/snapshotId changes|replaceOnChanges/);
      expect(up.outputs?.restoredFrom?.value).toBe(up.outputs?.snapshotId?.value);
      expect(up.outputs?.restoredVolumeId?.value).not.toBe(ids.restored);
      await ok(["preview", "--expect-no-changes"]);
    });

    await step("destroy: nothing left at the platform", async () => {
      const destroy = await ok(["destroy"]);
      expect(destroy.changes).toEqual({ delete: 6 });
      await expectNothingLeftAt(e, APP, [ids.data, ids.restored]);
    });
  });
});
