import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TIMING } from "../../../emulator";
import { ADOPT_EXIT, run as adopt } from "../../../ops/adopt";
import { recoverWith } from "../../../ops/recover";
import type { ExportedDeployment } from "../../../ops/recover-plan";
import type { StackAccess } from "../../../ops/stack-access";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";
import { OPS_CLI as cli } from "../../support/ops-cli";

// What a user who gets the `pulumi-platform` commands wrong sees: the exit code the help
// promises and a message that says what to fix, never the token.

const exec = promisify(execFile);
let h: TestEmulator;

beforeAll(async () => {
  h = await startTestEmulator({ timing: DEFAULT_TIMING });
});
afterAll(async () => {
  await h?.close();
});

async function adoptWith(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await adopt(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t), env });
  return { code, out, err };
}

describe("pulumi-platform adopt, used wrong", () => {
  const env = () => ({ PLATFORM_API_URL: h.emu.url, PLATFORM_API_TOKEN: h.emu.token });

  it("without --app: usage, exit 2", async () => {
    const r = await adoptWith([], env());
    expect(r.code).toBe(ADOPT_EXIT.usage);
    expect(r.err).toMatch(/--app <name> is required/);
  });

  it("an unknown option or value: usage, exit 2, naming it", async () => {
    expect((await adoptWith(["--app", "demo-app", "--bogus"], env())).err).toMatch(/bogus/);
    const r = await adoptWith(["--app", "demo-app", "--format", "yaml"], env());
    expect(r.code).toBe(ADOPT_EXIT.usage);
    expect(r.err).toMatch(/--format must be ts or json \(got "yaml"\)/);
  });

  it("no credentials: usage, exit 2, saying which variable", async () => {
    const r = await adoptWith(["--app", "demo-app"], {});
    expect(r.code).toBe(ADOPT_EXIT.usage);
    expect(r.err).toMatch(/PLATFORM_API_URL/);
  });

  it("a refused token: exit 1, says so without showing it", async () => {
    const r = await adoptWith(["--app", "demo-app"], { ...env(), PLATFORM_API_TOKEN: "wrong-token-value" });
    expect(r.code).toBe(ADOPT_EXIT.platform);
    expect(r.err).toMatch(/refused the API token \(401/);
    expect(r.err).not.toContain("wrong-token-value");
  });

  it("an unknown app: exit 1, naming it", async () => {
    const r = await adoptWith(["--app", "no-such-app"], env());
    expect(r.code).toBe(ADOPT_EXIT.platform);
    expect(r.err).toMatch(/app "no-such-app" not found/);
  });

  it("an app with nothing to adopt: exit 3, nothing written", async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "adopt-")), "adopted.ts");
    const r = await adoptWith(["--app", "demo-app", "--out", out], env());
    expect(r.code).toBe(ADOPT_EXIT.nothingToAdopt);
    expect(r.err).toMatch(/nothing to adopt, nothing written/);
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe("pulumi-platform recover and the dispatcher, used wrong", () => {
  const runCli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    exec(process.execPath, [cli, ...args], {
      env: { PATH: process.env.PATH, ...env },
      cwd: os.tmpdir(),
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it("an unknown command: exit 2 with the list of commands", async () => {
    const r = await runCli(["rescue"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "rescue"[\s\S]*recover/);
  });

  it("recover with an unknown option: exit 2, naming it", async () => {
    const r = await runCli(["recover", "--force"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--force/);
  });

  it("recover with pending creates and no credentials: says how to set them", async () => {
    const access = fakeStack([
      {
        type: "creating",
        resource: {
          urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/platform:Volume::v",
          type: "pulumi-nodejs:dynamic/platform:Volume",
          inputs: { app: "a", name: "v" },
        },
      },
    ]);
    await expect(recoverWith(access, { yes: true, environment: {}, write: () => {} })).rejects.toThrow(
      /no platform API URL: run `pulumi config set platform:apiUrl https:\/\/\.\.\.` or set the environment variable PLATFORM_API_URL/,
    );
  });

  it("recover with nothing pending does nothing but one stack export (no config, no platform)", async () => {
    const access = fakeStack([]);
    let report = "";
    expect(await recoverWith(access, { yes: true, environment: {}, write: (t) => (report += t) })).toBe(0);
    expect(access.calls).toEqual(["exportDeployment"]);
    expect(report).toMatch(/nothing to do/);
  });

  it("recover outside a Pulumi project: exit 1 with pulumi's reason", async () => {
    const r = await runCli(["recover", "--yes"], {
      PLATFORM_API_URL: h.emu.url,
      PLATFORM_API_TOKEN: h.emu.token,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/`pulumi stack export` failed/);
  });
});

/** A stack whose checkpoint holds `pending`, recording which of its operations recover used. */
function fakeStack(pending: NonNullable<ExportedDeployment["deployment"]["pending_operations"]>) {
  const calls: string[] = [];
  const called =
    <T>(name: string, value: T) =>
    async () => {
      calls.push(name);
      return value;
    };
  const access: StackAccess & { calls: string[] } = {
    calls,
    exportDeployment: called("exportDeployment", {
      version: 3,
      deployment: { resources: [], pending_operations: pending },
    }),
    importDeployment: called("importDeployment", undefined),
    cancel: called("cancel", undefined),
    configValue: called("configValue", undefined),
    backendUrl: called("backendUrl", "file:///nowhere"),
    stackName: called("stackName", "dev"),
    projectName: called("projectName", "p"),
    completedUpdates: called("completedUpdates", []),
    listStacks: called("listStacks", []),
    exportStack: called("exportStack", { version: 3, deployment: {} }),
  };
  return access;
}
