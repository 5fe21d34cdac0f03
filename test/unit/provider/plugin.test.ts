import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RESOURCE_KEYS, type ResourceKey, registry } from "../../../provider/kinds/registry";
import { outcomeOf, type PropertyEffect } from "../../../provider/model/change-plan";
import {
  declareResource,
  input,
  output,
  outputNames,
  type ResourceDeclaration,
  secretNames,
} from "../../../provider/model/declaration";
import { type Props, lifetimeWarnings as warningsOf } from "../../../provider/model/kind-rules";
import { UNKNOWN } from "../../../provider/model/validation/common";
import { t } from "../../../provider/model/value-types";
import { detailedDiff, importState, kindOfUrn } from "../../../provider/plugin/resource-provider";
import { packageSchema, resourceSchema } from "../../../provider/plugin/schema";
import { unwrapSecrets, wrapSecrets } from "../../../provider/plugin/secrets";

const schema = packageSchema("1.2.3");

describe("the plugin's package schema is the declarations'", () => {
  it.each(RESOURCE_KEYS)("%s: inputs, required inputs, outputs and secrets", (key) => {
    const declaration: ResourceDeclaration = registry[key].declaration;
    const resource = schema.resources[`platform:index:${declaration.type}`];
    expect(resource).toBeDefined();
    expect(Object.keys(resource?.inputProperties ?? {}).sort()).toEqual(
      Object.keys(declaration.inputs).sort(),
    );
    const required = Object.keys(declaration.inputs).filter(
      (k) => !declaration.inputs[k]?.rule.safeParse(undefined).success,
    );
    expect([...(resource?.requiredInputs ?? [])].sort()).toEqual(required.sort());
    expect(Object.keys(resource?.properties ?? {}).sort()).toEqual(outputNames(declaration).sort());
    const secret = Object.entries({ ...resource?.inputProperties, ...resource?.properties })
      .filter(([, p]) => p.secret)
      .map(([k]) => k);
    expect([...new Set(secret)].sort()).toEqual(secretNames(declaration).sort());
  });

  it("serves exactly the registry's resource types, every $ref resolving", () => {
    expect(Object.keys(schema.resources).sort()).toEqual(
      RESOURCE_KEYS.map((k) => `platform:index:${registry[k].declaration.type}`).sort(),
    );
    const refs = JSON.stringify(schema).match(/"\$ref":"#\/types\/[^"]+"/g) ?? [];
    for (const ref of refs) {
      const token = ref.slice('"$ref":"#/types/'.length, -1);
      expect(schema.types, token).toHaveProperty([token]);
    }
    expect(schema.types).toHaveProperty(["platform:index:VolumeCompute"]);
    expect(schema.config.variables.apiToken.secret).toBe(true);
    expect(schema.version).toBe("1.2.3");
  });

  it("follows a declaration: a new input and a new secret output appear without touching the schema code", () => {
    const declaration = declareResource({
      type: "Probe",
      inputs: {
        app: input(z.string(), { change: "replace", output: "stored" }),
        limit: input(z.number().int().optional(), { change: "update", output: "stored" }),
      },
      outputs: { password: output<string>(t.string, { secret: true }) },
    });
    const probe = resourceSchema(declaration, {});
    expect(probe.inputProperties).toEqual({ app: { type: "string" }, limit: { type: "integer" } });
    expect(probe.requiredInputs).toEqual(["app"]);
    expect(probe.properties.password).toMatchObject({ secret: true });
  });
});

describe("the plugin's detailedDiff is the kind's answer, named (nothing recomputed)", () => {
  const answer = (properties: Record<string, PropertyEffect>) => outcomeOf(properties);
  it("an update, a record and a replace are named; a warned-about input is not", () => {
    const result = detailedDiff(
      answer({
        snapshotRetention: "update",
        restoreTimeoutSeconds: "record",
        name: "replace",
        sizeGb: "warn",
      }),
      { name: "a", snapshotRetention: 5, sizeGb: 3 },
      { name: "b", snapshotRetention: 9, restoreTimeoutSeconds: 60, sizeGb: 5 },
    );
    expect(result).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: false,
      detailedDiff: { snapshotRetention: "update", restoreTimeoutSeconds: "add", name: "update-replace" },
    });
  });
  it("a removed exact input is a delete; a warning alone changes nothing and names nothing", () => {
    expect(detailedDiff(answer({ triggers: "replace" }), { triggers: { v: "1" } }, {}).detailedDiff).toEqual({
      triggers: "delete-replace",
    });
    expect(detailedDiff(answer({ snapshotId: "warn" }), { snapshotId: "a" }, { snapshotId: "b" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: {},
    });
  });
});

describe("the plugin's resource kinds, import ids and secrets", () => {
  it("finds the kind of a URN, a parented one too, and refuses another package's type", () => {
    expect(kindOfUrn("urn:pulumi:s::p::platform:index:Volume::data")).toBe("volume");
    expect(kindOfUrn("urn:pulumi:s::p::my:Comp$platform:index:AcmeCertificate::www")).toBe("acmeCertificate");
    expect(() => kindOfUrn("urn:pulumi:s::p::aws:s3:Bucket::b")).toThrow(/no resource type aws:s3:Bucket/);
  });
  it("reads `<app>/<id>` import ids; a volume import records every live input", () => {
    expect(importState("volume", "demo/vol_1")).toEqual({
      id: "vol_1",
      state: { app: "demo", programInputs: expect.arrayContaining(["name", "snapshotRetention"]) },
    });
    expect(importState("acmeCertificate", "demo/www.example.com")).toEqual({
      id: "www.example.com",
      state: { app: "demo", hostname: "www.example.com" },
    });
    expect(() => importState("volume", "vol_1")).toThrow(/<app>\/<volumeId>/);
  });
  it("refuses to import what it could not record inputs for that pass check, saying what to do", () => {
    expect(() => importState("customCertificate", "demo/www.example.com")).toThrow(
      /never returns its certificate chain or private key.*fullchain, its privateKey \(from a secret\) and adoptExisting: true.*www\.example\.com/,
    );
    expect(() => importState("postgresPasswordRotation", "c/u")).toThrow(
      /cannot be imported: it is an action/,
    );
    expect(() => importState("postgresPasswordRotation", "no-slash")).toThrow(/cannot be imported/);
    expect(() => importState("volumeSnapshot", "demo/vs_1")).toThrow(/listSnapshots/);
  });
  it("unwraps secrets, remembering which, and wraps them back", () => {
    const wire = {
      a: 1,
      k: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "pem" },
    };
    const { plain, secrets } = unwrapSecrets(wire);
    expect(plain).toEqual({ a: 1, k: "pem" });
    expect([...secrets]).toEqual(["k"]);
    expect(wrapSecrets(plain, secrets)).toEqual(wire);
  });

  it("finds secrets nested in lists and objects, and leaves the rest of a property as it is", () => {
    const secret = (value: unknown) => ({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      value,
    });
    const tags = { team: "db", cost: ["a", "b"] };
    const wire = {
      tags,
      users: [{ name: "app", password: secret("pw") }, { name: "ro" }],
      nested: secret({ inner: secret(["x", secret("y")]) }),
      none: null,
    };
    const { plain, secrets } = unwrapSecrets(wire);
    expect(plain).toEqual({
      tags: { team: "db", cost: ["a", "b"] },
      users: [{ name: "app", password: "pw" }, { name: "ro" }],
      nested: { inner: ["x", "y"] },
      none: null,
    });
    expect([...secrets].sort()).toEqual(["nested", "users"]);
    expect(plain.tags).toBe(tags);
  });

  it("loads an invoke's lookups without the whole Pulumi runtime (which only a program has loaded)", async () => {
    const pulumiIndex = createRequire(__filename).resolve("@pulumi/pulumi");
    await import("../../../provider/lookups");
    expect(Object.keys(createRequire(__filename).cache)).not.toContain(pulumiIndex);
  });
});

describe("each kind's day-2 warnings (one rule per kind, both doors), from the recorded outputs", () => {
  const now = new Date("2026-11-25T00:00:00Z");
  const lifetimeWarnings = (key: ResourceKey, id: string, olds: Props, news: Props, at: Date) =>
    warningsOf(registry[key].lifetime, id, olds, news, at);

  it("a volume the platform reports larger than the program's sizeGb; none when it is not, or unknown", async () => {
    const olds = { name: "logs", sizeGb: 10 };
    expect(lifetimeWarnings("volume", "vol_1", olds, { sizeGb: 3 }, now)).toEqual([
      expect.stringMatching(
        /^volume logs \(vol_1\) is 10 GB at the platform, more than sizeGb 3.*grew outside this stack/,
      ),
    ]);
    expect(lifetimeWarnings("volume", "vol_1", olds, { sizeGb: 10 }, now)).toEqual([]);
    expect(lifetimeWarnings("volume", "vol_1", olds, {}, now)).toEqual([]);
  });

  it("a restored volume whose program names another snapshot is no day-2 check (check says it, once)", async () => {
    const olds = { name: "restored", snapshotId: "vs_a" };
    expect(lifetimeWarnings("volume", "vol_r", olds, { snapshotId: "vs_b" }, now)).toEqual([]);
  });

  it("a custom certificate inside its expiryWarningDays; a snapshot whose program names another volume", async () => {
    const cert = { hostname: "api.example.com", expiresAt: "2026-12-05T00:00:00Z" };
    expect(lifetimeWarnings("customCertificate", "api.example.com", cert, {}, now)).toEqual([
      expect.stringContaining("api.example.com"),
    ]);
    expect(
      lifetimeWarnings("customCertificate", "api.example.com", cert, { expiryWarningDays: 5 }, now),
    ).toEqual([]);
    expect(
      lifetimeWarnings("volumeSnapshot", "snap_1", { volumeId: "vol_a" }, { volumeId: "vol_b" }, now),
    ).toEqual([expect.stringMatching(/^snapshot snap_1 was taken of volume vol_a; volumeId is now vol_b/)]);
    expect(
      lifetimeWarnings("volumeSnapshot", "snap_1", { volumeId: "vol_a" }, { volumeId: UNKNOWN }, now),
    ).toEqual([]);
  });
});
