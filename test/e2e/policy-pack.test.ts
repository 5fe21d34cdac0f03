import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EngineEvent, PolicyEvent, Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { days, makeCert, type TestCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";

const PACK = programPath("policy-pack");
/** The same pack started with the config docs/policy.md shows (a rule's config, no level). */
const CONFIGURED_PACK = programPath("policy-pack-configured");

/**
 * The pack's PulumiPolicy.yaml, as a user writes it: `runtime: nodejs`, which the CLI runs through
 * the nodejs language host's RunPlugin (the host built with the CLI by scripts/ensure-pulumi, or
 * the one an official install carries).
 */
function writePolicyYaml(_cliDir: string, pack = PACK): void {
  fs.writeFileSync(
    path.join(pack, "PulumiPolicy.yaml"),
    "runtime: nodejs\ndescription: The platform's ready policy pack.\n",
  );
}

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
  beforeAll(async () => {
    soon = await makeCert("www.example.com", ["www.example.com"], { to: Date.now() + days(10) });
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), "policy-config-"));
  });
  afterAll(() => {
    fs.rmSync(configDir, { recursive: true, force: true });
    fs.rmSync(path.join(PACK, "PulumiPolicy.yaml"), { force: true });
    fs.rmSync(path.join(CONFIGURED_PACK, "PulumiPolicy.yaml"), { force: true });
  });

  it("a mandatory violation blocks the preview, an advisory one only warns; a pack config changes both", async () => {
    await withStack(
      {
        programDir: programPath("policy-guarded"),
        config: {
          ...platformConfig(e.emu),
          volume: JSON.stringify({ app: "demo-app", name: "data", encrypted: false, snapshotRetention: 7 }),
          fullchain: soon.cert,
          privateKey: { value: soon.key, secret: true },
        },
      },
      async ({ stack, cliDir }) => {
        writePolicyYaml(cliDir);

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
    await withStack(
      {
        programDir: programPath("policy-guarded"),
        config: {
          ...platformConfig(e.emu),
          volume: JSON.stringify({ app: "demo-app", name: "data", snapshotRetention: 7 }),
        },
      },
      async ({ stack, cliDir }) => {
        writePolicyYaml(cliDir, CONFIGURED_PACK);
        const preview = await previewUnderPack(stack, undefined, CONFIGURED_PACK);
        expect(preview.violations.map(rule)).toEqual(["mandatory platform-volume-snapshot-retention data"]);
        expect(preview.output).toContain("snapshots must be kept at least 14 days");
        expect(preview.output).not.toContain("[advisory]  platform-volume-snapshot-retention");
        expect(preview.passed, preview.output).toBe(false);
      },
    );
  });
});
