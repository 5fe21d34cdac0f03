import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { withStack } from "../support/engine";
import { step } from "../support/step";
import { pulumiCliTranscript, yamlProgram } from "../support/yaml-program";

const e = useE2eEmulator();
const APP = "demo-app";

/** What the CLI prints when an import's inputs fail the provider's check. */
const PROVIDER_BUG = /almost certainly a bug|failed to validate/;

describe("`pulumi import` of every kind through the plugin", () => {
  it("prints no provider-bug warning: a Volume and an AcmeCertificate are imported; a CustomCertificate, a rotation and a snapshot are refused, each saying what to do", async () => {
    const volume = await e.api("POST", `/v1/apps/${APP}/volumes`, { name: "legacy", region: "ord" });
    expect(volume.status).toBeLessThan(300);
    const snapshot = await e.api("POST", `/v1/apps/${APP}/volumes/${volume.body.id}/snapshots`);
    expect(snapshot.status).toBeLessThan(300);
    const acme = "www.import.example.com";
    expect(
      (await e.api("POST", `/v1/apps/${APP}/certificates/acme`, { hostname: acme })).status,
    ).toBeLessThan(300);
    const custom = "api.import.example.com";
    const pem = await makeCert(custom);
    const created = await e.api("POST", `/v1/apps/${APP}/certificates/custom`, {
      hostname: custom,
      fullchain: pem.cert,
      private_key: pem.key,
    });
    expect(created.status).toBeLessThan(300);

    const program = yamlProgram("plugin-import-all", "resources: {}\n");
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async (ctx) => {
      const { stack } = ctx;
      await stack.up();
      const importOf = (type: string, name: string, id: string) =>
        step(`pulumi import ${type}`, () =>
          pulumiCliTranscript(ctx, stack.name, program.dir, [
            ...["import", `platform:index:${type}`, name, id],
            ...["--yes", "--protect=false", "--out", path.join(program.dir, `${name}.yaml`)],
          ]),
        );
      const transcripts = {
        volume: await importOf("Volume", "data", `${APP}/${volume.body.id}`),
        acme: await importOf("AcmeCertificate", "www", `${APP}/${acme}`),
        custom: await importOf("CustomCertificate", "api", `${APP}/${custom}`),
        rotation: await importOf("PostgresPasswordRotation", "rotation", "demo-pg/app_user"),
        snapshot: await importOf("VolumeSnapshot", "snap", `${APP}/${snapshot.body.Msg.backup.graph_id}`),
      };
      for (const [kind, transcript] of Object.entries(transcripts)) {
        expect(transcript.output, kind).not.toMatch(PROVIDER_BUG);
      }
      expect(transcripts.volume.ok, transcripts.volume.output).toBe(true);
      expect(transcripts.acme.ok, transcripts.acme.output).toBe(true);

      expect(transcripts.custom.ok).toBe(false);
      expect(transcripts.custom.output).toContain(
        "a CustomCertificate cannot be imported: the platform never returns its certificate chain or private key",
      );
      expect(transcripts.custom.output).toContain(
        "Declare it in the program with its fullchain, its privateKey (from a secret) and adoptExisting: true",
      );
      expect(transcripts.rotation.ok).toBe(false);
      expect(transcripts.rotation.output).toContain(
        "a PostgresPasswordRotation cannot be imported: it is an action",
      );
      expect(transcripts.snapshot.ok).toBe(false);
      expect(transcripts.snapshot.output).toContain("a VolumeSnapshot cannot be imported");

      const { deployment } = await stack.exportStack();
      const types = (deployment.resources as { type: string }[])
        .map((r) => r.type)
        .filter((t) => t.startsWith("platform:index:"));
      expect(types.sort()).toEqual(["platform:index:AcmeCertificate", "platform:index:Volume"]);
    });
  });

  it("a custom certificate comes in as the refusal says: declared with its chain, key and adoptExisting, the next up takes it with no request that changes it", async () => {
    const hostname = "api.adopt.example.com";
    const pem = await makeCert(hostname);
    const created = await e.api("POST", `/v1/apps/${APP}/certificates/custom`, {
      hostname,
      fullchain: pem.cert,
      private_key: pem.key,
    });
    expect(created.status).toBeLessThan(300);
    const program = yamlProgram(
      "plugin-adopt-custom",
      `config:
  key:
    type: string
    secret: true
resources:
  api:
    type: platform:index:CustomCertificate
    properties:
      app: ${APP}
      hostname: ${hostname}
      fullchain: ${JSON.stringify(pem.cert)}
      privateKey: \${key}
      adoptExisting: true
`,
    );
    const config = { ...platformConfig(e.emu), "plugin-adopt-custom:key": { value: pem.key, secret: true } };
    await withStack({ programDir: program.dir, config }, async ({ stack }) => {
      await e.control.requests.clear();
      const up = await stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ create: 2 }); // the stack and the certificate
      const mutations = (await e.control.requests.list()).filter((r) => r.method !== "GET");
      expect(mutations).toEqual([]);
      await stack.preview({ expectNoChanges: true });
      await stack.refresh({ expectNoChanges: true });
      await stack.destroy();
    });
  });
});
