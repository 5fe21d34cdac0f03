import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/runtime";
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
    expect(read).toMatchObject({ id, props: outs });
  });

  it("delete leaves the platform alone; refresh shows it gone once retention removed it", async () => {
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId }));
    await runtime.volumeSnapshot.delete(id, outs);
    expect((await runtime.volumeSnapshot.read(id, outs)).id).toBe(id);
    await h.control.time.advance(2 * 24 * 60 * 60 * 1000);
    expect(await runtime.volumeSnapshot.read(id, outs)).toEqual({ id: "", props: {} });
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

  it("a read of a snapshot whose volume is gone returns an empty id", async () => {
    const v = await runtime.volume.create(withProvider({ app: APP, name: "short", region: "ord" }));
    const { id, outs } = await runtime.volumeSnapshot.create(withProvider({ app: APP, volumeId: v.id }));
    await runtime.volume.delete(v.id, v.outs);
    expect((await runtime.volumeSnapshot.read(id, outs)).id).toBe("");
  });
});
