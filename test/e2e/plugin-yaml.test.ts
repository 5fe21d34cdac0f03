import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { selfSignedChain } from "../../examples/quickstart/self-signed";
import { packageSchema } from "../../provider/plugin/schema";
import { expectNoPlaintext, plainExport, platformConfig, useE2eEmulator } from "../support/e2e";
import { withStack } from "../support/engine";
import { step } from "../support/step";
import { pulumiCli, yamlProgram } from "../support/yaml-program";

const e = useE2eEmulator();
const SCHEMA_EXAMPLES = path.resolve(__dirname, "..", "..", "examples", "schema");

/**
 * The schema's YAML examples (examples/schema/<kind>/Pulumi.yaml) as one program's body: each
 * top-level section's entries gathered, every resource and output renamed `<kind>_<name>` (two
 * examples both name a volume `data`) and the references to them rewritten.
 */
function schemaYamlExamples(): string {
  const sections: Record<string, string[]> = { config: [], resources: [], outputs: [] };
  for (const kind of fs.readdirSync(SCHEMA_EXAMPLES).sort()) {
    const file = path.join(SCHEMA_EXAMPLES, kind, "Pulumi.yaml");
    if (!fs.existsSync(file)) continue;
    let text = fs.readFileSync(file, "utf8");
    const names = [...text.matchAll(/^resources:\n([\s\S]*?)(?=^\S|$(?![\s\S]))/gm)].flatMap((m) =>
      [...(m[1] ?? "").matchAll(/^ {2}(\w+):$/gm)].map((n) => String(n[1])),
    );
    for (const name of names) {
      text = text
        .replace(new RegExp(`^ {2}${name}:$`, "gm"), `  ${kind}_${name}:`)
        .replaceAll(`\${${name}.`, `\${${kind}_${name}.`);
    }
    let current: string[] | undefined;
    for (const line of text.split("\n")) {
      const top = /^(\w+):/.exec(line);
      if (top) current = sections[String(top[1])];
      else if (current && line.trim() !== "" && !line.startsWith("#")) {
        current.push(current === sections.outputs ? line.replace(/^ {2}(\w+):/, `  ${kind}_$1:`) : line);
      }
    }
  }
  return Object.entries(sections)
    .map(([section, lines]) => `${section}:\n${lines.join("\n")}\n`)
    .join("");
}
const APP = "demo-app";

const VOLUME_PROGRAM = `config:
  retention:
    type: integer
    default: 5
  snapshotRun:
    type: string
    default: first
resources:
  data:
    type: platform:index:Volume
    properties:
      app: ${APP}
      name: data
      region: ord
      sizeGb: 3
      snapshotRetention: \${retention}
  snap:
    type: platform:index:VolumeSnapshot
    properties:
      app: ${APP}
      volumeId: \${data.volumeId}
      triggers:
        run: \${snapshotRun}
  restored:
    type: platform:index:Volume
    properties:
      app: ${APP}
      name: restored
      region: ord
      snapshotId: \${snap.snapshotId}
    # The documented way to restore again: the engine replaces it whenever the snapshot is retaken.
    options:
      replaceWith:
        - \${snap}
  rotation:
    type: platform:index:PostgresPasswordRotation
    properties:
      clusterId: demo-pg
      username: app_user
variables:
  looked:
    fn::invoke:
      function: platform:index:getVolume
      arguments:
        app: ${APP}
        volumeId: \${data.volumeId}
outputs:
  volumeId: \${data.volumeId}
  retention: \${data.snapshotRetention}
  lookedUpName: \${looked.name}
  password: \${rotation.password}
  snapshotId: \${snap.snapshotId}
  restoredFrom: \${restored.snapshotId}
  restoredState: \${restored.state}
`;

/** One step of `pulumi preview --json`, the members read here. */
interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }> | null;
}

describe("the provider plugin from a Pulumi YAML program", () => {
  it("serves the schema derived from the declarations to `pulumi package get-schema`", async () => {
    const program = yamlProgram("plugin-schema", "resources: {}\n");
    await withStack({ programDir: program.dir }, async (ctx) => {
      const plugin = path.resolve(__dirname, "..", "..", "node_modules", ".bin", "pulumi-resource-platform");
      const printed = await pulumiCli(ctx, undefined, program.dir, ["package", "get-schema", plugin]);
      const served = JSON.parse(printed) as ReturnType<typeof packageSchema>;
      expect(served.resources).toEqual(packageSchema().resources);
      expect(Object.keys(served.functions).sort()).toEqual(Object.keys(packageSchema().functions).sort());
    });
  });

  it("walks preview, up, no-change preview and refresh, a retention change with its detailed diff, and destroy; the rotated password stays secret", async () => {
    const program = yamlProgram("plugin-yaml", VOLUME_PROGRAM);
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async (ctx) => {
      const { stack } = ctx;
      let password = "";
      const volumeId = await step("preview and up", async () => {
        // The stack, two volumes, the snapshot and the rotation.
        expect((await stack.preview()).changeSummary.create).toBe(5);
        const up = await stack.up();
        expect(up.outputs.retention?.value).toBe(5);
        expect(up.outputs.lookedUpName?.value).toBe("data");
        // VolumeSnapshot is a custom resource in the plugin: its id is the snapshot id.
        expect(up.outputs.restoredFrom?.value).toBe(up.outputs.snapshotId?.value);
        expect(up.outputs.restoredState?.value).toBe("created");
        // An additional secret output of the declaration: secret from YAML too.
        expect(up.outputs.password?.secret).toBe(true);
        password = String(up.outputs.password?.value);
        expect(password.length).toBeGreaterThan(8);
        return String(up.outputs.volumeId?.value);
      });
      expect((await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`)).body.snapshot_retention).toBe(5);

      await step("no-change preview and refresh", async () => {
        await stack.preview({ expectNoChanges: true });
        await stack.refresh({ expectNoChanges: true });
        expectNoPlaintext(plainExport(ctx, stack.name, program.dir), e.emu.token, [password]);
      });

      await step("a retention change: preview --json names it, up applies it in place", async () => {
        await stack.setConfig("retention", { value: "9" });
        const preview = JSON.parse(await pulumiCli(ctx, stack.name, program.dir, ["preview", "--json"])) as {
          steps: PreviewStep[];
        };
        const update = preview.steps.find((s) => s.urn.endsWith("::data"));
        expect(update?.op).toBe("update");
        expect(update?.diffReasons).toEqual(["snapshotRetention"]);
        expect(update?.detailedDiff).toEqual({ snapshotRetention: { kind: "update", inputDiff: true } });
        const up = await stack.up();
        expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
        expect(up.outputs.retention?.value).toBe(9);
        expect((await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`)).body.snapshot_retention).toBe(9);
        await stack.preview({ expectNoChanges: true });
      });

      await step("a retaken snapshot: restored again through replaceWith, and no advice", async () => {
        await stack.setConfig("snapshotRun", { value: "second" });
        const preview = await stack.preview();
        expect(preview.changeSummary).toMatchObject({ replace: 2 });
        expect(preview.stdout).not.toMatch(
          /snapshotId changes|snapshotId \(vs_\w+\) may change|replaceOnChanges/,
        );
        const before = await stack.outputs();
        const up = await stack.up();
        expect(up.stdout).not.toMatch(/snapshotId changes|replaceOnChanges/);
        expect(up.outputs.snapshotId?.value).not.toBe(before.snapshotId?.value);
        expect(up.outputs.restoredFrom?.value).toBe(up.outputs.snapshotId?.value);
        await stack.preview({ expectNoChanges: true });
      });

      await step("destroy", async () => {
        await stack.destroy();
        const gone = await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`);
        expect(gone.status === 404 || gone.body.state === "destroyed").toBe(true);
      });
    });
  });

  it("imports a volume and an ACME certificate with `pulumi import` (the next preview plans nothing), and a volume with the `import` option", async () => {
    const created = await e.api("POST", `/v1/apps/${APP}/volumes`, {
      name: "legacy",
      region: "ord",
      size_gb: 4,
      snapshot_retention: 7,
    });
    expect(created.status).toBeLessThan(300);
    const volumeId = String(created.body.id);
    const hostname = "www.import.example.com";
    expect((await e.api("POST", `/v1/apps/${APP}/certificates/acme`, { hostname })).status).toBeLessThan(300);

    const program = yamlProgram("plugin-import", "resources: {}\n");
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async (ctx) => {
      const { stack } = ctx;
      await stack.up();
      const generated = await step("pulumi import", async () => {
        const out = (file: string) => path.join(program.dir, file);
        await pulumiCli(ctx, stack.name, program.dir, [
          ...["import", "platform:index:Volume", "data", `${APP}/${volumeId}`],
          ...["--yes", "--protect=false", "--out", out("volume.yaml")],
        ]);
        await pulumiCli(ctx, stack.name, program.dir, [
          ...["import", "platform:index:AcmeCertificate", "www", `${APP}/${hostname}`],
          ...["--yes", "--protect=false", "--out", out("www.yaml")],
        ]);
        return [fs.readFileSync(out("volume.yaml"), "utf8"), fs.readFileSync(out("www.yaml"), "utf8")];
      });
      const [volumeCode, wwwCode] = generated as [string, string];
      // What the CLI generates for a YAML program: the resource with every input read back.
      expect(volumeCode).toContain("type: platform:Volume"); // YAML codegen shortens `platform:index:Volume`
      expect(volumeCode).toMatch(/name: legacy/);
      expect(volumeCode).toMatch(/snapshotRetention: 7/);
      expect(wwwCode).toContain("type: platform:AcmeCertificate");
      expect(wwwCode).toContain(`hostname: ${hostname}`);

      const resources = (code: string) => code.replace(/^resources:\n/m, "");
      const imported = `resources:\n${resources(volumeCode)}${resources(wwwCode)}`;
      await step("the generated code as the program: no changes", async () => {
        program.write(imported);
        await stack.preview({ expectNoChanges: true });
        await stack.refresh({ expectNoChanges: true });
      });

      await step("a change after the import is an update", async () => {
        program.write(imported.replace(/snapshotRetention: 7/, "snapshotRetention: 8"));
        const up = await stack.up();
        expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
        expect((await e.api("GET", `/v1/apps/${APP}/volumes/${volumeId}`)).body.snapshot_retention).toBe(8);
      });

      await step("the `import` resource option, with the identity inputs only", async () => {
        const other = await e.api("POST", `/v1/apps/${APP}/volumes`, { name: "other", region: "ord" });
        const changed = imported.replace(/snapshotRetention: 7/, "snapshotRetention: 8");
        program.write(
          `${changed}  other:\n    type: platform:index:Volume\n    properties:\n      app: ${APP}\n      name: other\n      region: ord\n    options:\n      import: ${APP}/${other.body.id}\n`,
        );
        await e.control.requests.clear();
        const up = await stack.up();
        expect(up.summary.resourceChanges).toMatchObject({ import: 1 });
        const mutating = (await e.control.requests.list()).filter((r) => r.method !== "GET");
        expect(mutating).toEqual([]);
        await stack.destroy();
        expect((await e.api("GET", `/v1/apps/${APP}/volumes/${other.body.id}`)).status).toBe(404);
      });
    });
  });
});

describe("the schema's YAML examples (examples/schema/<kind>/Pulumi.yaml)", () => {
  it("preview against the emulator in one program: every resource of every example planned, nothing refused", async () => {
    const program = yamlProgram("schema-examples", schemaYamlExamples());
    const chain = await selfSignedChain("api.example.com");
    const config = {
      ...platformConfig(e.emu),
      fullchain: chain.fullchain,
      privateKey: { value: chain.privateKey, secret: true },
    };
    await withStack({ programDir: program.dir, config }, async ({ stack }) => {
      // The stack, two volumes, a snapshot, two certificates and a rotation.
      expect((await stack.preview()).changeSummary.create).toBe(7);
    });
  });
});

describe("the plugin keeps a resource whose wait timed out (the engine's init-failed answer)", () => {
  it("an ACME certificate not yet active: `up` fails, the stack holds it, the next `up` waits again and converges with one ACME request", async () => {
    const hostname = "slow.plugin.example.com";
    const program = yamlProgram(
      "plugin-wait",
      `resources:
  www:
    type: platform:index:AcmeCertificate
    properties:
      app: ${APP}
      hostname: ${hostname}
      waitForActive: true
      waitTimeoutSeconds: 1
outputs:
  status: \${www.status}
`,
    );
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async (ctx) => {
      const { stack } = ctx;
      await e.control.requests.clear();
      await step("the wait times out: up fails, the certificate is in the stack", async () => {
        await expect(stack.up()).rejects.toThrow(/It is kept in the stack; run `pulumi up` again/);
        const { deployment } = await stack.exportStack();
        const kept = (deployment.resources as { type: string; id?: string }[]).find(
          (r) => r.type === "platform:index:AcmeCertificate",
        );
        expect(kept?.id).toBe(hostname);
      });
      await step("DNS points at the app: the next up waits again and converges", async () => {
        const cert = await e.api("GET", `/v1/apps/${APP}/certificates/${hostname}`);
        await e.control.dns.set([{ type: "A", name: hostname, value: cert.body.dns_requirements.a[0] }]);
        const up = await stack.up();
        expect(up.outputs.status?.value).toBe("active");
        const acme = (await e.control.requests.list()).filter(
          (r) => r.method === "POST" && r.path === `/v1/apps/${APP}/certificates/acme`,
        );
        expect(acme).toHaveLength(1);
        await stack.preview({ expectNoChanges: true });
        await stack.destroy();
      });
    });
  });
});

describe("the runtime's warnings through the plugin", () => {
  it("reach `pulumi up`'s output as warnings of the resource (the leftover warning of a volume created beside a same-named unattached one), with no secret in them", async () => {
    // What a rerun after a killed `up` without `recover` finds: a same-named unattached volume.
    const leftover = await e.api("POST", `/v1/apps/${APP}/volumes`, { name: "twice", region: "ord" });
    expect(leftover.status).toBeLessThan(300);
    const program = yamlProgram(
      "plugin-warnings",
      `resources:\n  data:\n    type: platform:index:Volume\n    properties: { app: ${APP}, name: twice, region: ord }\n`,
    );
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async (ctx) => {
      const printed = await pulumiCli(ctx, ctx.stack.name, program.dir, ["up", "--yes", "--skip-preview"]);
      // The engine prints a warning of a resource under its type and name.
      expect(printed).toMatch(
        /platform:index:Volume \(data\):\s+warning: volume "twice" \(vol_\w+\) was created while app demo-app already had 1 unattached volume/,
      );
      expect(printed).toContain(`${leftover.body.id}, created`);
      expect(printed).not.toContain(e.emu.token);
      await ctx.stack.destroy();
    });
    await e.api("DELETE", `/v1/apps/${APP}/volumes/${leftover.body.id}`);
  });

  it("day 2: a volume grown outside the stack plans nothing and preview warns under it, as the dynamic classes do", async () => {
    const program = yamlProgram(
      "plugin-grown",
      `resources:\n  logs:\n    type: platform:index:Volume\n    properties: { app: ${APP}, name: grown, region: ord, sizeGb: 3 }\noutputs:\n  id: \${logs.volumeId}\n`,
    );
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async (ctx) => {
      const id = String((await ctx.stack.up()).outputs.id?.value);
      await e.api("PUT", `/v1/apps/${APP}/volumes/${id}/extend`, { size_gb: 10 });
      await ctx.stack.refresh();
      const printed = await pulumiCli(ctx, ctx.stack.name, program.dir, ["preview", "--expect-no-changes"]);
      expect(printed).toMatch(
        /platform:index:Volume \(logs\):\s+warning: volume grown \(vol_\w+\) is 10 GB at the platform, more than sizeGb 3 in the program: it grew outside this stack/,
      );
      await ctx.stack.destroy();
    });
  });
});
