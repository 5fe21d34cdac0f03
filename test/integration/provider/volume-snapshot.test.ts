import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { hasUndefined, type ProviderHarness, rejectionOf, startHarness, withProvider } from "./helpers";

const APP = "demo-app";
let h: ProviderHarness;
let volumeId: string;

beforeAll(async () => {
  h = await startHarness({ snapshotListDelayMs: 400 });
  const created = await runtime.volume.create(
    withProvider({ app: APP, name: "snapped", region: "ord", sizeGb: 3, snapshotRetention: 1 }),
  );
  volumeId = created.id;
});
afterAll(async () => {
  await h?.close();
});

describe("VolumeSnapshotRequest", () => {
  it("takes an on-demand snapshot and waits until it is listed", async () => {
    const before = (await h.requests()).length;
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId }));
    expect(id).toMatch(/^vs_/);
    expect(outs).toMatchObject({
      app: APP,
      volumeId,
      backupId: expect.stringMatching(/^bkp_/),
      snapshotId: id,
      state: "prepare",
      backupType: "BACKUP_TYPE_ON_DEMAND",
      listed: true,
      lastSeenAt: expect.any(String),
      size: expect.any(Number),
      digest: expect.stringMatching(/^sha256:/),
      retentionDays: 1,
    });
    expect(hasUndefined(outs)).toBe(false);
    const lists = (await h.requests())
      .slice(before)
      .filter((r) => r.method === "GET" && r.path === `/v1/apps/${APP}/volumes/${volumeId}/snapshots`);
    // The snapshot appears only after a delay, so the wait listed more than once.
    expect(lists.length).toBeGreaterThan(1);
    const read = await runtime.volumeSnapshot.read(id, outs);
    const { lastSeenAt: _seen, ...rest } = outs;
    expect(read).toMatchObject({ id, props: { ...rest, listed: true, lastSeenAt: expect.any(String) } });
  });

  it("stays the snapshot of the volume it was taken of when the program names another volume", async () => {
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId }));
    const news = { app: APP, volumeId: "vol_made_again", waitTimeoutSeconds: 5 };
    expect(
      (await runtime.volumeSnapshot.diff(id, outs, { app: APP, volumeId: "vol_made_again" })).changes,
    ).toBe(false);
    const updated = await runtime.volumeSnapshot.update(id, outs, withProvider(news));
    expect(updated.outs).toMatchObject({ volumeId, snapshotId: id, listed: true, waitTimeoutSeconds: 5 });
    expect((await runtime.volumeSnapshot.read(id, updated.outs)).props).toMatchObject({
      volumeId,
      listed: true,
    });
  });

  it("delete leaves the platform alone; once retention removed it, refresh keeps it in the stack as no longer listed", async () => {
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId }));
    await runtime.volumeSnapshot.delete(id, outs);
    const listed = await runtime.volumeSnapshot.read(id, outs);
    expect(listed.id).toBe(id);
    await h.control.time.advance(2 * 24 * 60 * 60 * 1000);
    const gone = await runtime.volumeSnapshot.read(id, listed.props);
    // Same id, same record of the snapshot, same inputs: nothing that consumes it is planned again.
    expect(gone.id).toBe(id);
    expect(gone.props).toEqual({ ...listed.props, listed: false });
    expect(gone.inputs).toEqual(listed.inputs);
    expect(hasUndefined(gone.props)).toBe(false);
    // It stays so on later refreshes, and an update of its wait setting does not wait for it.
    expect(await runtime.volumeSnapshot.read(id, gone.props)).toEqual(gone);
    const updated = await runtime.volumeSnapshot.update(id, gone.props, {
      ...gone.inputs,
      waitTimeoutSeconds: 1,
    });
    expect(updated.outs).toMatchObject({
      listed: false,
      lastSeenAt: listed.props.lastSeenAt,
      snapshotId: id,
    });
  });

  it("keeps a snapshot of a state written before lastSeenAt existed, last seen at its creation", async () => {
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId }));
    const { lastSeenAt: _seen, ...recordedBefore } = outs;
    await h.control.time.advance(2 * 24 * 60 * 60 * 1000);
    const gone = await runtime.volumeSnapshot.read(id, recordedBefore);
    expect(gone.id).toBe(id);
    expect(gone.props).toMatchObject({ listed: false, lastSeenAt: outs.createdAt });
  });

  it("keeps a snapshot not listed within waitTimeoutSeconds in the stack, still pending on read", async () => {
    await h.control.time.speed(0);
    try {
      const err = await rejectionOf(
        runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId, waitTimeoutSeconds: 1 })),
      );
      expect(err.message).toMatch(/is not listed yet after 1 s \(waitTimeoutSeconds\)/);
      expect(err.id).toMatch(/^vs_/);
      expect(err.properties).toMatchObject({ listed: false, __provider: expect.any(String) });
      expect((await runtime.volumeSnapshot.read(err.id, err.properties)).id).toBe(err.id);
    } finally {
      await h.control.time.speed(1);
    }
  });

  it("a snapshot whose volume is gone stays in the stack as no longer listed", async () => {
    const v = await runtime.volume.create(withProvider({ app: APP, name: "short", region: "ord" }));
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId: v.id }));
    await runtime.volume.delete(v.id, v.outs);
    const read = await runtime.volumeSnapshot.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ listed: false, snapshotId: id, digest: outs.digest });
  });

  it("a snapshot never listed, whose volume is gone, leaves the stack (it was never taken)", async () => {
    const v = await runtime.volume.create(withProvider({ app: APP, name: "pending", region: "ord" }));
    const pending = { app: APP, volumeId: v.id, snapshotId: "vs_never", listed: false, lastSeenAt: null };
    await runtime.volume.delete(v.id, v.outs);
    expect((await runtime.volumeSnapshot.read("vs_never", withProvider(pending))).id).toBe("");
  });
});
