import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineEvent, LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { FALLBACK_WARNING, RECORDED_ANYWAY } from "../../provider/runtime/credentials";
import { plainExport } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { yamlProgram } from "../support/yaml-program";

// Rotating the API token: the platform accepts only the new token, the user runs
// `pulumi config set --secret platform:apiToken <new>`. Observed through the engine: `up` and
// `preview` configure the provider with the current stack config; `refresh` and `destroy`
// configure it with the config recorded in the state (the default provider's inputs), i.e. the
// old token, until an `up` or a `--run-program` run records the new one. An `up` whose token the
// platform refuses records nothing: the TypeScript program asks the platform first and registers
// no resource (issue 45). The same through the provider plugin (issue 30), from a Pulumi YAML
// program (whose failed `up` still records its token: no program code runs before the engine's
// provider step).

const OLD_TOKEN = "rotation-old-token-4f1c9a";
const NEW_TOKEN = "rotation-new-token-7b2e5d";
const WRONG_TOKEN = "rotation-wrong-token-0c3d8e";
const dir = mkdtempSync(join(tmpdir(), "token-rotation-"));
let emu: RunningEmulator | undefined;

/** An emulator on `port` (0: any) accepting only `token`, its state kept in one file per `world`. */
async function platformWithToken(
  token: string,
  port: number,
  label: string,
  world = "state",
): Promise<RunningEmulator> {
  return startEmulator({
    port,
    eventsPort: 0,
    quiet: true,
    token,
    stateFile: join(dir, `${world}.json`),
    taskSocket: join(dir, `${label}.sock`),
  });
}

afterAll(async () => {
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Diagnostic = NonNullable<EngineEvent["diagnosticEvent"]>;

/** A Volume's error (the provider's report of a failed operation). */
const volumeError = (d: Diagnostic) => /platform:(index:)?Volume::/.test(d.urn ?? "");

/**
 * Runs `op`, which must fail; returns the error diagnostics the engine reported that `which`
 * keeps (default: a Volume's).
 */
async function failingRun(
  op: (onEvent: (e: EngineEvent) => void) => Promise<unknown>,
  which: (d: Diagnostic) => boolean = volumeError,
): Promise<string[]> {
  const events: EngineEvent[] = [];
  const outcome = await op((e) => events.push(e)).then(
    () => "succeeded",
    () => "failed",
  );
  expect(outcome).toBe("failed");
  return events
    .map((e) => e.diagnosticEvent)
    .filter((d): d is Diagnostic => d?.severity === "error" && which(d))
    .map((d) => String(d.message));
}

const count = (text: string, part: string) => text.split(part).length - 1;

/** Every error but the engine's closing "update failed" (a program's error has no resource). */
const programError = (d: Diagnostic) => !/^error: update failed/.test(d.message.trim());

type ExportedResource = { type: string; inputs?: Record<string, unknown> };

/** Which of this file's tokens the state records, decrypted (the Automation API's export), never the token itself. */
async function decryptedRecordedToken(stack: Stack): Promise<string> {
  const resources = (await stack.exportStack()).deployment.resources as ExportedResource[];
  const recorded = resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs")?.inputs?.[
    "platform:apiToken"
  ] as { plaintext?: unknown } | string | undefined;
  const value = typeof recorded === "string" ? recorded : JSON.parse(String(recorded?.plaintext ?? "null"));
  const names: Record<string, string> = {
    [OLD_TOKEN]: "the old token",
    [NEW_TOKEN]: "the new token",
    [WRONG_TOKEN]: "the wrong token",
  };
  return names[String(value)] ?? "another value";
}

async function volumeStates(): Promise<string[]> {
  return (emu?.store.dump().volumes ?? []).map((v) => v.state);
}

describe("token rotation through the real engine", () => {
  it("refresh and destroy after `pulumi config set --secret platform:apiToken <new>`: the advice that works, then recovery", async () => {
    emu = await platformWithToken(OLD_TOKEN, 0, "old");
    const port = Number(new URL(emu.url).port);
    const volume = JSON.stringify({ app: "demo-app", name: "data", region: "ord", sizeGb: 1 });
    const config = {
      "platform:apiUrl": emu.url,
      "platform:apiToken": { value: OLD_TOKEN, secret: true },
      volume,
    };
    const programDir = programPath("checked-inputs");
    await withStack({ programDir, config }, async (ctx) => {
      const { stack } = ctx;
      await stack.up();

      // docs/configuration.md: the token is in the state, as the default dynamic provider's recorded
      // config, encrypted by the stack's secrets provider; never in plaintext.
      const exported = plainExport(ctx, stack.name, programDir);
      expect(exported).not.toContain(OLD_TOKEN);
      const provider = (
        JSON.parse(exported).deployment.resources as { type: string; inputs: Record<string, unknown> }[]
      ).find((r) => r.type === "pulumi:providers:pulumi-nodejs");
      expect(provider?.inputs["platform:apiToken"]).toEqual({
        "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
        ciphertext: expect.stringMatching(/^v1:/),
      });
      // The program's token check held the registration through `dependsOn`: nothing recorded of it.
      const recordedVolume = (
        JSON.parse(exported).deployment.resources as { type: string; dependencies?: string[] }[]
      ).find((r) => r.type.endsWith("platform:Volume"));
      expect(recordedVolume?.dependencies ?? []).toEqual([]);

      // The platform now accepts only the new token; the user records it in the stack config.
      await emu?.close();
      emu = await platformWithToken(NEW_TOKEN, port, "new");
      await stack.setConfig("platform:apiToken", { value: NEW_TOKEN, secret: true });

      // refresh still uses the old token: the advice names --run-program / `pulumi up`, once
      // per message, and not the `pulumi config set` step the user already took.
      const refreshErrors = await failingRun((onEvent) => stack.refresh({ onEvent }));
      expect(refreshErrors).toHaveLength(1);
      const refreshError = refreshErrors[0] ?? "";
      expect(refreshError).toContain("failed with 401");
      expect(count(refreshError, "`pulumi refresh --run-program`")).toBe(1);
      expect(count(refreshError, "`pulumi up` first")).toBe(1);
      expect(refreshError).not.toContain("pulumi config set");
      expect(refreshError).not.toContain(OLD_TOKEN);
      expect(refreshError).not.toContain(NEW_TOKEN);

      // destroy likewise, and nothing is deleted.
      const destroyErrors = await failingRun((onEvent) => stack.destroy({ onEvent }));
      expect(destroyErrors).toHaveLength(1);
      expect(count(destroyErrors[0] ?? "", "`pulumi destroy --run-program`")).toBe(1);
      expect(destroyErrors[0]).not.toContain("pulumi config set");
      expect(await volumeStates()).toEqual(["created"]);

      // PLATFORM_API_TOKEN alone does not replace the token the stack names: a 401 also answers
      // a deliberately narrow token, and the environment's may be another identity.
      const workspace = stack.workspace as LocalWorkspace;
      workspace.envVars.PLATFORM_API_TOKEN = NEW_TOKEN;
      const notOptedIn = await failingRun((onEvent) => stack.refresh({ onEvent }));
      expect(notOptedIn).toHaveLength(1);
      expect(notOptedIn[0]).toContain("failed with 401");
      expect(notOptedIn[0]).toContain(
        "set PLATFORM_API_TOKEN to the new token and PLATFORM_API_TOKEN_FALLBACK=1 for this command",
      );

      // Fix 1: PLATFORM_API_TOKEN holding the new token, and the opt-in; the provider repeats the
      // refused call with it and says so in a warning.
      workspace.envVars.PLATFORM_API_TOKEN_FALLBACK = "1";
      // What reaches the user: the provider's stderr, printed by the engine under the stack.
      const messages: string[] = [];
      let output = "";
      await stack.refresh({
        expectNoChanges: true,
        onOutput: (text) => (output += text),
        onEvent: (e) => e.diagnosticEvent && messages.push(e.diagnosticEvent.message),
      });
      expect(messages.filter((m) => m.includes(FALLBACK_WARNING))).toHaveLength(1);
      expect(output).toContain(`warning: ${FALLBACK_WARNING}`);
      expect(output).not.toContain(NEW_TOKEN);

      // Fix 2: --run-program configures the provider from the current config and records it,
      // so a plain refresh afterwards works too.
      delete workspace.envVars.PLATFORM_API_TOKEN_FALLBACK;
      await stack.refresh({ runProgram: true, expectNoChanges: true });
      await stack.refresh({ expectNoChanges: true });
      expect(await decryptedRecordedToken(stack)).toBe("the new token");

      // `up` with a wrong token: the program asks the platform first (one read of the volume's
      // app) and stops before it registers anything, so the engine records nothing, the stack
      // keeps the token that worked, and nothing is changed with the environment's token.
      await stack.setConfig("platform:apiToken", { value: WRONG_TOKEN, secret: true });
      await stack.setConfig("volume", { value: JSON.stringify({ ...JSON.parse(volume), sizeGb: 2 }) });
      workspace.envVars.PLATFORM_API_TOKEN = NEW_TOKEN;
      workspace.envVars.PLATFORM_API_TOKEN_FALLBACK = "1";
      emu?.emulator.requestLog.clear();
      const upErrors = await failingRun((onEvent) => stack.up({ onEvent }), programError);
      expect(upErrors).toHaveLength(1);
      const upError = upErrors[0] ?? "";
      // The message alone: no "Error:" and no stack frames of this package.
      expect(upError).toMatch(
        /^The platform refused the API token of the stack config \(platform:apiToken\)/,
      );
      expect(upError).not.toMatch(/\n\s+at /);
      expect(upError).toContain("GET /v1/apps/demo-app/volumes failed with 401");
      expect(upError).toContain("Nothing was changed");
      expect(upError).toContain("the stack keeps the token of its last successful `pulumi up`");
      expect(count(upError, "pulumi config set --secret platform:apiToken <token>")).toBe(1);
      expect(upError).toContain("PLATFORM_API_TOKEN is used only when the stack config sets no token");
      expect(upError).not.toContain(RECORDED_ANYWAY);
      for (const token of [WRONG_TOKEN, NEW_TOKEN, OLD_TOKEN]) expect(upError).not.toContain(token);
      expect(emu?.emulator.requestLog.list().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        "GET /v1/apps/demo-app/volumes 401",
      ]);
      expect(emu?.store.dump().volumes.map((v) => v.size_gb)).toEqual([1]);
      // The recorded token is still the one that worked (the engine wrote the state again, so its
      // ciphertext is new: compared decrypted).
      expect(await decryptedRecordedToken(stack)).toBe("the new token");

      // The config is fixed: a plain refresh works at once (before, it was configured with the
      // failed up's token and needed --run-program).
      await stack.setConfig("platform:apiToken", { value: NEW_TOKEN, secret: true });
      await stack.setConfig("volume", { value: volume });
      delete workspace.envVars.PLATFORM_API_TOKEN;
      delete workspace.envVars.PLATFORM_API_TOKEN_FALLBACK;
      await stack.refresh({ expectNoChanges: true });
      const exportedAfter = plainExport(ctx, stack.name, programDir);
      expect(exportedAfter).not.toContain(NEW_TOKEN);
      await destroyAll(stack);
    });
    expect(await volumeStates()).not.toContain("created");
  });
});

describe("token rotation through the provider plugin (a Pulumi YAML program)", () => {
  it("refresh with the refused recorded token: the advice, then PLATFORM_API_TOKEN with the opt-in and the warning under the resource; no token printed, the plugin's -v=9 logs included", async () => {
    let platform = await platformWithToken(OLD_TOKEN, 0, "plugin-old", "plugin-state");
    const port = Number(new URL(platform.url).port);
    const program = yamlProgram(
      "plugin-token",
      "resources:\n  data:\n    type: platform:index:Volume\n    properties: { app: demo-app, name: data, region: ord, sizeGb: 1 }\n",
    );
    const config = {
      "platform:apiUrl": platform.url,
      "platform:apiToken": { value: OLD_TOKEN, secret: true },
    };
    try {
      await withStack({ programDir: program.dir, config }, async ({ stack }) => {
        await stack.up();
        await platform.close();
        platform = await platformWithToken(NEW_TOKEN, port, "plugin-new", "plugin-state");
        await stack.setConfig("platform:apiToken", { value: NEW_TOKEN, secret: true });

        const refused = await failingRun((onEvent) => stack.refresh({ onEvent }));
        expect(refused).toHaveLength(1);
        expect(refused[0]).toContain("failed with 401");
        expect(count(refused[0] ?? "", "`pulumi refresh --run-program`")).toBe(1);
        expect(refused[0]).not.toContain(OLD_TOKEN);

        const workspace = stack.workspace as LocalWorkspace;
        workspace.envVars.PLATFORM_API_TOKEN = NEW_TOKEN;
        workspace.envVars.PLATFORM_API_TOKEN_FALLBACK = "1";
        const warnings: string[] = [];
        let output = "";
        let logs = "";
        await stack.refresh({
          expectNoChanges: true,
          logToStdErr: true,
          logVerbosity: 9,
          onOutput: (text) => (output += text),
          onError: (text) => (logs += text),
          onEvent: (e) => {
            const d = e.diagnosticEvent;
            if (d?.severity === "warning") warnings.push(`${d.urn?.split("::").at(-1)}: ${d.message}`);
          },
        });
        // Under the resource it was about, once, naming which token was refused and the fix.
        expect(warnings.filter((w) => w.includes(FALLBACK_WARNING))).toEqual([
          expect.stringMatching(/^data: /),
        ]);
        expect(output).toMatch(
          /platform:index:Volume \(data\):\s+warning: The platform refused the API token recorded/,
        );
        expect(logs).toContain("pulumi-resource-platform");
        for (const token of [OLD_TOKEN, NEW_TOKEN]) expect(output).not.toContain(token);
        // At -v=9 the CLI logs the values it sends to `Configure`, the recorded token among them
        // (the CLI's own marshaling log, outside the plugin); no other line holds a token.
        const withToken = logs.split("\n").filter((l) => l.includes(OLD_TOKEN) || l.includes(NEW_TOKEN));
        for (const line of withToken) {
          expect(line).toMatch(
            /"msg":"Marshaling property for RPC\[Provider\[\w+\]\.Configure\(\)\.inputs\]: value=/,
          );
        }
        expect(platform.store.dump().volumes.map((v) => v.state)).toEqual(["created"]);
      });
    } finally {
      await platform.close();
    }
  });
});

async function destroyAll(stack: Stack): Promise<void> {
  const destroyed = await stack.destroy();
  expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
}
