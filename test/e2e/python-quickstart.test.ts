import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createOfflineBackend, ensurePulumiCli, offlineEngineEnv } from "../../scripts/lib/pulumi-engine";
import { ensurePythonEnv, type PythonEnv } from "../../scripts/lib/python-env";
import { expectNoPlaintext, expectNothingLeftAt, plainExport, useE2eEmulator } from "../support/e2e";
import { tempDir } from "../support/emulator";
import { step } from "../support/step";

// examples/python-quickstart on the generated Python SDK (sdk-gen/python) as a Python team uses
// it: a wheel of the SDK installed with pip into a fresh venv beside pulumi from PyPI at the CLI's
// version (scripts/lib/python-env.js, pins in the example's requirements.txt), its hints checked
// by `mypy --strict` on the example, then the program run through the engine by the example's
// Automation API driver (automation.py: an inline program, the CLI connecting to the driver's
// process; the CLI here has no Python host) with the plugin and the emulator. Without Python,
// pip or PyPI the tests fail, naming what is missing.

const e = useE2eEmulator();
const APP = "demo-app";
const example = path.resolve(__dirname, "..", "..", "examples", "python-quickstart");
const SOURCES = ["program.py", "__main__.py", "automation.py"];

/** The venv, made on first use; prints how long a cold one took. */
function pythonEnv(): PythonEnv {
  const env = ensurePythonEnv();
  if (env.created) console.log(`python-quickstart: made ${env.venv} in ${env.seconds.toFixed(1)} s`);
  return env;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the event loop (the emulator answers from this process). */
function runAsync(
  cmd: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(cmd, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** `python -m mypy --strict` on `files` in `cwd`, the cache beside the venv (not in the example). */
function mypy(env: PythonEnv, cwd: string, files: string[]): Promise<Ran> {
  return runAsync(
    env.python,
    ["-m", "mypy", "--strict", "--cache-dir", path.join(env.venv, ".mypy_cache"), ...files],
    { cwd, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } },
  );
}

/** The driver's JSON answer (automation.py). */
interface DriverResult {
  ok: boolean;
  command: string;
  changes?: Record<string, number>;
  outputs?: Record<string, { value?: unknown; secret: boolean }>;
  error?: string;
  /** What the command printed (the driver's stderr: the engine's output). */
  printed?: string;
}

describe("the Python SDK as a package (pip, a fresh venv, mypy --strict)", () => {
  it("installs from a wheel of sdk-gen/python beside the pinned pulumi, and its hints pass mypy --strict on the example and catch a wrong argument", async () => {
    const env = await step("the venv", async () => pythonEnv());
    await step("what is installed", async () => {
      const listed = await runAsync(env.python, ["-m", "pip", "list", "--format=json"], { cwd: env.venv });
      expect(listed.code, listed.stderr).toBe(0);
      const versions = Object.fromEntries(
        (JSON.parse(listed.stdout) as { name: string; version: string }[]).map((p) => [
          p.name.toLowerCase().replace(/-/g, "_"),
          p.version,
        ]),
      );
      for (const pin of env.pins) {
        const [name = "", version] = pin.split("==");
        expect(versions[name.toLowerCase().replace(/-/g, "_")], pin).toBe(version);
      }
      expect(versions.pulumi).toBe("3.259.0");
      expect(versions.pulumi_platform).toBe("0.3.0");
      // Imported from the venv's site-packages (the wheel), typed (py.typed), the plugin named.
      const where = await runAsync(
        env.python,
        [
          "-c",
          "import json, pathlib, pulumi_platform as p; d = pathlib.Path(p.__file__).parent; " +
            "print(json.dumps({'dir': str(d), 'typed': (d / 'py.typed').exists(), " +
            "'plugin': json.loads((d / 'pulumi-plugin.json').read_text())}))",
        ],
        { cwd: env.venv },
      );
      expect(where.code, where.stderr).toBe(0);
      const installed = JSON.parse(where.stdout);
      expect(installed.dir.startsWith(path.join(env.venv, "lib"))).toBe(true);
      expect(installed.typed).toBe(true);
      expect(installed.plugin).toMatchObject({ resource: true, name: "platform", version: "0.3.0" });
    });

    await step("mypy --strict on the example", async () => {
      const checked = await mypy(env, example, SOURCES);
      expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);
      expect(checked.stdout).toMatch(/Success: no issues found in 3 source files/);
    });

    await step("mypy --strict on the Python block of docs/overview.md", async () => {
      const overview = fs.readFileSync(path.resolve(__dirname, "..", "..", "docs", "overview.md"), "utf8");
      const blocks = [...overview.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
      expect(blocks).toHaveLength(1);
      expect(blocks[0]).toMatch(/snapshot_id=snapshot\.snapshot_id/);
      const dir = tempDir("python-quickstart-overview-");
      onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
      fs.writeFileSync(path.join(dir, "overview.py"), blocks[0] ?? "");
      const checked = await mypy(env, dir, ["overview.py"]);
      expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);
    });

    await step(
      "mypy --strict on the schema's Python examples (examples/schema/<kind>/__main__.py)",
      async () => {
        const schemaExamples = path.resolve(__dirname, "..", "..", "examples", "schema");
        const kinds = fs
          .readdirSync(schemaExamples)
          .filter((k) => fs.existsSync(path.join(schemaExamples, k, "__main__.py")));
        expect(kinds).toHaveLength(5);
        // One run per example: each is a `__main__` module, which mypy refuses twice in one run.
        for (const kind of kinds) {
          const checked = await mypy(env, path.join(schemaExamples, kind), ["__main__.py"]);
          expect(checked.code, `${kind}: ${checked.stdout}${checked.stderr}`).toBe(0);
        }
      },
    );

    await step(
      "mypy --strict refuses a string size, a misspelt argument and a lookup's `.result`",
      async () => {
        const dir = tempDir("python-quickstart-mypy-");
        onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
        const program = fs.readFileSync(path.join(example, "program.py"), "utf8");
        const wrong = program
          .replace("size_gb=size_gb,", 'size_gb="3",\n        snapshot_retentoin=7,')
          .replace("lambda v: v.name", "lambda v: v.result.name");
        expect(wrong).not.toMatch(/size_gb=size_gb,|lambda v: v\.name/);
        fs.writeFileSync(path.join(dir, "program.py"), wrong);
        const checked = await mypy(env, dir, ["program.py"]);
        expect(checked.code).toBe(1);
        expect(checked.stdout).toMatch(
          /Unexpected keyword argument "snapshot_retentoin" for overloaded function "Volume"/,
        );
        expect(checked.stdout).toMatch(/No overload variant of "Volume" matches argument types/);
        // A lookup answers its fields (`get_volume(...).name`): there is no `result` member any more.
        expect(checked.stdout).toMatch(/"GetVolumeResult" has no attribute "result"/);
      },
    );
  });
});

describe("the Python quickstart through the engine (Automation API inline program, plugin, emulator)", () => {
  it("walks preview, up, a clean preview and refresh, a grow in place, a shrink rejected at preview, a secret password, and destroy", async () => {
    const python = pythonEnv();
    const cliDir = ensurePulumiCli();
    const backend = createOfflineBackend("python-quickstart");
    const workDir = tempDir("python-quickstart-");
    onTestFinished(() => {
      backend.remove();
      fs.rmSync(workDir, { recursive: true, force: true });
    });
    const engineEnv = { ...offlineEngineEnv(backend, cliDir), PULUMI_PLATFORM_CLI_DIR: cliDir };
    const env: NodeJS.ProcessEnv = { ...process.env, ...engineEnv, PYTHONDONTWRITEBYTECODE: "1" };
    // A developer's shell must not point the provider elsewhere.
    for (const key of ["PLATFORM_API_TOKEN", "PLATFORM_API_URL", "PULUMI_ACCESS_TOKEN"]) delete env[key];
    const stackName = "dev";

    /** One command of the driver; its JSON answer (the engine's output in the failure message). */
    const driver = async (...args: string[]): Promise<DriverResult> => {
      const started = performance.now();
      const ran = await runAsync(
        python.python,
        [path.join(example, "automation.py"), "--stack", stackName, "--work-dir", workDir, ...args],
        { cwd: workDir, env },
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`python-quickstart: automation.py ${args.slice(0, 2).join(" ")} took ${seconds} s`);
      const last = ran.stdout.trim().split("\n").pop() ?? "";
      let result: DriverResult;
      try {
        result = JSON.parse(last) as DriverResult;
      } catch {
        throw new Error(
          `automation.py ${args.join(" ")} printed no JSON (exit ${ran.code}):\n${ran.stdout}\n${ran.stderr}`,
        );
      }
      expect(ran.code).toBe(result.ok ? 0 : 1);
      expect(result.command).toBe(args[0]);
      return { ...result, printed: ran.stderr };
    };
    const ok = async (...args: string[]): Promise<DriverResult> => {
      const result = await driver(...args);
      expect(result.ok, `automation.py ${args.join(" ")}: ${result.error}`).toBe(true);
      return result;
    };
    const volume = async (id: string) => (await e.api("GET", `/v1/apps/${APP}/volumes/${id}`)).body;

    await step("config", async () => {
      await ok("set-config", "platform:apiUrl", e.url);
      await ok("set-config", "--secret", "platform:apiToken", e.token);
      await ok("set-config", "sizeGb", "3");
      // The token is stored encrypted in the stack's settings file.
      const settings = fs.readFileSync(path.join(workDir, `Pulumi.${stackName}.yaml`), "utf8");
      expect(settings).not.toContain(e.token);
      expect(settings).toMatch(/platform:apiToken:\s*\n\s*secure:/);
    });

    await step("preview", async () => {
      // The stack, the volume, its snapshot, the restored volume, the certificate, the rotation.
      const preview = await ok("preview");
      expect(preview.changes).toEqual({ create: 6 });
    });

    const ids = await step("up", async () => {
      const up = await ok("up");
      expect(up.changes).toEqual({ create: 6 });
      const outputs = up.outputs ?? {};
      const out = (key: string) => {
        expect(outputs[key]?.secret, `${key} is not a secret`).toBe(false);
        return outputs[key]?.value;
      };
      expect(out("app")).toBe(APP);
      expect(out("sizeGb")).toBe(3);
      expect(String(out("snapshotId"))).toMatch(/\S/);
      expect(out("restoredState")).toBe("created");
      // The restore names the snapshot the program took of the first volume: typed outputs chained.
      expect(out("restoredFrom")).toBe(out("snapshotId"));
      // The lookup's fields are its answer: get_volume_output(...).name.
      expect(out("lookedUpName")).toBe("data");
      expect(out("certificateHostname")).toBe("*.py.example.com");
      expect(String(out("acmeChallenge"))).toMatch(/^_acme-challenge\.py\.example\.com CNAME \S+$/);
      expect(["app_user", "app_user_b"]).toContain(out("postgresUsername"));
      // A secret output: flagged, its value left out of the driver's answer.
      expect(outputs.postgresPassword).toEqual({ secret: true });
      return {
        data: String(out("volumeId")),
        restored: String(out("restoredVolumeId")),
        user: String(out("postgresUsername")),
      };
    });
    expect((await volume(ids.data)).size_gb).toBe(3);
    expect((await volume(ids.restored)).name).toBe("data_restored");
    expect((await e.state()).certificates.map((c) => c?.hostname)).toEqual(["*.py.example.com"]);

    await step("preview --expect-no-changes, refresh --expect-no-changes", async () => {
      const preview = await ok("preview", "--expect-no-changes");
      expect(preview.changes).toEqual({ same: 6 });
      await ok("refresh", "--expect-no-changes");
    });

    await step("the password: a secret in the state, the credential the platform accepts", async () => {
      const ctx = { env: engineEnv, cliDir };
      const plain = plainExport(ctx, stackName, workDir);
      const rotation = (
        JSON.parse(plain).deployment.resources as { type: string; outputs?: Record<string, unknown> }[]
      ).find((r) => r.type === "platform:index:PostgresPasswordRotation");
      // The secret's envelope (the engine's signature key), its value only as ciphertext.
      expect(rotation?.outputs?.password).toMatchObject({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        ciphertext: expect.any(String),
      });
      const shown = await runAsync(
        path.join(cliDir, "pulumi"),
        ["stack", "output", "postgresPassword", "--show-secrets", "--stack", stackName],
        {
          cwd: workDir,
          env: { ...process.env, ...engineEnv },
        },
      );
      expect(shown.code, shown.stderr).toBe(0);
      const password = shown.stdout.trim();
      expect(password.length).toBeGreaterThan(8);
      expect(await e.control.postgres.login("demo-pg", { username: ids.user, password })).toBe(true);
      expectNoPlaintext(plain, e.token, [password]);
    });

    await step("a grow in place: sizeGb 3 → 5 is one update, no replace", async () => {
      await ok("set-config", "sizeGb", "5");
      const up = await ok("up");
      expect(up.changes).toEqual({ update: 1, same: 5 });
      expect(up.outputs?.volumeId?.value).toBe(ids.data);
      expect(up.outputs?.sizeGb?.value).toBe(5);
      expect((await volume(ids.data)).size_gb).toBe(5);
      await ok("preview", "--expect-no-changes");
    });

    await step("a shrink 5 → 4 rejected at preview, naming sizeGb, with no mutating request", async () => {
      await ok("set-config", "sizeGb", "4");
      await e.control.requests.clear();
      const rejected = await driver("preview");
      expect(rejected.ok, "the shrink's preview must fail").toBe(false);
      expect(rejected.error).toMatch(/sizeGb/);
      expect(rejected.error).toMatch(/volumes can only grow: 5 GB → 4 GB/);
      const mutating = (await e.control.requests.list()).filter((r) => r.method !== "GET");
      expect(mutating).toEqual([]);
      expect((await volume(ids.data)).size_gb).toBe(5);
      await ok("set-config", "sizeGb", "5");
    });

    await step("a retaken snapshot: restored again through replace_with, and no advice", async () => {
      await ok("set-config", "snapshotRun", "2");
      const preview = await ok("preview");
      expect(preview.changes).toMatchObject({ replace: 2 });
      expect(preview.printed).not.toMatch(/snapshotId changes|may change at this up|replaceOnChanges/);
      const up = await ok("up");
      expect(up.changes).toMatchObject({ replace: 2 });
      expect(up.printed).not.toMatch(/snapshotId changes|replaceOnChanges/);
      expect(up.outputs?.restoredFrom?.value).toBe(up.outputs?.snapshotId?.value);
      expect(up.outputs?.restoredVolumeId?.value).not.toBe(ids.restored);
      await ok("preview", "--expect-no-changes");
    });

    await step("destroy: nothing left at the platform", async () => {
      const destroyed = await ok("destroy");
      expect(destroyed.changes).toEqual({ delete: 6 });
      await expectNothingLeftAt(e, APP, [ids.data, ids.restored]);
    });
  });
});
