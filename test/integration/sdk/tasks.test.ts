import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ApiError, InvalidArgumentError, isNotFound, TaskClient } from "../../../sdk/index";
import { SDK_TIMING, type TestEmulator, useTestEmulator } from "../../support/emulator";

let h: TestEmulator;
let tasks: TaskClient;

useTestEmulator({
  emulator: { timing: SDK_TIMING },
  started: (started) => {
    h = started;
    tasks = new TaskClient({ socketPath: h.emu.taskSocket });
  },
});
// Runs before the harness closes (after-hooks run in reverse order of declaration).
afterAll(() => tasks.close());

/** Runs fixtures/hold-child.ts, which holds task `name` and ends as `mode` says. */
function spawnHolder(name: string, mode: string) {
  return spawn(
    process.execPath,
    [
      "-r",
      "ts-node/register/transpile-only",
      join(__dirname, "fixtures/hold-child.ts"),
      h.emu.taskSocket,
      name,
      mode,
    ],
    { stdio: ["ignore", "pipe", "inherit"], cwd: join(__dirname, "../../..") },
  );
}

describe("task API over the real unix socket", () => {
  it("create, get, list, upsert both ways, delete", async () => {
    const created = await tasks.create("job-a", 30);
    expect(created).toMatchObject({ name: "job-a" });
    expect((await tasks.get("job-a")).name).toBe("job-a");
    expect((await tasks.list()).map((t) => t.name)).toContain("job-a");
    const refreshed = await tasks.upsert("job-a", "10m");
    expect(Date.parse(refreshed.expires_at)).toBeGreaterThan(Date.parse(created.expires_at));
    await tasks.upsertByBody("job-b", "1h");
    expect((await tasks.get("job-b")).name).toBe("job-b");
    await tasks.delete("job-a");
    await tasks.delete("job-b");
    expect(isNotFound(await tasks.get("job-a").catch((e) => e))).toBe(true);
  });

  it("creating a taken name is a 409; deleting a missing task is a 404", async () => {
    await tasks.create("job-c", 30);
    await expect(tasks.create("job-c", 30)).rejects.toMatchObject({ status: 409 });
    await tasks.delete("job-c");
    const err = await tasks.delete("job-c").catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(404);
  });

  it.each([
    ["more than an hour", 3601],
    ["more than an hour as a string", "61m"],
    ["zero", 0],
    ["a fraction", 1.5],
    ["nonsense", "soon"],
  ])("expire %s is rejected before sending", async (_rule, expire) => {
    await expect((async () => tasks.create("job-bad", expire as never))()).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await expect((async () => tasks.upsert("job-bad", expire as never))()).rejects.toThrow(/^expire must/);
  });

  it("a hold survives several expiries, keeps the instance running, and is deleted on release", async () => {
    const errors: unknown[] = [];
    const hold = await tasks.hold("hold-short", {
      ttlSeconds: 1,
      refreshEveryMs: 250,
      onError: (e) => errors.push(e),
    });
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 900));
      expect((await tasks.get("hold-short")).name).toBe("hold-short");
    }
    const instance = await h.control.instance.get();
    expect(instance.stage).toBe("running");
    await hold.release();
    expect(hold.released).toBe(true);
    expect(isNotFound(await tasks.get("hold-short").catch((e) => e))).toBe(true);
    expect(errors).toEqual([]);
    await hold.release(); // idempotent
  });

  it("refresh failures are reported and refreshing goes on", async () => {
    const errors: unknown[] = [];
    const other = new TaskClient({ socketPath: `${h.emu.taskSocket}.missing` });
    await expect(other.hold("x", { ttlSeconds: 1 })).rejects.toMatchObject({ code: "TRANSPORT_ERROR" });
    await other.close();
    const hold = await tasks.hold("hold-err", {
      ttlSeconds: 2,
      refreshEveryMs: 200,
      onError: (e) => errors.push(e),
    });
    // Closing the hold's client makes every refresh fail.
    await tasks.close();
    tasks = new TaskClient({ socketPath: h.emu.taskSocket });
    await new Promise((r) => setTimeout(r, 700));
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors[0]).toMatchObject({ code: "TRANSPORT_ERROR" });
    await hold.release().catch(() => {});
    await tasks.delete("hold-err").catch(() => {});
  });

  it.each([
    ["SIGTERM", "signal", "SIGTERM"],
    ["SIGINT", "signal", "SIGINT"],
    ["process.exit()", "exit", undefined],
    ["a natural end", "natural", undefined],
  ])(
    "the task is deleted when the holder ends by %s",
    async (_how, mode, signal) => {
      const name = `child-${mode}-${signal ?? "none"}`;
      const child = spawnHolder(name, mode);
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on("exit", (code, sig) => resolve({ code, signal: sig })),
      );
      await new Promise<void>((resolve) => child.stdout.on("data", () => resolve()));
      expect((await tasks.get(name)).name).toBe(name);
      if (signal) child.kill(signal as NodeJS.Signals);
      const result = await exited;
      // The signal's default behaviour comes back after cleanup: the child dies by that signal.
      if (signal) expect(result.signal).toBe(signal);
      expect(isNotFound(await tasks.get(name).catch((e) => e))).toBe(true);
    },
    20_000,
  );

  it("a crash lets the task live on until it expires by itself", async () => {
    const name = "child-crash";
    const child = spawnHolder(name, "crash");
    await new Promise((resolve) => child.on("exit", resolve));
    expect((await tasks.get(name)).name).toBe(name);
    await h.control.time.advance(31_000);
    expect(isNotFound(await tasks.get(name).catch((e) => e))).toBe(true);
  }, 20_000);
});
