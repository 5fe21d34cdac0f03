import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { makeCert, type TestCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { yamlProgram } from "../support/yaml-program";

/** Everything a preview showed: its output, the engine's events and the error it failed with. */
interface PreviewFailure {
  /** stdout, stderr, the error message and every engine event, as one text. */
  everything: string;
  /** Messages of the engine's error diagnostics. */
  errors: string[];
}

async function failedPreview(stack: Stack): Promise<PreviewFailure> {
  let output = "";
  const events: EngineEvent[] = [];
  const err = await stack
    .preview({ onOutput: (text) => (output += text), onEvent: (event) => events.push(event) })
    .then(
      () => undefined,
      (e: Error) => e,
    );
  expect(err, "the preview should fail").toBeInstanceOf(Error);
  const errors = events
    .map((e) => e.diagnosticEvent)
    .filter((d) => d?.severity === "error")
    .map((d) => String(d?.message));
  return { everything: [output, String(err?.message), JSON.stringify(events)].join("\n"), errors };
}

const CASE_KEYS = ["volume", "acme", "rotation", "custom", "fullchain", "privateKey", "privateKeyAs"];

/** Sets the config of one case, with every other case's keys removed. */
async function useCase(stack: Stack, values: Record<string, string | { value: string; secret: true }>) {
  const present = Object.keys(await stack.getAllConfig()).map((k) => k.replace(/^checked-inputs:/, ""));
  const stale = CASE_KEYS.filter((k) => present.includes(k) && !(k in values));
  if (stale.length > 0) await stack.removeAllConfig(stale);
  await stack.setAllConfig(
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? { value: v } : v])),
  );
}

/** The lines of a PEM key that carry key material (not the BEGIN/END armour). */
const keyBodyLines = (pem: string) =>
  pem
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length >= 8 && !line.startsWith("-----"));

describe("bad input is stopped at preview through the real engine, before any API call", () => {
  const e = useE2eEmulator();
  let good: TestCert;
  let other: TestCert;
  beforeAll(async () => {
    [good, other] = await Promise.all([
      makeCert("www.example.com", ["www.example.com"]),
      makeCert("other.example.com", ["other.example.com"]),
    ]);
  });

  const mutations = async () => (await e.control.requests.list()).filter((r) => r.method !== "GET");

  it("a rejected privateKey never shows its key material in preview output or engine events", async () => {
    const chain = { value: good.cert, secret: true } as const;
    const custom = JSON.stringify({ app: "demo-app", hostname: "www.example.com" });
    const truncated = good.key.split("\n").slice(0, 3).join("\n");
    const cases: {
      rule: string;
      config: Record<string, string | { value: string; secret: true }>;
      reason: RegExp;
      material: string[];
    }[] = [
      {
        rule: "a key that does not match the certificate",
        config: { custom, fullchain: chain, privateKey: { value: other.key, secret: true } },
        reason: /privateKey does not match the certificate/,
        material: keyBodyLines(other.key),
      },
      {
        rule: "a key that cannot be read (truncated PEM)",
        config: { custom, fullchain: chain, privateKey: { value: truncated, secret: true } },
        reason: /privateKey is not a PEM private key/,
        material: keyBodyLines(truncated),
      },
      {
        rule: "a key of the wrong type (a number)",
        config: {
          custom,
          fullchain: chain,
          privateKey: { value: "918273645", secret: true },
          privateKeyAs: "number",
        },
        reason: /privateKey must be a string.*\(got a number\)/,
        material: ["918273645"],
      },
      {
        rule: "a key under a misspelled name (privatekey)",
        config: {
          custom,
          fullchain: chain,
          privateKey: { value: good.key, secret: true },
          privateKeyAs: "privatekey",
        },
        reason: /unknown property privatekey: did you mean privateKey\?/,
        material: keyBodyLines(good.key),
      },
    ];
    await withStack(
      { programDir: programPath("checked-inputs"), config: platformConfig(e.emu) },
      async ({ stack }) => {
        for (const c of cases) {
          await useCase(stack, c.config);
          const preview = await failedPreview(stack);
          expect(preview.errors.join("\n"), c.rule).toMatch(c.reason);
          expect(preview.everything, `${c.rule}: no PEM armour`).not.toContain("BEGIN");
          for (const line of c.material) {
            expect(preview.everything.includes(line), `${c.rule}: key material in the output`).toBe(false);
          }
          // The engine names the property a failure points at; none points at privateKey.
          expect(preview.everything, c.rule).not.toMatch(/property privateKey value/i);
        }
      },
    );
    expect(await mutations()).toEqual([]);
  });

  it("unknown inputs and Postgres user names the platform refuses fail preview with the rule", async () => {
    const cases: { rule: string; config: Record<string, string>; reason: string }[] = [
      {
        rule: "Volume sizeGB (typo of sizeGb)",
        config: { volume: JSON.stringify({ app: "demo-app", name: "data", region: "ord", sizeGB: 10 }) },
        reason: "unknown property sizeGB: did you mean sizeGb?",
      },
      {
        rule: "AcmeCertificate hostName (typo of hostname)",
        config: {
          acme: JSON.stringify({ app: "demo-app", hostname: "www.example.com", hostName: "x.example.com" }),
        },
        reason: "unknown property hostName: did you mean hostname?",
      },
      {
        rule: "PostgresPasswordRotation of the reserved user postgres",
        config: { rotation: JSON.stringify({ clusterId: "demo-pg", username: "postgres" }) },
        reason: 'user "postgres" is reserved: its password is managed by the platform',
      },
      {
        rule: "PostgresPasswordRotation of the system user repmgr",
        config: { rotation: JSON.stringify({ clusterId: "demo-pg", username: "repmgr" }) },
        reason: 'user "repmgr" is a system user and cannot be rotated',
      },
      {
        rule: "PostgresPasswordRotation of a malformed user name",
        config: { rotation: JSON.stringify({ clusterId: "demo-pg", username: "App-User" }) },
        reason: 'username "App-User" is malformed',
      },
    ];
    await withStack(
      { programDir: programPath("checked-inputs"), config: platformConfig(e.emu) },
      async ({ stack }) => {
        for (const c of cases) {
          await useCase(stack, c.config);
          const preview = await failedPreview(stack);
          expect(preview.errors.join("\n"), c.rule).toContain(c.reason);
        }
        // The same program without the typo previews a Volume that the platform would get 10 GB for.
        await useCase(stack, {
          volume: JSON.stringify({ app: "demo-app", name: "data", region: "ord", sizeGb: 10 }),
        });
        expect((await stack.preview()).changeSummary.create).toBe(2);
      },
    );
    expect(await mutations()).toEqual([]);
  });

  it('region "mars" fails preview naming region, with no request; a well-shaped unknown "ida" is warned about at preview and refused at up', async () => {
    const volume = (region: string) => JSON.stringify({ app: "demo-app", name: "data", region });
    await withStack(
      { programDir: programPath("checked-inputs"), config: platformConfig(e.emu) },
      async ({ stack }) => {
        await useCase(stack, { volume: volume("mars") });
        await e.control.requests.clear();
        const refused = await failedPreview(stack);
        expect(refused.errors.join("\n")).toMatch(
          /property region value \{mars\} has a problem: region must be a region code, three lowercase letters such as iad or lhr \(got "mars"\)/,
        );
        expect(await e.control.requests.list()).toEqual([]);

        await useCase(stack, { volume: volume("ida") });
        let output = "";
        const warnings: { urn: string; message: string }[] = [];
        const preview = await stack.preview({
          onOutput: (text) => (output += text),
          onEvent: (event) => {
            const d = event.diagnosticEvent;
            if (d?.severity === "warning") warnings.push({ urn: d.urn ?? "", message: d.message });
          },
        });
        expect(preview.changeSummary.create).toBe(2); // the stack and the volume
        expect(output).toContain('region "ida" is not one of the platform\'s regions known to this release');
        expect(output).toContain("did you mean iad?");
        // Under the Volume, once (the program warns with the resource; the dynamic host could
        // only print it under the stack).
        expect(warnings.filter((w) => w.message.includes('region "ida"'))).toEqual([
          {
            urn: expect.stringMatching(/::pulumi-nodejs:dynamic\/platform:Volume::/),
            message: expect.stringMatching(/^region "ida" is not one of the platform's regions/),
          },
        ]);
        expect(await mutations()).toEqual([]);
        await expect(stack.up()).rejects.toThrow(/region "ida" is not a region of the platform/);
      },
    );
  });

  it("the plugin door checks region with the same declaration: mars fails preview, ida is a warning of the resource", async () => {
    const program = yamlProgram("plugin-region", "resources: {}\n");
    const withRegion = (region: string) =>
      program.write(
        `resources:\n  data:\n    type: platform:index:Volume\n    properties: { app: demo-app, name: data, region: ${region} }\n`,
      );
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async ({ stack }) => {
      withRegion("mars");
      await e.control.requests.clear();
      const refused = await failedPreview(stack);
      expect(refused.errors.join("\n")).toContain(
        'region must be a region code, three lowercase letters such as iad or lhr (got "mars")',
      );
      expect(await e.control.requests.list()).toEqual([]);

      withRegion("ida");
      let output = "";
      const warnings: { urn: string; message: string }[] = [];
      await stack.preview({
        onOutput: (text) => (output += text),
        onEvent: (event) => {
          const d = event.diagnosticEvent;
          if (d?.severity === "warning") warnings.push({ urn: d.urn ?? "", message: d.message });
        },
      });
      expect(output).toMatch(
        /warning: region "ida" is not one of the platform's regions .*did you mean iad\?/,
      );
      expect(warnings.filter((w) => w.message.includes('region "ida"'))).toEqual([
        { urn: expect.stringMatching(/::platform:index:Volume::data$/), message: expect.any(String) },
      ]);
    });
  });
});
