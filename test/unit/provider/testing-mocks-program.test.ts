import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pluginTypeToken, RESOURCE_KEYS, type ResourceKey, registry } from "../../../provider/kinds/registry";
import { packageSchema } from "../../../provider/plugin/schema";
import { platformMocks } from "../../../provider/testing";
import { makeCert, type TestCert } from "../../support/certs";
import { type DoorClasses, fiveKindsConfig, fiveKindsProgram } from "../../support/five-kinds-program";

// A user's unit test: the program's classes (either door) under pulumi-platform/testing's mocks,
// with secrets as programs pass them (secret config, `pulumi.secret`, the class's own secret
// `privateKey`). Every output the schema gives the kind resolves.

let tls: TestCert;
beforeAll(async () => {
  tls = await makeCert("shop.example.com");
});

// A program's last registrations (a component's outputs) end before the next test's mocks start.
afterEach(() => pulumi.runtime.disconnect());

const DOORS = [
  ["dynamic (pulumi-platform)", () => import("../../../provider/dynamic")],
  ["plugin (pulumi-platform/plugin)", () => import("../../../provider/plugin")],
] as const;

/** Each resource of the program by its kind. */
const KIND_OF: Record<keyof ReturnType<typeof fiveKindsProgram>, ResourceKey> = {
  data: "volume",
  nightly: "volumeSnapshot",
  restored: "volume",
  www: "acmeCertificate",
  shop: "customCertificate",
  db: "postgresPasswordRotation",
};

/** The value of an output, as a user's test reads it. */
function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

async function runProgram(load: () => Promise<DoorClasses>) {
  vi.resetModules();
  const mocks = platformMocks();
  await pulumi.runtime.setMocks(mocks, "project", "test", false);
  const { config, secretKeys } = fiveKindsConfig(tls);
  pulumi.runtime.setAllConfig(config, secretKeys);
  return { mocks, resources: fiveKindsProgram(await load()) };
}

it("the program declares a resource of every registry kind", () => {
  expect(new Set(Object.values(KIND_OF))).toEqual(new Set(RESOURCE_KEYS));
});

describe.each(DOORS)("a program with every kind under platformMocks, %s door", (_door, load) => {
  it("resolves every output the schema gives each kind, with no check failure", async () => {
    const { mocks, resources } = await runProgram(load);
    const schema = packageSchema().resources;
    for (const [name, resource] of Object.entries(resources)) {
      const key = KIND_OF[name as keyof typeof KIND_OF];
      const properties = Object.keys(schema[pluginTypeToken(registry[key])]?.properties ?? {});
      expect(properties.length, name).toBeGreaterThan(0);
      const values = await Promise.all(
        properties.map((property) => {
          const output = (resource as unknown as Record<string, unknown>)[property];
          expect(pulumi.Output.isInstance(output), `${name}.${property} is an output`).toBe(true);
          return resolved(output as pulumi.Output<unknown>);
        }),
      );
      // The declared outputs have a value (null when the platform leaves one out).
      const declared = Object.keys(registry[key].declaration.outputs);
      for (const [i, property] of properties.entries()) {
        if (declared.includes(property)) expect(values[i], `${name}.${property}`).not.toBeUndefined();
      }
    }
    expect(mocks.checkFailures).toEqual([]);
  });

  it("the platform's answer for each kind, secrets kept secret", async () => {
    const { resources: r } = await runProgram(load);
    expect(await resolved(r.data.volumeId)).toMatch(/^vol_[0-9a-z]{16}$/);
    expect(await resolved(r.nightly.snapshotId)).toMatch(/^vs_[0-9a-z]{16}$/);
    expect(await resolved(r.nightly.backupType)).toBe("BACKUP_TYPE_ON_DEMAND");
    expect(await resolved(r.restored.state)).toBe("restoring");
    expect(await resolved(r.restored.snapshotId)).toBe(await resolved(r.nightly.snapshotId));
    expect(await resolved(r.www.status)).toBe("pending_validation");
    expect(await resolved(r.shop.status)).toBe("pending_ownership");
    expect(await resolved(r.shop.issuer)).toBe("shop.example.com");
    expect(await resolved(r.db.rotatedAt)).toMatch(/^\d{4}-/);
    // The class's secret, the secret config and `pulumi.secret` stay secret in the outputs.
    expect(await pulumi.isSecret(r.shop.privateKey)).toBe(true);
    expect(await resolved(r.shop.privateKey)).toBe(tls.key);
    expect(await pulumi.isSecret(r.db.password)).toBe(true);
    expect(await pulumi.isSecret(r.data.app)).toBe(true);
    expect(await resolved(r.data.app)).toBe("shop");
    expect(await pulumi.isSecret(r.db.clusterId)).toBe(true);
  });

  it("a check failure of a secret input: the message shows the value as [secret]", async () => {
    vi.resetModules();
    const mocks = platformMocks({ onCheckFailure: "record" });
    await pulumi.runtime.setMocks(mocks, "project", "test", false);
    const door = await load();
    const data = new door.Volume("data", {
      app: pulumi.secret("shop"),
      name: "data",
      region: pulumi.secret("mars"),
    });
    // Registered anyway ("record"): the outputs resolve, to the inputs.
    expect(await resolved(data.name)).toBe("data");
    expect(mocks.checkFailures).toHaveLength(1);
    expect(mocks.checkFailures[0]).toMatch(
      /resource 'data': property region value \{\[secret\]\} has a problem: /,
    );
    expect(mocks.checkFailures[0]).not.toContain("mars");
  });
});
