import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import {
  pluginTypeToken,
  RESOURCE_KEYS,
  type ResourceKey,
  registry,
  typeToken,
} from "../../../provider/kinds/registry";
import { outputNames } from "../../../provider/model/declaration";
import { platformMocks } from "../../../provider/testing";
import { makeCert, type TestCert } from "../../support/certs";

const NOW = new Date("2026-03-01T12:00:00.000Z");

let cert: TestCert;
beforeAll(async () => {
  cert = await makeCert("www.example.com", ["www.example.com"], {
    from: NOW.getTime() - 86_400_000,
    to: NOW.getTime() + 40 * 86_400_000,
  });
});

/** Valid inputs of each kind, as a program passes them. */
function inputsOf(key: ResourceKey): Record<string, unknown> {
  switch (key) {
    case "volume":
      return { app: "demo-app", name: "data", sizeGb: 10 };
    case "acmeCertificate":
      return { app: "demo-app", hostname: "www.example.com" };
    case "customCertificate":
      return { app: "demo-app", hostname: "www.example.com", fullchain: cert.cert, privateKey: cert.key };
    case "postgresPasswordRotation":
      return { clusterId: "pg-main", username: "app_user", rotationDays: 30 };
    case "volumeSnapshot":
      return { app: "demo-app", volumeId: "vol_0123456789abcdef" };
  }
}

async function mocked(
  key: ResourceKey,
  inputs = inputsOf(key),
  options = {},
  type = typeToken(registry[key]),
) {
  const mocks = platformMocks({ now: () => NOW, ...options });
  const result = await mocks.newResource({
    type,
    name: "r",
    inputs: { __provider: "exports.handler = …", ...inputs },
    custom: true,
  });
  return { id: result.id, state: result.state as Record<string, unknown>, mocks };
}

describe("platformMocks: what a create at the platform would give", () => {
  it.each(RESOURCE_KEYS)("%s gets every output its class declares", async (key) => {
    const { state } = await mocked(key);
    const declaration = registry[key].declaration;
    // Declared outputs always; inputs kept as given when the program gave them.
    const expected = outputNames(declaration).filter(
      (name) => name in declaration.outputs || name in inputsOf(key),
    );
    expect(Object.keys(state).sort()).toEqual(expected.sort());
    expect(state).not.toHaveProperty("__provider");
  });

  it.each(RESOURCE_KEYS)(
    "%s through the provider plugin's token gets the same outputs and checks",
    async (key) => {
      const dynamic = await mocked(key);
      const plugin = await mocked(key, inputsOf(key), {}, pluginTypeToken(registry[key]));
      expect(Object.keys(plugin.state).sort()).toEqual(Object.keys(dynamic.state).sort());
    },
  );

  it("a volume through the plugin's token is checked like preview checks it", async () => {
    const { mocks } = await mocked(
      "volume",
      { app: "demo-app", name: "data", sizeGb: -1 },
      { onCheckFailure: "record" },
      "platform:index:Volume",
    );
    expect(mocks.checkFailures).toEqual([expect.stringMatching(/sizeGb must be a whole number/)]);
  });

  it("a volume: an id in the platform's shape, created, the platform's defaults for what the program leaves out", async () => {
    const { id, state } = await mocked("volume");
    expect(id).toMatch(/^vol_[0-9a-z]{16}$/);
    expect(state).toMatchObject({
      volumeId: id,
      state: "created",
      sizeGb: 10,
      region: "iad",
      encrypted: true,
      fstype: "ext4",
      snapshotRetention: 5,
      autoBackupEnabled: true,
      app: "demo-app",
      createdAt: NOW.toISOString(),
    });
    expect(
      (await mocked("volume", { ...inputsOf("volume"), snapshotId: "vs_1", region: "ord" })).state.state,
    ).toBe("restoring");
  });

  it("an ACME certificate: the DNS records to create, pending validation", async () => {
    const { id, state } = await mocked("acmeCertificate");
    expect(id).toBe("www.example.com");
    expect(state.status).toBe("pending_validation");
    expect(state.acmeChallengeRecord).toMatchObject({
      type: "CNAME",
      name: "_acme-challenge.www.example.com",
    });
    expect(state.ownershipRecord).toMatchObject({ type: "TXT", name: "_platform-ownership.www.example.com" });
  });

  it("a custom certificate: pending ownership, with its expiry and days left", async () => {
    const { state } = await mocked("customCertificate");
    expect(state.status).toBe("pending_ownership");
    expect(state.expiresInDays).toBe(40);
    expect(state.issuer).toBe("www.example.com");
    expect(await pulumi.isSecret(state.privateKey as pulumi.Output<string>)).toBe(true);
  });

  it("a rotation: the password is a secret and the next rotation is due after rotationDays", async () => {
    const { id, state } = await mocked("postgresPasswordRotation");
    expect(id).toBe(`pg-main/app_user/${NOW.toISOString()}`);
    expect(pulumi.Output.isInstance(state.password)).toBe(true);
    expect(await pulumi.isSecret(state.password as pulumi.Output<string>)).toBe(true);
    expect(state.nextRotationAt).toBe("2026-03-31T12:00:00.000Z");
  });

  it("a snapshot: listed, with its id as snapshotId", async () => {
    const { id, state } = await mocked("volumeSnapshot");
    expect(id).toMatch(/^vs_[0-9a-z]{16}$/);
    expect(state).toMatchObject({ snapshotId: id, listed: true, backupType: "BACKUP_TYPE_ON_DEMAND" });
  });
});

describe("platformMocks: preview-time validation", () => {
  // The default (`throw`) also raises it once, as an unhandled rejection: a test run sees it in
  // testing-mocks-failure.test.ts.
  it("keeps the message `pulumi preview` prints, and registers the resource with its inputs", async () => {
    const { id, state, mocks } = await mocked(
      "volume",
      { app: "demo-app", name: "data", sizeGb: -1 },
      { onCheckFailure: "record" },
    );
    expect(mocks.checkFailures).toEqual([
      "pulumi-nodejs:dynamic/platform:Volume resource 'r': property sizeGb value {-1} has a problem: sizeGb must be a whole number from 1 to 500000 GB (got -1)",
    ]);
    expect({ id, state }).toEqual({ id: "r_id", state: { app: "demo-app", name: "data", sizeGb: -1 } });
  });

  it("with onCheckFailure: record, keeps the message and registers the resource", async () => {
    const { state, mocks } = await mocked(
      "postgresPasswordRotation",
      { clusterId: "pg-main", username: "app_user", rotationDays: 0 },
      { onCheckFailure: "record" },
    );
    expect(mocks.checkFailures).toEqual([
      expect.stringContaining("property rotationDays value {0} has a problem"),
    ]);
    expect(state.rotationDays).toBe(0);
  });

  it("never prints a secret input's value", async () => {
    const { mocks } = await mocked(
      "customCertificate",
      { ...inputsOf("customCertificate"), privateKey: "not a key" },
      { onCheckFailure: "record" },
    );
    expect(mocks.checkFailures).toEqual([
      "pulumi-nodejs:dynamic/platform:CustomCertificate resource 'r' has a problem: privateKey is not a PEM private key that can be read",
    ]);
  });

  it("a value unknown at preview is left to be checked once known, as the engine does", async () => {
    const { mocks } = await mocked(
      "volume",
      { app: "demo-app", name: pulumi.unknown, sizeGb: 10 },
      { onCheckFailure: "record" },
    );
    expect(mocks.checkFailures).toEqual([]);
  });
});

describe("platformMocks: composed with a program's other mocks", () => {
  const others: pulumi.runtime.Mocks = {
    newResource: (args) => ({ id: `other-${args.name}`, state: { ...args.inputs, seen: args.type } }),
    call: (args) => ({ called: args.token }),
  };

  it("another provider's resource and every call go to the given mocks", async () => {
    const mocks = platformMocks({ others });
    expect(
      await mocks.newResource({ type: "dns:index:Record", name: "www", inputs: { v: 1 }, custom: true }),
    ).toEqual({
      id: "other-www",
      state: { v: 1, seen: "dns:index:Record" },
    });
    expect(await mocks.call({ token: "dns:index:getZone", inputs: {} })).toEqual({
      called: "dns:index:getZone",
    });
  });

  it("our component is ours: the given mocks never see it", async () => {
    const mocks = platformMocks({ others });
    expect(
      await mocks.newResource({
        type: "platform:index:VolumeSnapshot",
        name: "s",
        inputs: {},
        custom: false,
      }),
    ).toEqual({ id: undefined, state: {} });
  });

  it("without other mocks, another resource's state is its inputs", async () => {
    expect(
      await platformMocks().newResource({
        type: "dns:index:Record",
        name: "www",
        inputs: { v: 1 },
        custom: true,
      }),
    ).toEqual({ id: "www_id", state: { v: 1 } });
  });
});
