import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

const registered: Registered[] = [];
const seenOptions = new Map<string, pulumi.CustomResourceOptions>();

beforeAll(() => {
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        const { __provider: _p, ...state } = args.inputs;
        return { id: `${args.name}-id`, state: { ...state, password: "s3cret-pw", snapshotId: "vs_mock" } };
      },
      call(args) {
        return args.inputs;
      },
    },
    "project",
    "stack",
    false,
  );
});

/** A legacy transformation records the options each resource was registered with. */
const recordOptions: pulumi.ResourceTransformation = (args) => {
  seenOptions.set(args.name, args.opts as pulumi.CustomResourceOptions);
  return undefined;
};

function settled<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

async function declareAll() {
  const mod = await import("../../../provider");
  const volume = new mod.Volume(
    "vol",
    { app: "demo-app", name: "data", sizeGb: 10 },
    { transformations: [recordOptions] },
  );
  const acme = new mod.AcmeCertificate("acme", { app: "demo-app", hostname: "a.example.com" });
  const custom = new mod.CustomCertificate(
    "custom",
    { app: "demo-app", hostname: "a.example.com", fullchain: "CHAIN", privateKey: "KEY-MATERIAL" },
    { transformations: [recordOptions] },
  );
  const rotation = new mod.PostgresPasswordRotation(
    "rotation",
    { clusterId: "demo-pg", username: "app_user" },
    { transformations: [recordOptions] },
  );
  const snapshot = new mod.VolumeSnapshot("snap", { app: "demo-app", volumeId: volume.volumeId });
  await Promise.all([volume, acme, custom, rotation, snapshot.request].map((r) => settled(r.urn)));
  await settled(snapshot.urn);
  return { volume, acme, custom, rotation, snapshot };
}

describe("resource declarations", () => {
  let declared: Awaited<ReturnType<typeof declareAll>>;
  beforeAll(async () => {
    declared = await declareAll();
  });

  it("registers each resource under its pulumi-nodejs:dynamic/platform type token", () => {
    const types = Object.fromEntries(registered.map((r) => [r.name, r.type]));
    expect(types).toMatchObject({
      vol: "pulumi-nodejs:dynamic/platform:Volume",
      acme: "pulumi-nodejs:dynamic/platform:AcmeCertificate",
      custom: "pulumi-nodejs:dynamic/platform:CustomCertificate",
      rotation: "pulumi-nodejs:dynamic/platform:PostgresPasswordRotation",
      snap: expect.stringMatching(/platform/),
    });
    expect(
      registered
        .filter((r) => r.name === "snap")
        .map((r) => r.type)
        .sort(),
    ).toEqual(["platform:index:VolumeSnapshot", "pulumi-nodejs:dynamic/platform:VolumeSnapshotRequest"]);
  });

  it("declares the password as an additional secret output", () => {
    expect(seenOptions.get("rotation")?.additionalSecretOutputs).toContain("password");
  });

  it("makes the private key a secret input and a secret output", async () => {
    expect(seenOptions.get("custom")?.additionalSecretOutputs).toContain("privateKey");
    expect(await pulumi.isSecret(declared.custom.privateKey)).toBe(true);
  });

  it("parents the snapshot request to the VolumeSnapshot component", async () => {
    const childUrn = await settled(declared.snapshot.request.urn);
    expect(childUrn).toContain(
      "platform:index:VolumeSnapshot$pulumi-nodejs:dynamic/platform:VolumeSnapshotRequest::snap",
    );
  });

  it("exposes the child's snapshotId on the component", async () => {
    expect(await settled(declared.snapshot.snapshotId)).toBe("vs_mock");
  });

  it("declares every output property so it can be read from the program", async () => {
    for (const key of ["volumeId", "state", "zone", "needsRestart", "attachedMachineId", "sizeGb"]) {
      expect(declared.volume).toHaveProperty(key);
    }
    for (const key of ["status", "dnsRequirements", "ownershipRecord", "certificates", "rateLimitedUntil"]) {
      expect(declared.acme).toHaveProperty(key);
    }
    expect(declared.custom).toHaveProperty("expiresAt");
    expect(declared.custom).toHaveProperty("issuer");
    expect(declared.rotation).toHaveProperty("rotatedAt");
  });

  it("serializes a provider of at most 4 KB per resource that only requires the runtime", () => {
    const dynamic = registered.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(dynamic).toHaveLength(5);
    for (const r of dynamic) {
      const text = String(r.inputs.__provider);
      expect(text.length, r.type).toBeLessThanOrEqual(4096);
      expect(text).toContain('require("pulumi-platform/provider/runtime")');
      // Nothing of the module graph or the credentials is captured.
      for (const absent of [
        "PlatformClient",
        "zod",
        "undici",
        "apiToken",
        "PLATFORM_API_TOKEN",
        "__awaiter",
      ]) {
        expect(text, `${r.type} captures ${absent}`).not.toContain(absent);
      }
    }
  });

  it("serializes the same text with pulumi.runtime.serializeFunction", async () => {
    const stubs = await import("../../../provider/stubs");
    for (const provider of [
      stubs.volumeProvider,
      stubs.acmeCertificateProvider,
      stubs.customCertificateProvider,
      stubs.postgresPasswordRotationProvider,
      stubs.volumeSnapshotProvider,
    ]) {
      const { text } = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
      expect(text.length).toBeLessThanOrEqual(4096);
      expect((text.match(/require\("pulumi-platform\/provider\/runtime"\)/g) ?? []).length).toBe(7);
    }
  });

  it("never puts credentials into a resource's inputs", () => {
    for (const r of registered) {
      expect(Object.keys(r.inputs)).not.toContain("apiToken");
      expect(Object.keys(r.inputs)).not.toContain("apiUrl");
    }
  });
});
