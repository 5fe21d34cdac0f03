import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import {
  configureRuntime,
  hasUndefined,
  type ProviderHarness,
  rejectionOf,
  startHarness,
  withProvider,
} from "./helpers";

const APP = "demo-app";
let h: ProviderHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function createVolume(name: string, extra: Record<string, unknown> = {}) {
  const inputs = withProvider({ app: APP, name, region: "ord", sizeGb: 10, snapshotRetention: 5, ...extra });
  const created = await runtime.volume.create(inputs);
  return { inputs, ...created };
}

describe("Volume check", () => {
  it("rejects a shrink at preview with the sizes in the message", async () => {
    const { failures } = await runtime.volume.check(
      { app: APP, name: "d", sizeGb: 10 },
      { app: APP, name: "d", sizeGb: 5 },
    );
    expect(failures).toEqual([{ property: "sizeGb", reason: "volumes can only grow: 10 GB → 5 GB" }]);
  });

  it("rejects snapshotRetention out of range before any API call", async () => {
    const { failures } = await runtime.volume.check({}, { app: APP, name: "d", snapshotRetention: 90 });
    expect(failures).toEqual([
      { property: "snapshotRetention", reason: expect.stringMatching(/1 to 60 days \(got 90\)/) },
    ]);
  });

  it("fails when no token or URL is configured, saying how to set them", async () => {
    const saved = { token: process.env.PLATFORM_API_TOKEN, url: process.env.PLATFORM_API_URL };
    delete process.env.PLATFORM_API_TOKEN;
    delete process.env.PLATFORM_API_URL;
    try {
      await configureRuntime(undefined, undefined);
      const { failures } = await runtime.volume.check({}, { app: APP, name: "d" });
      // Named by no property: the engine would print the value of a property named apiToken.
      expect(failures.map((f) => f.property)).toEqual(["", ""]);
      expect(failures[0]?.reason).toContain("pulumi config set --secret platform:apiToken");
      expect(failures[0]?.reason).toContain("PLATFORM_API_TOKEN");
      expect(failures[1]?.reason).toContain("PLATFORM_API_URL");
    } finally {
      Object.assign(process.env, saved.token ? { PLATFORM_API_TOKEN: saved.token } : {});
      await configureRuntime(h.emu.url, h.emu.token);
    }
  });

  it("falls back to PLATFORM_API_TOKEN / PLATFORM_API_URL from the environment", async () => {
    await configureRuntime(undefined, undefined);
    process.env.PLATFORM_API_TOKEN = h.emu.token;
    process.env.PLATFORM_API_URL = h.emu.url;
    try {
      expect((await runtime.volume.check({}, { app: APP, name: "d" })).failures).toEqual([]);
      const { id } = await createVolume("from-env");
      expect(id).toMatch(/^vol_/);
    } finally {
      delete process.env.PLATFORM_API_TOKEN;
      delete process.env.PLATFORM_API_URL;
      await configureRuntime(h.emu.url, h.emu.token);
    }
  });
});

describe("Volume lifecycle", () => {
  it("creates a volume with every field as outputs and no undefined", async () => {
    const { id, outs } = await createVolume("life");
    expect(id).toMatch(/^vol_/);
    expect(outs).toMatchObject({
      app: APP,
      volumeId: id,
      name: "life",
      state: "created",
      sizeGb: 10,
      region: "ord",
      encrypted: true,
      fstype: "ext4",
      snapshotRetention: 5,
      autoBackupEnabled: true,
      hostDedicationKey: "",
      attachedMachineId: null,
      needsRestart: false,
    });
    // Create costs one request: block counts are the create's answer (zero on a fresh volume,
    // spec 2.2) until a refresh reads them.
    expect(outs.blocks).toBe(0);
    expect(hasUndefined(outs)).toBe(false);
    // What refresh will compare: a read right after create reports no drift.
    const read = await runtime.volume.read(id, { ...outs, __provider: "p" });
    expect(read.props.blocks).toBeGreaterThan(0);
    expect(read.props.fstype).toBe("ext4");
    const drift = await runtime.volume.diff(id, read.props, {
      app: APP,
      name: "life",
      region: "ord",
      sizeGb: 10,
      snapshotRetention: 5,
    });
    expect(drift.changes).toBe(false);
  });

  it("does both the retention PUT and the extend in one update, with needsRestart from the extend", async () => {
    const { id, outs, inputs } = await createVolume("both");
    await h.control.volumes.attach(id, "m_1");
    const before = (await h.requests()).length;
    const news = { ...inputs, sizeGb: 20, snapshotRetention: 9, autoBackupEnabled: false };
    const d = await runtime.volume.diff(id, outs, news);
    // The kind's one answer: each of the three inputs is an update in place, nothing replaces.
    expect(d).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      properties: { sizeGb: "update", snapshotRetention: "update", autoBackupEnabled: "update" },
    });
    const { outs: after } = await runtime.volume.update(id, outs, news);
    expect(after).toMatchObject({
      sizeGb: 20,
      snapshotRetention: 9,
      autoBackupEnabled: false,
      needsRestart: true,
    });
    expect(after.attachedMachineId).toBe("m_1");
    expect(hasUndefined(after)).toBe(false);
    const calls = (await h.requests()).slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls).toContain(`PUT /v1/apps/${APP}/volumes/${id}`);
    expect(calls).toContain(`PUT /v1/apps/${APP}/volumes/${id}/extend`);
  });

  it("a sizeGb below the volume's size that reaches update extends nothing and keeps the size", async () => {
    const { id, outs, inputs } = await createVolume("shrink");
    const before = (await h.requests()).length;
    const { outs: after } = await runtime.volume.update(id, outs, {
      ...inputs,
      sizeGb: 5,
      snapshotRetention: 8,
    });
    expect(after).toMatchObject({ sizeGb: 10, programSizeGb: 5, snapshotRetention: 8 });
    const calls = (await h.requests()).slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls).not.toContain(`PUT /v1/apps/${APP}/volumes/${id}/extend`);
    expect((await runtime.volume.read(id, outs)).props.sizeGb).toBe(10);
  });

  it("read reports size and retention changed elsewhere; the grown size is no change and no shrink for the unchanged program", async () => {
    const { id, outs, inputs } = await createVolume("drift");
    await h.api("PUT", `/v1/apps/${APP}/volumes/${id}/extend`, { size_gb: 15 });
    await h.api("PUT", `/v1/apps/${APP}/volumes/${id}`, {
      snapshot_retention: 12,
      auto_backup_enabled: false,
    });
    const read = await runtime.volume.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ sizeGb: 15, snapshotRetention: 12, autoBackupEnabled: false });
    // The refreshed inputs keep the size the program asked for: 15 GB is the platform's, not the program's.
    expect(read.inputs).toMatchObject({ app: APP, name: "drift", sizeGb: 10, snapshotRetention: 12 });
    const { __provider: _p, ...oldInputs } = inputs;
    // The engine's refresh diff: new outputs against the old inputs.
    const drift = await runtime.volume.diff(id, read.props, oldInputs);
    expect(drift.changes).toBe(true);
    expect(drift.replaces).toEqual([]);
    // Next preview: the unchanged program passes check, and only the retention is planned back.
    const { failures } = await runtime.volume.check(read.inputs ?? {}, oldInputs);
    expect(failures).toEqual([]);
    const sizeOnly = await runtime.volume.diff(id, read.props, {
      ...oldInputs,
      snapshotRetention: 12,
      autoBackupEnabled: false,
    });
    expect(sizeOnly.changes).toBe(false);
    // The program's own value lowered is still refused, and a size above the platform's is a growth.
    const lowered = await runtime.volume.check(read.inputs ?? {}, { ...oldInputs, sizeGb: 8 });
    expect(lowered.failures).toEqual([{ property: "sizeGb", reason: "volumes can only grow: 10 GB → 8 GB" }]);
    expect((await runtime.volume.diff(id, read.props, { ...oldInputs, sizeGb: 16 })).changes).toBe(true);
  });

  it("read returns as inputs only what the program set, so a refresh invents no changes", async () => {
    const { id, outs, inputs } = await createVolume("minimal-inputs");
    const read = await runtime.volume.read(id, outs);
    const { __provider: _p, ...given } = inputs;
    const { __provider: _q, ...refreshed } = read.inputs ?? {};
    // encrypted, fstype and autoBackupEnabled are platform defaults the program never wrote.
    expect(refreshed).toEqual(given);
    const next = await runtime.volume.diff(id, read.props, given);
    expect(next.changes).toBe(false);
    // A second refresh keeps the same list (it is carried in the outputs).
    expect((await runtime.volume.read(id, read.props)).inputs).toEqual(read.inputs);
  });

  it("read of a deleted volume returns an empty id, and deleting it again succeeds", async () => {
    const { id, outs } = await createVolume("gone");
    await runtime.volume.delete(id, outs);
    expect(await runtime.volume.read(id, outs)).toEqual({ id: "", props: {} });
    await expect(runtime.volume.delete(id, outs)).resolves.toBeUndefined();
    const state = await h.state();
    expect(JSON.stringify(state)).not.toContain(id);
  });
});

describe("Volume restore and adoption", () => {
  it("creates from a snapshot and waits for restoring → created", async () => {
    const { id } = await createVolume("src");
    const snap = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId: id }));
    const inputs = withProvider({ app: APP, name: "restored", region: "ord", snapshotId: snap.id });
    const before = (await h.requests()).length;
    const restored = await runtime.volume.create(inputs);
    expect(restored.outs).toMatchObject({
      state: "created",
      snapshotId: snap.id,
      sizeGb: 10,
      fstype: "ext4",
    });
    const gets = (await h.requests())
      .slice(before)
      .filter((r) => r.method === "GET" && r.path === `/v1/apps/${APP}/volumes/${restored.id}`);
    expect(gets.length).toBeGreaterThanOrEqual(1);
  });

  it("a restore or fork never asks for less than its snapshot or source holds: sizeGb is the least it gets", async () => {
    const { id } = await createVolume("src-big");
    const snap = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId: id }));
    const restore = (name: string, sizeGb: number) =>
      runtime.volume.create(withProvider({ app: APP, name, region: "ord", snapshotId: snap.id, sizeGb }));
    const below = await restore("restored-below", 3);
    expect(below.outs).toMatchObject({ state: "created", sizeGb: 10, programSizeGb: 3 });
    // The 10 GB volume plans nothing against sizeGb 3.
    const diff = await runtime.volume.diff(below.id, below.outs, {
      app: APP,
      name: "restored-below",
      region: "ord",
      snapshotId: snap.id,
      sizeGb: 3,
    });
    expect(diff.changes).toBe(false);
    const above = await restore("restored-above", 12);
    expect(above.outs).toMatchObject({ state: "created", sizeGb: 12 });
    const fork = await runtime.volume.create(
      withProvider({ app: APP, name: "forked-below", region: "ord", sourceVolumeId: id, sizeGb: 2 }),
    );
    expect(fork.outs).toMatchObject({ sizeGb: 10, sourceVolumeId: id });
  });

  it("keeps a restore that outlives restoreTimeoutSeconds in the stack with its id and provider", async () => {
    const { id } = await createVolume("src-slow");
    const snap = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId: id }));
    await h.control.time.speed(0);
    try {
      const err = await rejectionOf(
        runtime.volume.create(
          withProvider({
            app: APP,
            name: "slow",
            region: "ord",
            snapshotId: snap.id,
            restoreTimeoutSeconds: 1,
          }),
        ),
      );
      expect(err.message).toMatch(/still "restoring" from snapshot .* after 1 s \(restoreTimeoutSeconds\)/);
      expect(err.id).toMatch(/^vol_/);
      expect(err.properties).toMatchObject({ state: "restoring", __provider: expect.any(String) });
      expect(hasUndefined(err.properties)).toBe(false);
    } finally {
      await h.control.time.speed(1);
    }
  });

  it("adopts an existing volume and applies retention and growth to it", async () => {
    const existing = await h.api<{ id: string }>("POST", `/v1/apps/${APP}/volumes`, {
      name: "legacy",
      region: "ord",
      size_gb: 4,
    });
    const volumeId = existing.body.id;
    const before = (await h.state()).volumes?.length;
    const { id, outs } = await runtime.volume.create(
      withProvider({
        app: APP,
        name: "legacy",
        region: "ord",
        sizeGb: 6,
        snapshotRetention: 20,
        adoptVolumeId: volumeId,
      }),
    );
    expect(id).toBe(volumeId);
    expect(outs).toMatchObject({ sizeGb: 6, snapshotRetention: 20, adoptVolumeId: volumeId });
    expect((await h.state()).volumes?.length).toBe(before);
  });

  it("refuses to adopt a volume whose name or region does not match", async () => {
    const existing = await h.api<{ id: string }>("POST", `/v1/apps/${APP}/volumes`, {
      name: "other",
      region: "ord",
    });
    await expect(
      runtime.volume.create(
        withProvider({ app: APP, name: "mine", region: "ams", adoptVolumeId: existing.body.id }),
      ),
    ).rejects.toThrow(/cannot adopt volume .*named "other", not "mine".*region ord, not ams/);
  });

  it("refuses to adopt a volume that does not exist", async () => {
    await expect(
      runtime.volume.create(withProvider({ app: APP, name: "x", adoptVolumeId: "vol_missing" })),
    ).rejects.toThrow(/cannot adopt volume vol_missing: app demo-app has no such volume/);
  });
});
