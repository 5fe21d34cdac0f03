import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import {
  pluginTypeToken,
  RESOURCE_KEYS,
  type ResourceKey,
  registry,
  typeToken,
} from "../../../provider/kinds/registry";

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
        // A snapshot request's id is its snapshot id, a volume's id its volume id (as the runtime does).
        const id = args.type.endsWith(":VolumeSnapshotRequest") ? "vs_mock" : `${args.name}-id`;
        return { id, state: { ...state, password: "s3cret-pw", snapshotId: "vs_mock" } };
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

const limitsDuringRegistration = new Map<string, number>();

/**
 * A legacy transformation (run inside the resource's constructor) records the options each
 * resource was registered with, and the stack trace limit at that moment.
 */
const recordOptions: pulumi.ResourceTransformation = (args) => {
  seenOptions.set(args.name, args.opts as pulumi.CustomResourceOptions);
  limitsDuringRegistration.set(args.name, Error.stackTraceLimit);
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
  /** The dynamic resource of each registry row, under its key. */
  const byKey: Record<ResourceKey, pulumi.CustomResource> = {
    volume,
    acmeCertificate: acme,
    customCertificate: custom,
    postgresPasswordRotation: rotation,
    volumeSnapshot: snapshot.request,
  };
  return { volume, acme, custom, rotation, snapshot, byKey };
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

  it("gives volumeId and snapshotId from the resources' ids, which stay known while an update is previewed", async () => {
    expect(await settled(declared.volume.volumeId)).toBe(await settled(declared.volume.id));
    expect(await settled(declared.snapshot.snapshotId)).toBe(await settled(declared.snapshot.request.id));
  });

  it("registers every output its declaration names, so the program can read each one", async () => {
    const { outputNames } = await import("../../../provider/model/declaration");
    for (const key of RESOURCE_KEYS) {
      const { type, declaration } = registry[key];
      const object = declared.byKey[key];
      const names = outputNames(declaration);
      expect(names.length, type).toBeGreaterThan(1);
      // The engine makes a property of exactly the registered ones.
      for (const key of names) expect(object, `${type}.${key}`).toHaveProperty(key);
    }
  });

  it("registers a provider text of at most 400 bytes per resource that only requires the runtime", () => {
    const dynamic = registered.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
    expect(dynamic).toHaveLength(RESOURCE_KEYS.length);
    for (const r of dynamic) {
      const text = String(r.inputs.__provider);
      // The engine keeps this text twice per resource and rewrites the checkpoint after every step.
      expect(text.length, r.type).toBeLessThanOrEqual(400);
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

  it("registers each kind's text from ../stubs, which requires the runtime once", async () => {
    const { stubTexts } = await import("../../../provider/kinds/stubs");
    for (const key of RESOURCE_KEYS) {
      const text = stubTexts[key];
      expect(registered.some((r) => r.inputs.__provider === text)).toBe(true);
      expect((text.match(/require\("pulumi-platform\/provider\/runtime"\)/g) ?? []).length).toBe(1);
    }
  });

  /** Evaluates a serialized provider as the dynamic provider host does, with the given `require`. */
  function hostEvaluate(text: string, requireFn: (id: string) => unknown): pulumi.dynamic.ResourceProvider {
    const module = { exports: {} as { handler: () => pulumi.dynamic.ResourceProvider } };
    new Function("exports", "require", "module", text)(module.exports, requireFn, module);
    return module.exports.handler();
  }
  const configureRequest = { config: { get: () => undefined } } as unknown as pulumi.dynamic.ConfigureRequest;

  it("gets every method of the installed runtime from configure, which the host calls first", async () => {
    const { stubTexts } = await import("../../../provider/kinds/stubs");
    const runtime = await import("../../../provider/kinds/runtime-entry");
    const provider = hostEvaluate(stubTexts.volume, (id) => {
      expect(id).toBe("pulumi-platform/provider/runtime");
      return runtime;
    });
    await provider.configure?.(configureRequest);
    for (const method of ["check", "diff", "create", "read", "update", "delete"] as const) {
      expect(provider[method], method).toBe(runtime.volume[method]);
    }
  });

  it("fails every method when the runtime cannot be loaded, so no delete is skipped silently", async () => {
    const { stubTexts } = await import("../../../provider/kinds/stubs");
    const provider = hostEvaluate(stubTexts.volume, () => {
      throw new Error("Cannot find module 'pulumi-platform/provider/runtime'");
    });
    await expect(provider.configure?.(configureRequest)).rejects.toThrow(/Cannot find module/);
    await expect(provider.delete?.("vol_1", {})).rejects.toThrow(/Cannot find module/);
    await expect(provider.create({})).rejects.toThrow(/Cannot find module/);
    await expect(provider.read?.("vol_1", {})).rejects.toThrow(/Cannot find module/);
  });

  it("every registry row has a stub, a runtime provider, a class and a recover kind", async () => {
    const { stubTexts } = await import("../../../provider/kinds/stubs");
    const runtime = await import("../../../provider/kinds/runtime-entry");
    const mod = (await import("../../../provider")) as unknown as Record<string, unknown>;
    const { kindOf } = await import("../../../ops/recover-plan");
    expect(Object.keys(stubTexts).sort()).toEqual([...RESOURCE_KEYS].sort());
    expect(Object.keys(runtime.providers).sort()).toEqual([...RESOURCE_KEYS].sort());
    for (const key of RESOURCE_KEYS) {
      const row = registry[key];
      // The stub, evaluated as the host does, gets the methods the runtime exports under the key.
      const provider = hostEvaluate(stubTexts[key], () => runtime);
      await provider.configure?.(configureRequest);
      const exported = (runtime as unknown as Record<string, Record<string, unknown>>)[key];
      for (const method of ["check", "diff", "create", "read", "update", "delete"] as const) {
        expect(typeof exported?.[method], `runtime.${key}.${method}`).toBe("function");
        expect(provider[method], `stub ${key}: ${method}`).toBe(exported?.[method]);
      }
      // The class a program constructs is exported, and registers under the row's type token.
      expect(typeof mod[row.declaration.type], `class ${row.declaration.type}`).toBe("function");
      expect(
        registered.some((r) => r.type === typeToken(row)),
        `a resource of ${typeToken(row)}`,
      ).toBe(true);
      expect(kindOf(typeToken(row)), `recover's kind of ${row.type}`).toBe(key);
      expect(kindOf(pluginTypeToken(row)), `recover's kind of the plugin's ${row.type}`).toBe(key);
    }
  });

  it("names each kind once: the key is the camelCase of the class a program constructs", async () => {
    const declarations = (await import("../../../provider/kinds/declarations")) as Record<string, unknown>;
    for (const key of RESOURCE_KEYS) {
      const row = registry[key];
      expect(row.key).toBe(key);
      expect(key).toBe(row.declaration.type.charAt(0).toLowerCase() + row.declaration.type.slice(1));
      // The type is the class's own name, or the component's child's.
      expect(row.declaration.type).toBe("component" in row ? row.component : row.type);
      expect(declarations[`${key}Declaration`], `${key}Declaration`).toBe(row.declaration);
    }
  });

  it("never puts credentials into a resource's inputs", () => {
    for (const r of registered) {
      expect(Object.keys(r.inputs)).not.toContain("apiToken");
      expect(Object.keys(r.inputs)).not.toContain("apiUrl");
    }
  });
});

// Registers resources of its own: after the block above, which counts what declareAll registered.
describe("registering a resource", () => {
  it("registers without formatting stack traces, and puts the limit back afterwards", async () => {
    const before = Error.stackTraceLimit;
    for (const name of ["vol", "custom", "rotation"]) expect(limitsDuringRegistration.get(name)).toBe(0);
    const { Volume } = await import("../../../provider");
    new Volume("vol-after", { app: "demo-app", name: "after" });
    expect(Error.stackTraceLimit).toBe(before);
    // Debugging leaked promises needs the traces: then they are kept.
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    try {
      new Volume("vol-debug", { app: "demo-app", name: "debug" }, { transformations: [recordOptions] });
    } finally {
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    }
    expect(limitsDuringRegistration.get("vol-debug")).toBe(before);
  });

  it("the plugin door's classes register without formatting stack traces too, and put the limit back", async () => {
    const before = Error.stackTraceLimit;
    const plugin = await import("../../../provider/plugin");
    new plugin.Volume(
      "plugin-vol",
      { app: "demo-app", name: "plugin" },
      { transformations: [recordOptions] },
    );
    new plugin.CustomCertificate(
      "plugin-custom",
      { app: "demo-app", hostname: "p.example.com", fullchain: "CHAIN", privateKey: "KEY" },
      { transformations: [recordOptions] },
    );
    for (const name of ["plugin-vol", "plugin-custom"]) expect(limitsDuringRegistration.get(name)).toBe(0);
    expect(Error.stackTraceLimit).toBe(before);
    const err = (() => {
      try {
        new plugin.Volume("", { app: "demo-app", name: "nameless" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/Missing resource name/);
    expect(err?.stack).toContain("declarations.test.ts");
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("an error thrown while registering keeps the program's line in its stack", async () => {
    const before = Error.stackTraceLimit;
    const { Volume } = await import("../../../provider");
    // Pulumi refuses a resource without a name before registering it.
    const err = (() => {
      try {
        new Volume("", { app: "demo-app", name: "nameless" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/Missing resource name/);
    expect(err?.stack).toContain("declarations.test.ts");
    expect(Error.stackTraceLimit).toBe(before);
  });
});
