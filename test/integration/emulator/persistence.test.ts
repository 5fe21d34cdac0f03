import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeCert } from "../../support/certs";
import { startTestEmulator, tempDir } from "../../support/emulator";

describe("persistence with a state file", () => {
  test("volumes, snapshots, certificates, tasks, cluster states and DNS survive a restart", async () => {
    const dir = tempDir();
    const stateFile = join(dir, "state.json");
    const first = await startTestEmulator({ stateFile, token: "t1" });
    const vol = (await first.api("POST", "/v1/apps/demo-app/volumes", { name: "data", size_gb: 4 })).body;
    const backup = (await first.api("POST", `/v1/apps/demo-app/volumes/${vol.id}/snapshots`)).body.Msg.backup;
    const cert = await makeCert("app.example.com");
    await first.api("POST", "/v1/apps/demo-app/certificates/custom", {
      hostname: "app.example.com",
      fullchain: cert.cert,
      private_key: cert.key,
    });
    await first.api("POST", "/v1/apps/demo-app/certificates/acme", { hostname: "b.example.com" });
    await first.task("POST", "/v1/tasks", { name: "hold", expire: "1h" });
    await first.control.postgres.setState("demo-pg", "deleting");
    await first.control.dns.set([{ type: "A", name: "b.example.com", value: "192.0.2.7" }]);
    await first.advance(60_000);
    const before = (await first.control.time.get()).nowMs;
    // Debounced: the file appears without waiting for close.
    await expect.poll(() => readdirSync(dir).includes("state.json")).toBe(true);
    await first.close();
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(JSON.parse(readFileSync(stateFile, "utf8")).version).toBe(1);

    const second = await startTestEmulator({ stateFile, token: "t2" });
    try {
      const got = await second.api("GET", `/v1/apps/demo-app/volumes/${vol.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        name: "data",
        size_gb: 4,
        zone: vol.zone,
        created_at: vol.created_at,
      });
      const snaps = (await second.api("GET", `/v1/apps/demo-app/volumes/${vol.id}/snapshots`)).body;
      expect(snaps.map((s: { id: string }) => s.id)).toEqual([backup.graph_id]);
      const certs = (await second.api("GET", "/v1/apps/demo-app/certificates")).body;
      expect(certs.certificates.map((c: { hostname: string }) => c.hostname)).toEqual([
        "app.example.com",
        "b.example.com",
      ]);
      expect((await second.task("GET", "/v1/tasks/hold")).status).toBe(200);
      const rotate = await second.api("POST", "/v1/postgres/demo-pg/users/app_user/rotate_password");
      expect(rotate.status).toBe(410);
      expect((await second.api("GET", "/__emulator/dns")).body.records).toHaveLength(1);
      const now = (await second.control.time.get()).nowMs;
      expect(now).toBeGreaterThanOrEqual(before);
    } finally {
      await second.close();
    }
  });

  test("a destroy is persisted too: nothing is left after a restart", async () => {
    const stateFile = join(tempDir(), "state.json");
    const first = await startTestEmulator({ stateFile });
    const vol = (await first.api("POST", "/v1/apps/demo-app/volumes", { name: "data" })).body;
    await first.api("DELETE", `/v1/apps/demo-app/volumes/${vol.id}`);
    await first.close();
    const second = await startTestEmulator({ stateFile });
    try {
      expect((await second.control.state()).volumes).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
