import { describe, expect, it } from "vitest";
import { applyRecovery } from "../../../ops/recover-checkpoint";
import {
  type ExportedDeployment,
  kindOf,
  type PlatformLookups,
  planRecovery,
} from "../../../ops/recover-plan";
import { stubTexts } from "../../../provider/kinds/stubs";

const VOLUME = "pulumi-nodejs:dynamic/platform:Volume";
const ACME = "pulumi-nodejs:dynamic/platform:AcmeCertificate";
const urn = (name: string, type = VOLUME) => `urn:pulumi:dev::p::${type}::${name}`;
const vol = (
  id: string,
  name: string,
  over: { created_at?: string; attached_machine_id?: string | null } = {},
) => ({
  id,
  name,
  region: "iad",
  state: "created",
  created_at: "2026-11-23T08:00:00Z",
  attached_machine_id: null as string | null,
  ...over,
});

function deployment(
  pending: { name: string; type?: string; inputs: Record<string, unknown> }[],
): ExportedDeployment {
  return {
    version: 3,
    deployment: {
      resources: [{ urn: urn("kept"), type: VOLUME, id: "vol_kept", inputs: { app: "a", name: "data" } }],
      pending_operations: pending.map((p) => ({
        type: "creating",
        resource: {
          urn: urn(p.name, p.type),
          type: p.type ?? VOLUME,
          inputs: { __provider: "stub", ...p.inputs },
        },
      })),
    },
  };
}

function platform(
  volumes: ReturnType<typeof vol>[],
  hostnames: Record<string, { acme: boolean; custom: boolean }> = {},
): PlatformLookups {
  return { volumes: async () => volumes, hostname: async (_app, h) => hostnames[h] };
}

describe("planRecovery", () => {
  it("imports the one volume of that name the stack does not own; an owned one never counts", async () => {
    const plan = await planRecovery(
      deployment([{ name: "data", inputs: { app: "a", name: "data", region: "iad" } }]),
      platform([vol("vol_kept", "data"), vol("vol_new", "data")]),
    );
    expect(plan).toEqual([expect.objectContaining({ action: "import", id: "vol_new", urn: urn("data") })]);
  });

  it("two unowned candidates are left for the user, naming both", async () => {
    const plan = await planRecovery(
      deployment([{ name: "x", inputs: { app: "a", name: "x" } }]),
      platform([vol("vol_1", "x"), vol("vol_2", "x")]),
    );
    expect(plan[0]).toMatchObject({
      action: "ambiguous",
      candidates: [expect.stringContaining("vol_1"), expect.stringContaining("vol_2")],
    });
  });

  it("two pending creates of the same name do not claim the same volume", async () => {
    const plan = await planRecovery(
      deployment([
        { name: "one", inputs: { app: "a", name: "same" } },
        { name: "two", inputs: { app: "a", name: "same" } },
      ]),
      platform([vol("vol_1", "same")]),
    );
    expect(plan.map((p) => p.action)).toEqual(["import", "clear"]);
  });

  it("never takes a volume attached to a machine, or one created before the interrupted update began", async () => {
    const plan = await planRecovery(
      deployment([{ name: "data", inputs: { app: "a", name: "data" } }]),
      platform([
        vol("vol_attached", "data", { attached_machine_id: "m_1" }),
        vol("vol_old", "data", { created_at: "2026-11-23T07:00:00Z" }),
        vol("vol_new", "data", { created_at: "2026-11-23T08:30:00Z" }),
      ]),
      { since: new Date("2026-11-23T08:00:00Z") },
    );
    expect(plan).toEqual([expect.objectContaining({ action: "import", id: "vol_new" })]);
  });

  it("never takes a volume on its way out (destroyed, destroying, pending_destroy)", async () => {
    const plan = await planRecovery(
      deployment([{ name: "data", inputs: { app: "a", name: "data" } }]),
      platform(
        ["destroyed", "destroying", "pending_destroy"].map((state, i) => ({
          ...vol(`vol_${i}`, "data"),
          state,
        })),
      ),
    );
    expect(plan).toEqual([expect.objectContaining({ action: "clear", urn: urn("data") })]);
  });

  it("clears a pending create whose resource a later `up` created again (the sweep finds the orphan)", async () => {
    const exported = deployment([{ name: "data", inputs: { app: "a", name: "data" } }]);
    exported.deployment.resources?.push({ urn: urn("data"), type: VOLUME, id: "vol_twin", inputs: {} });
    // The later `up` completed after the orphan was made: `since` is its end.
    const plan = await planRecovery(exported, platform([vol("vol_orphan", "data")]), {
      since: new Date("2026-11-23T09:00:00Z"),
    });
    expect(plan).toEqual([expect.objectContaining({ action: "clear", urn: urn("data"), recreated: true })]);
  });

  describe("a pending create that replaces the resource of its URN (issue 28)", () => {
    const replacing = () => {
      const exported = deployment([{ name: "data", inputs: { app: "a", name: "data" } }]);
      const pending = exported.deployment.pending_operations?.[0];
      if (pending) pending.resource.dependencies = [urn("kept")];
      exported.deployment.resources?.push(
        { urn: urn("data"), type: VOLUME, id: "vol_old", inputs: { app: "a", name: "data" } },
        { urn: urn("after"), type: VOLUME, id: "vol_after", inputs: {}, dependencies: [urn("data")] },
      );
      return exported;
    };
    const since = new Date("2026-11-23T07:00:00Z");

    it("imports what the interrupted replacement made, before the old resource, which is marked for deletion", async () => {
      const exported = replacing();
      const plan = await planRecovery(exported, platform([vol("vol_old", "data"), vol("vol_new", "data")]), {
        since,
      });
      expect(plan).toEqual([
        expect.objectContaining({ action: "import", urn: urn("data"), id: "vol_new", replacing: true }),
      ]);
      const recovered = await applyRecovery(exported, plan, async () => ({ volumeId: "vol_new" }));
      expect(recovered.deployment.pending_operations).toEqual([]);
      expect(recovered.deployment.resources?.map((r) => [r.id, r.delete ?? false])).toEqual([
        ["vol_kept", false],
        ["vol_new", false],
        ["vol_old", true],
        ["vol_after", false],
      ]);
    });

    it("a delete-before-replace already deleted the old resource: the replacement takes its place", async () => {
      const exported = replacing();
      const old = exported.deployment.resources?.find((r) => r.id === "vol_old");
      if (old) old.pendingReplacement = true;
      const plan = await planRecovery(exported, platform([vol("vol_new", "data")]), { since });
      const recovered = await applyRecovery(exported, plan, async () => ({ volumeId: "vol_new" }));
      expect(recovered.deployment.resources?.map((r) => r.id)).toEqual(["vol_kept", "vol_new", "vol_after"]);
    });

    it("nothing made since the interrupted update began: cleared, and the sweep looks", async () => {
      const plan = await planRecovery(replacing(), platform([vol("vol_old", "data")]), { since });
      expect(plan).toEqual([expect.objectContaining({ action: "clear", recreated: true })]);
    });
  });

  it("a certificate kind on the hostname is imported; a missing one is cleared; other providers are left alone", async () => {
    const plan = await planRecovery(
      deployment([
        { name: "www", type: ACME, inputs: { app: "a", hostname: "www.example.com" } },
        { name: "api", type: ACME, inputs: { app: "a", hostname: "api.example.com" } },
        { name: "bucket", type: "aws:s3/bucket:Bucket", inputs: {} },
      ]),
      platform([], { "www.example.com": { acme: true, custom: false } }),
    );
    expect(plan.map((p) => [p.action, p.urn])).toEqual([
      ["import", urn("www", ACME)],
      ["clear", urn("api", ACME)],
    ]);
  });

  it("a certificate replaced onto a new hostname: what the interrupted replacement requested is imported as it", async () => {
    const exported = deployment([
      { name: "www", type: ACME, inputs: { app: "a", hostname: "new.example.com" } },
    ]);
    exported.deployment.resources?.push({
      urn: urn("www", ACME),
      type: ACME,
      id: "old.example.com",
      inputs: { app: "a", hostname: "old.example.com" },
    });
    const hostnames = {
      "old.example.com": { acme: true, custom: false },
      "new.example.com": { acme: true, custom: false },
    };
    const plan = await planRecovery(exported, platform([], hostnames));
    expect(plan).toEqual([
      expect.objectContaining({ action: "import", id: "new.example.com", replacing: true }),
    ]);
    // Not yet requested at the new hostname: nothing to import; a later `up` may have made it.
    const none = await planRecovery(
      exported,
      platform([], { "old.example.com": hostnames["old.example.com"] }),
    );
    expect(none).toEqual([expect.objectContaining({ action: "clear", recreated: true })]);
  });
});

describe("applyRecovery", () => {
  it("turns an imported pending create into a resource with its id, outputs and serialized provider", async () => {
    const exported = deployment([
      { name: "data", inputs: { app: "a", name: "data" } },
      { name: "gone", inputs: { app: "a", name: "gone" } },
    ]);
    const next = await applyRecovery(
      exported,
      [
        { action: "import", kind: "volume", urn: urn("data"), id: "vol_new", what: "" },
        { action: "clear", kind: "volume", urn: urn("gone"), why: "" },
      ],
      async () => ({ volumeId: "vol_new", sizeGb: 3 }),
    );
    expect(next.deployment.pending_operations).toEqual([]);
    expect(next.deployment.resources?.at(-1)).toMatchObject({
      urn: urn("data"),
      id: "vol_new",
      outputs: { volumeId: "vol_new", sizeGb: 3, __provider: "stub" },
    });
    expect(exported.deployment.pending_operations).toHaveLength(2);
  });
});

describe("the plugin door's resources (platform:index:<Type>)", () => {
  const PLUGIN_VOLUME = "platform:index:Volume";

  it("are recover's kinds too; VolumeSnapshot only as the plugin's custom resource, not the dynamic door's component", () => {
    expect(kindOf(PLUGIN_VOLUME)).toBe("volume");
    expect(kindOf("platform:index:AcmeCertificate")).toBe("acmeCertificate");
    expect(kindOf("platform:index:CustomCertificate")).toBe("customCertificate");
    expect(kindOf("platform:index:PostgresPasswordRotation")).toBe("postgresPasswordRotation");
    expect(kindOf("platform:index:VolumeSnapshot")).toBe("volumeSnapshot");
    expect(kindOf("platform:index:VolumeSnapshot", { custom: false })).toBeUndefined();
    expect(kindOf("platform:index:getVolume")).toBeUndefined();
  });

  it("a pending create of a plugin volume is imported, and never takes a volume a plugin resource owns", async () => {
    const exported = deployment([
      { name: "data", type: PLUGIN_VOLUME, inputs: { app: "a", name: "data", region: "iad" } },
    ]);
    exported.deployment.resources?.push({
      urn: urn("other", PLUGIN_VOLUME),
      type: PLUGIN_VOLUME,
      custom: true,
      id: "vol_owned",
      inputs: { app: "a", name: "data" },
    });
    const plan = await planRecovery(
      exported,
      platform([vol("vol_owned", "data"), vol("vol_kept", "data"), vol("vol_new", "data")]),
    );
    expect(plan).toEqual([
      expect.objectContaining({
        action: "import",
        kind: "volume",
        id: "vol_new",
        urn: urn("data", PLUGIN_VOLUME),
      }),
    ]);
  });

  it("an imported plugin resource gets the outputs the plugin records after a create: with the dynamic door's provider text, its provider reference kept", async () => {
    const provider = "urn:pulumi:dev::p::pulumi:providers:platform::default::b1d5";
    const exported: ExportedDeployment = {
      version: 3,
      deployment: {
        resources: [],
        pending_operations: [
          {
            type: "creating",
            resource: {
              urn: urn("data", PLUGIN_VOLUME),
              type: PLUGIN_VOLUME,
              custom: true,
              provider,
              inputs: { app: "a", name: "data" },
            },
          },
        ],
      },
    };
    const next = await applyRecovery(
      exported,
      [{ action: "import", kind: "volume", urn: urn("data", PLUGIN_VOLUME), id: "vol_new", what: "" }],
      async () => ({ volumeId: "vol_new", sizeGb: 3 }),
    );
    expect(next.deployment.resources).toEqual([
      expect.objectContaining({
        id: "vol_new",
        provider,
        outputs: { volumeId: "vol_new", sizeGb: 3, __provider: stubTexts.volume },
      }),
    ]);
  });
});
