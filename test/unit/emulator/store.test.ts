import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { VirtualClock } from "../../../emulator/clock";
import { EmulatorError } from "../../../emulator/errors";
import { DEFAULT_TIMING } from "../../../emulator/options";
import { Store } from "../../../emulator/store";
import { resolveSeed } from "../../../emulator/store/seed";
import { StateFile } from "../../../emulator/store/state-file";

function makeStore() {
  const clock = new VirtualClock(Date.UTC(2030, 0, 1));
  clock.setSpeed(0);
  const store = new Store({
    clock,
    timing: DEFAULT_TIMING,
    seed: resolveSeed(undefined, undefined),
    zonesPerRegion: 3,
  });
  return { clock, store };
}

describe("Store (no HTTP)", () => {
  test("raises domain errors with a kind, not HTTP statuses", () => {
    const { store } = makeStore();
    expect(() => store.requireApp("nope")).toThrow(EmulatorError);
    let thrown: unknown;
    try {
      store.volumes.extend("demo-app", "vol_x", 5);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(EmulatorError);
    expect((thrown as EmulatorError).kind).toBe("not_found");
  });

  test("a restore becomes created exactly at the restore delay", () => {
    const { clock, store } = makeStore();
    const vol = store.volumes.create("demo-app", "iad", { name: "a" });
    const snap = store.volumes.createSnapshot("demo-app", vol.id).Msg.backup.graph_id;
    clock.advance(DEFAULT_TIMING.snapshotListDelayMs);
    const restored = store.volumes.create("demo-app", "iad", { name: "b", snapshot_id: snap, region: "iad" });
    clock.advance(DEFAULT_TIMING.restoreDelayMs - 1);
    expect(store.volumes.get("demo-app", restored.id).state).toBe("restoring");
    clock.advance(1);
    expect(store.volumes.get("demo-app", restored.id).state).toBe("created");
  });

  test("refuses to create a volume in a region it does not know (invalid: 400), and keeps none", () => {
    const { store } = makeStore();
    let thrown: unknown;
    try {
      store.volumes.create("demo-app", "iad", { name: "a", region: "ida" });
    } catch (err) {
      thrown = err;
    }
    expect((thrown as EmulatorError).kind).toBe("invalid");
    expect((thrown as EmulatorError).message).toMatch(
      /^region "ida" is not a region of the platform \(ams, /,
    );
    expect(store.volumes.list("demo-app")).toEqual([]);
    expect(store.volumes.create("demo-app", "iad", { name: "a", region: "lhr" }).region).toBe("lhr");
  });

  test("a seed app's primary region must be a known region", () => {
    expect(() => resolveSeed({ apps: [{ name: "x", primary_region: "mars" }] }, undefined)).toThrow(
      /invalid seed option: apps\.0\.primary_region: unknown region "mars"/,
    );
    expect(
      resolveSeed({ apps: [{ name: "x", primary_region: "fra" }] }, undefined).apps[1]?.primaryRegion,
    ).toBe("fra");
  });

  test("a seed file adds apps and cluster users to the default seed", () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    const file = join(dir, "seed.json");
    writeFileSync(file, JSON.stringify({ apps: ["x"], postgres: [{ name: "demo-pg", users: ["extra"] }] }));
    const seed = resolveSeed(undefined, file);
    expect(seed.apps.map((a) => a.name)).toEqual(["demo-app", "x"]);
    expect(seed.clusters[0]?.users.map((u) => u.name)).toEqual([
      "app_user",
      "app_user_b",
      "postgres",
      "extra",
    ]);
    writeFileSync(file, JSON.stringify({ apps: [42] }));
    expect(() => resolveSeed(undefined, file)).toThrow(/invalid seed file/);
  });
});

describe("StateFile", () => {
  test("writes atomically (no temp file left) and reads back what the store saved", async () => {
    const dir = mkdtempSync(join(tmpdir(), "state-"));
    const { store } = makeStore();
    const file = new StateFile(join(dir, "s.json"), () => store.serialize(), 5);
    expect(file.read()).toBeUndefined();
    store.volumes.create("demo-app", "iad", { name: "a" });
    file.schedule();
    await file.flush();
    expect(readdirSync(dir)).toEqual(["s.json"]);
    const again = makeStore().store;
    again.load(file.read()!);
    expect(again.volumes.list("demo-app").map((v) => v.name)).toEqual(["a"]);
  });

  test("debounces many changes into one write", async () => {
    const dir = mkdtempSync(join(tmpdir(), "state-"));
    let snapshots = 0;
    const { store } = makeStore();
    const file = new StateFile(
      join(dir, "s.json"),
      () => {
        snapshots++;
        return store.serialize();
      },
      20,
    );
    for (let i = 0; i < 50; i++) file.schedule();
    await new Promise((r) => setTimeout(r, 80));
    expect(snapshots).toBe(1);
    await file.flush();
    expect(snapshots).toBe(2);
  });
});
