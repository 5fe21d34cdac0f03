import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EngineEvent, PolicyEvent, Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { days, makeCert, type TestCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { type InlineStackOptions, programPath, withInlineStack } from "../support/engine";
import { type HostlessCli, hostlessCli, POLICY_ANALYZER_DIR } from "../support/hostless-cli";
import { policyGuardedProgram } from "./programs/policy-guarded/program";

// The ready pack (programs/policy-pack, its PulumiPolicy.yaml `runtime: nodejs` as a user writes it)
// gating a preview through the real CLI. A user's official CLI runs such a pack through its nodejs
// language host (RunPlugin): `pulumi preview --policy-pack ./guardrails`, nothing more (docs/policy.md).
// The CLI scripts/ensure-pulumi builds from Go modules has only the legacy nodejs host (sdk
// v3.68.0), which answers RunPlugin "not supported". When the CLI finds NO language plugin named
// after the pack's runtime, it falls back to the analyzer plugin `pulumi-analyzer-policy-nodejs`,
// started in the pack's directory with `<engine address> .` (NewPolicyAnalyzer in
// pkg/resource/plugin/analyzer_plugin.go, v3.259.0); older CLIs shipped it as a script running
// @pulumi/pulumi's `cmd/run-policy-pack`, which is what this project's
// test/support/analyzer/pulumi-analyzer-policy-nodejs does. So here:
// - the CLI runs from a directory of its own with `pulumi` hard-linked and no
//   `pulumi-language-nodejs` beside it or on PATH (test/support/hostless-cli.ts), with
//   PULUMI_IGNORE_AMBIENT_PLUGINS set, so that the host is not found anywhere;
// - the guarded program (programs/policy-guarded/program.ts) runs as an Automation API inline
//   program (this process serves the language runtime: no host is needed for it);
// - the inline project names the shim's directory in `plugins.analyzers` (found without PATH).
// What runs the pack's rules is the same as on an official CLI: the engine, @pulumi/pulumi's
// runner, @pulumi/policy and the pack; only the launcher differs.

const PACK = programPath("policy-pack");
/** The same pack started with the config docs/policy.md shows (a rule's config, no level). */
const CONFIGURED_PACK = programPath("policy-pack-configured");

/** A preview under the pack: whether it passed, the policy events, and everything printed. */
async function previewUnderPack(stack: Stack, configFile?: string, pack = PACK) {
  let output = "";
  const events: EngineEvent[] = [];
  const passed = await stack
    .preview({
      policyPacks: [pack],
      policyPackConfigs: configFile ? [configFile] : undefined,
      onOutput: (text) => (output += text),
      onEvent: (event) => events.push(event),
    })
    .then(
      () => true,
      (err: Error) => {
        output += `\n${err.message}`;
        return false;
      },
    );
  const violations = events.flatMap((e) => (e.policyEvent ? [e.policyEvent] : []));
  return { passed, output, violations };
}

const rule = (v: PolicyEvent) => `${v.enforcementLevel} ${v.policyName} ${v.resourceUrn?.split("::").pop()}`;

describe("the platform's policy pack through `pulumi preview --policy-pack`", () => {
  const e = useE2eEmulator();
  let soon: TestCert;
  let configDir: string;
  let cli: HostlessCli;
  beforeAll(async () => {
    soon = await makeCert("www.example.com", ["www.example.com"], { to: Date.now() + days(10) });
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), "policy-config-"));
    cli = hostlessCli();
  });
  afterAll(() => {
    cli?.remove();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  /** The guarded program inline, on the CLI without a nodejs host, the shim named by the project. */
  const guarded = (config: InlineStackOptions["config"]): InlineStackOptions => ({
    projectName: "policy-guarded",
    program: async () => policyGuardedProgram(),
    config,
    cliDir: cli.cliDir,
    path: cli.path,
    env: { PULUMI_IGNORE_AMBIENT_PLUGINS: "true" },
    plugins: { analyzers: [{ name: "policy-nodejs", path: POLICY_ANALYZER_DIR }] },
  });

  it("a mandatory violation blocks the preview, an advisory one only warns; a pack config changes both", async () => {
    await withInlineStack(
      guarded({
        ...platformConfig(e.emu),
        volume: JSON.stringify({ app: "demo-app", name: "data", encrypted: false, snapshotRetention: 7 }),
        fullchain: soon.cert,
        privateKey: { value: soon.key, secret: true },
      }),
      async ({ stack }) => {
        // encrypted: false breaks a mandatory rule; a chain with 9 days left an advisory one.
        const blocked = await previewUnderPack(stack);
        expect(blocked.passed, blocked.output).toBe(false);
        expect(blocked.violations.map(rule).sort()).toEqual([
          "advisory platform-certificate-expiry www",
          "mandatory platform-volume-encrypted data",
        ]);
        expect(blocked.output).toContain(
          "volume data of app demo-app sets encrypted: false; volumes must be encrypted",
        );
        expect(blocked.output).toMatch(
          /the custom certificate of www\.example\.com expires on .* \(in 9 days\)/,
        );
        expect(blocked.output, "no PEM text in any message").not.toContain("BEGIN");

        // The volume fixed, the advisory violation is still reported and the preview passes.
        await stack.setConfig("volume", {
          value: JSON.stringify({ app: "demo-app", name: "data", snapshotRetention: 7 }),
        });
        const warned = await previewUnderPack(stack);
        expect(warned.passed, warned.output).toBe(true);
        expect(warned.violations.map(rule)).toEqual(["advisory platform-certificate-expiry www"]);

        // A team's config: the expiry rule made mandatory, a longer snapshot retention asked for.
        const configFile = path.join(configDir, "policy-config.json");
        fs.writeFileSync(
          configFile,
          JSON.stringify({
            "platform-certificate-expiry": "mandatory",
            "platform-volume-snapshot-retention": { minimumDays: 14 },
          }),
        );
        const strict = await previewUnderPack(stack, configFile);
        expect(strict.passed, strict.output).toBe(false);
        expect(strict.violations.map(rule).sort()).toEqual([
          "mandatory platform-certificate-expiry www",
          "mandatory platform-volume-snapshot-retention data",
        ]);
        expect(strict.output).toContain("snapshots must be kept at least 14 days");

        // Nothing reached the platform: the pack judged the checked inputs at preview.
        const mutations = (await e.control.requests.list()).filter((r) => r.method !== "GET");
        expect(mutations).toEqual([]);
      },
    );
  });

  it("the documented pack config ({ minimumDays: 14 }, no enforcementLevel) keeps the retention rule mandatory", async () => {
    await withInlineStack(
      guarded({
        ...platformConfig(e.emu),
        volume: JSON.stringify({ app: "demo-app", name: "data", snapshotRetention: 7 }),
      }),
      async ({ stack }) => {
        const preview = await previewUnderPack(stack, undefined, CONFIGURED_PACK);
        expect(preview.violations.map(rule)).toEqual(["mandatory platform-volume-snapshot-retention data"]);
        expect(preview.output).toContain("snapshots must be kept at least 14 days");
        expect(preview.output).not.toContain("[advisory]  platform-volume-snapshot-retention");
        expect(preview.passed, preview.output).toBe(false);
      },
    );
  });
});
