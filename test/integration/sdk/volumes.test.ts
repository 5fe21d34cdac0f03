import { describe, expect, it } from "vitest";
import { AmbiguousRequestError, ApiError, isNotFound, type PlatformClient } from "../../../sdk/index";
import { SDK_TIMING, type TestEmulator, useTestEmulator } from "../../support/emulator";

const APP = "demo-app";
let h: TestEmulator;
let client: PlatformClient;

useTestEmulator({
  emulator: { timing: SDK_TIMING },
  resetEachTest: true,
  started: (started) => {
    h = started;
    client = h.client();
  },
});

describe("volumes against the emulator", () => {
  it("walks every endpoint: create, list, get, update, extend, snapshots, restore, delete", async () => {
    const created = await client.volumes.create(APP, {
      name: "data_all",
      region: "ams",
      size_gb: 4,
      encrypted: true,
      fstype: "ext4",
      auto_backup_enabled: false,
      snapshot_retention: 7,
      require_unique_zone: false,
      machines_only: true,
      compute: { cpu_kind: "shared", cpus: 1, memory_mb: 256 },
    });
    expect(created).toMatchObject({ name: "data_all", state: "created", size_gb: 4, snapshot_retention: 7 });
    expect((await client.volumes.list(APP)).map((v) => v.id)).toContain(created.id);
    expect(await client.volumes.get(APP, created.id)).toMatchObject({ id: created.id });
    expect(
      await client.volumes.update(APP, created.id, { snapshot_retention: 10, auto_backup_enabled: true }),
    ).toMatchObject({
      snapshot_retention: 10,
      auto_backup_enabled: true,
    });
    const extended = await client.volumes.extend(APP, created.id, 6);
    expect(extended.volume.size_gb).toBe(6);
    expect(typeof extended.needs_restart).toBe("boolean");

    const backup = await client.volumes.createSnapshot(APP, created.id);
    expect(backup).toMatchObject({ volume_id: created.id, type: "BACKUP_TYPE_ON_DEMAND" });
    const snapshot = await client.volumes.waitForSnapshot(APP, created.id, backup.graph_id, {
      timeoutMs: 10_000,
    });
    expect(snapshot.id).toBe(backup.graph_id);
    expect((await client.volumes.listSnapshots(APP, created.id)).map((s) => s.id)).toContain(backup.graph_id);

    const restored = await client.volumes.create(APP, {
      name: "data_restored",
      region: created.region,
      snapshot_id: snapshot.id,
      size_gb: 6,
    });
    expect(restored.state).toBe("restoring");
    const ready = await client.volumes.waitUntil(APP, restored.id, "created", { timeoutMs: 10_000 });
    expect(ready.state).toBe("created");

    expect((await client.volumes.delete(APP, created.id)).state).toBe("destroyed");
  });

  it("a missing volume is a 404 whose hint names the volume", async () => {
    const err = await client.volumes.get(APP, "vol_missing").catch((e) => e);
    expect(isNotFound(err)).toBe(true);
    expect(err.hint).toBe("The volume was not found");
    expect(err.reason).toBeUndefined();
  });

  it("an error carries the emulator's x-request-id, also for a refused token", async () => {
    const err = await client.volumes.get(APP, "vol_missing").catch((e) => e);
    expect(err.requestId).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(err.message).toContain(`(request id ${err.requestId})`);
    const refused = await h
      .client({ token: "wrong-token" })
      .volumes.list(APP)
      .catch((e) => e);
    expect(refused).toMatchObject({ status: 401, requestId: expect.stringMatching(/^[0-9a-f]{12}-/) });
    expect(refused.message).not.toContain("wrong-token");
  });

  it("a missing app is a 404 whose hint names the app", async () => {
    const err = await client.volumes.list("no-such-app").catch((e) => e);
    expect(err.hint).toBe("The app was not found");
  });

  it("a shrink is refused by the platform with an ApiError", async () => {
    const v = await client.volumes.create(APP, { name: "data_shrink", size_gb: 5 });
    const err = await client.volumes.extend(APP, v.id, 3).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.message).toContain("volumes can only grow");
  });

  it("waitUntil times out naming the last state seen", async () => {
    const v = await client.volumes.create(APP, { name: "data_wait", size_gb: 3 });
    await expect(client.volumes.waitUntil(APP, v.id, "restoring", { timeoutMs: 600 })).rejects.toThrow(
      /did not reach state "restoring".*last state seen: "created"/,
    );
  });

  it("no duplicate volume after a connection dropped after the create ran", async () => {
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "drop-after",
      times: 1,
    });
    const v = await client.volumes.create(APP, { name: "data_dropped_after", size_gb: 3 });
    const same = (await client.volumes.list(APP)).filter((x) => x.name === "data_dropped_after");
    expect(same.map((x) => x.id)).toEqual([v.id]);
    const posts = (await h.requests()).filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
  });

  it.each([500, 502, 503, 504] as const)(
    "no duplicate volume after a %i answered a create the platform carried out: the look takes it",
    async (status) => {
      await h.control.faults.add({
        method: "POST",
        path: "/v1/apps/*/volumes",
        kind: "status-after",
        status,
      });
      const name = `data_after_${status}`;
      const v = await client.volumes.create(APP, { name, size_gb: 3 });
      const same = (await client.volumes.list(APP)).filter((x) => x.name === name);
      expect(same.map((x) => x.id)).toEqual([v.id]);
      expect((await h.requests()).filter((r) => r.method === "POST").map((r) => r.status)).toEqual([status]);
      expect(client.volumes.uncertainCreates(APP)).toEqual([]);
    },
  );

  it("a create dropped before it ran is sent again once the list shows nothing new", async () => {
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "drop-before",
      times: 1,
    });
    const v = await client.volumes.create(APP, { name: "data_dropped_before", size_gb: 3 });
    const same = (await client.volumes.list(APP)).filter((x) => x.name === "data_dropped_before");
    expect(same.map((x) => x.id)).toEqual([v.id]);
    // The attempt that found nothing is remembered: it may yet have made a volume.
    expect(client.volumes.uncertainCreates(APP)).toMatchObject([{ name: "data_dropped_before" }]);
  });

  it("an existing volume of the same name is never adopted", async () => {
    const first = await client.volumes.create(APP, {
      name: "data_twin",
      size_gb: 3,
      require_unique_zone: false,
    });
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "drop-after",
      times: 1,
    });
    const second = await client.volumes.create(APP, {
      name: "data_twin",
      size_gb: 3,
      require_unique_zone: false,
    });
    expect(second.id).not.toBe(first.id);
    expect((await client.volumes.list(APP)).filter((x) => x.name === "data_twin")).toHaveLength(2);
  });

  it("creates of one name at once whose answers were lost each get their own volume, none left over", async () => {
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "drop-after",
      times: 2,
    });
    const body = { name: "data_trio", size_gb: 3, require_unique_zone: false };
    const made = await Promise.all([1, 2, 3].map(() => client.volumes.create(APP, body)));
    expect(new Set(made.map((v) => v.id)).size).toBe(3);
    const same = (await client.volumes.list(APP)).filter((x) => x.name === "data_trio");
    expect(same.map((x) => x.id).sort()).toEqual(made.map((v) => v.id).sort());
    expect((await h.requests()).filter((r) => r.method === "POST")).toHaveLength(3);
  });

  it("a volume of the same name another client made before is not taken over after a lost create", async () => {
    const other = await h
      .client()
      .volumes.create(APP, { name: "data_theirs", size_gb: 3, require_unique_zone: false });
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "drop-before",
      times: 1,
    });
    const mine = await h
      .client()
      .volumes.create(APP, { name: "data_theirs", size_gb: 3, require_unique_zone: false });
    expect(mine.id).not.toBe(other.id);
    expect((await client.volumes.list(APP)).filter((x) => x.name === "data_theirs")).toHaveLength(2);
  });

  it("creates list the app's volumes once per client, not once per create", async () => {
    const fresh = h.client();
    await h.control.requests.clear();
    for (let i = 0; i < 4; i++) await fresh.volumes.create(APP, { name: `data_many_${i}`, size_gb: 1 });
    const requests = (await h.requests()).map((r) => `${r.method} ${r.path}`);
    expect(requests.filter((r) => r === "GET /v1/apps/demo-app/volumes")).toHaveLength(1);
    expect(requests.filter((r) => r === "POST /v1/apps/demo-app/volumes")).toHaveLength(4);
  });

  it("the on-demand snapshot is not repeated after a drop: AmbiguousRequestError", async () => {
    const v = await client.volumes.create(APP, { name: "data_snapdrop", size_gb: 3 });
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes/*/snapshots",
      kind: "drop-after",
      times: 1,
    });
    await expect(client.volumes.createSnapshot(APP, v.id)).rejects.toBeInstanceOf(AmbiguousRequestError);
    expect(
      (await h.requests()).filter((r) => r.method === "POST" && r.path.endsWith("/snapshots")),
    ).toHaveLength(1);
  });

  it.each([429, 503] as const)("GET is retried after an injected %i with Retry-After", async (status) => {
    const v = await client.volumes.create(APP, { name: `data_retry_${status}`, size_gb: 3 });
    await h.control.requests.clear();
    await h.control.faults.add({
      method: "GET",
      path: "/v1/apps/*/volumes/*",
      kind: "status",
      status,
      retryAfterSeconds: 1,
      times: 2,
    });
    const started = Date.now();
    expect((await client.volumes.get(APP, v.id)).id).toBe(v.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect((await h.requests()).map((r) => r.status)).toEqual([status, status, 200]);
  });

  it("POST create is retried after an injected 429 (nothing happened) and makes one volume", async () => {
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "status",
      status: 429,
      retryAfterSeconds: 1,
      times: 1,
    });
    await client.volumes.create(APP, { name: "data_429", size_gb: 3 });
    expect((await client.volumes.list(APP)).filter((x) => x.name === "data_429")).toHaveLength(1);
  });

  it("GET is retried after the connection drops", async () => {
    await h.control.faults.add({
      method: "GET",
      path: "/v1/apps/*/volumes",
      kind: "drop-before",
      times: 2,
    });
    await expect(client.volumes.list(APP)).resolves.toBeInstanceOf(Array);
  });

  it("DELETE is retried after the connection drops after it ran, and the retry finds it gone (404)", async () => {
    const v = await client.volumes.create(APP, { name: "data_del", size_gb: 3 });
    await h.control.faults.add({
      method: "DELETE",
      path: "/v1/apps/*/volumes/*",
      kind: "drop-after",
      times: 1,
    });
    const res = await client.volumes.delete(APP, v.id).catch((e) => e);
    // The first DELETE ran, so the repeat finds nothing: a 404 the caller can read as "gone".
    expect(res).toBeInstanceOf(ApiError);
    expect((res as ApiError).status).toBe(404);
    const after = await client.volumes.get(APP, v.id).catch((e) => e);
    expect((after as ApiError).status).toBe(404);
  });
});
