import { statSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
const instance = () => t.control.instance.get();

beforeAll(async () => {
  t = await startTestEmulator({ timing: { warmAfterMs: 1000, coldAfterMs: 5000 } });
  await t.control.time.speed(0);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

describe("local task API over the unix socket", () => {
  test("the socket file has mode 0600", () => {
    const st = statSync(t.emu.taskSocket);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
  });

  test("answers plain HTTP with Host: platform (node:http over socketPath)", async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(
        { socketPath: t.emu.taskSocket, path: "/v1/tasks", headers: { host: "platform" } },
        (res) => {
          let data = "";
          res.on("data", (c) => (data += c));
          res.on("end", () => resolve(data));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(JSON.parse(body)).toEqual({ tasks: [] });
  });

  test("create is 201 with started_at and expires_at; a taken name is 409", async () => {
    const res = await t.task("POST", "/v1/tasks", { name: "job", expire: 60 });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("job");
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.started_at)).toBe(60_000);
    const again = await t.task("POST", "/v1/tasks", { name: "job", expire: 60 });
    expect(again.status).toBe(409);
    expect(again.body.error).toContain('task "job" already exists');
  });

  test("get and list show the task; an unknown one is 404", async () => {
    await t.task("POST", "/v1/tasks", { name: "job", expire: "30m" });
    expect((await t.task("GET", "/v1/tasks/job")).body.name).toBe("job");
    expect((await t.task("GET", "/v1/tasks")).body.tasks.map((x: { name: string }) => x.name)).toEqual([
      "job",
    ]);
    const missing = await t.task("GET", "/v1/tasks/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('task "nope" not found');
  });

  test("PUT /v1/tasks/:name upserts: creates, then moves expires_at forward keeping started_at", async () => {
    const created = await t.task("PUT", "/v1/tasks/hold", { expire: "1m" });
    expect(created.status).toBe(200);
    await t.advance(30_000);
    const refreshed = await t.task("PUT", "/v1/tasks/hold", { expire: "1m" });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.started_at).toBe(created.body.started_at);
    expect(Date.parse(refreshed.body.expires_at) - Date.parse(created.body.expires_at)).toBe(30_000);
  });

  test("PUT /v1/tasks with {name, expire} is the same upsert", async () => {
    expect((await t.task("PUT", "/v1/tasks", { name: "hold", expire: 10 })).status).toBe(200);
    expect((await t.task("PUT", "/v1/tasks", { name: "hold", expire: "1h" })).status).toBe(200);
    const task = (await t.task("GET", "/v1/tasks/hold")).body;
    expect(Date.parse(task.expires_at) - Date.parse(task.started_at)).toBe(3_600_000);
  });

  test("delete is 204, then 404", async () => {
    await t.task("POST", "/v1/tasks", { name: "job", expire: 60 });
    const res = await t.task("DELETE", "/v1/tasks/job");
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await t.task("DELETE", "/v1/tasks/job")).status).toBe(404);
  });

  test.each([3601, "61m", "2h", "1h1s"])("expire %s is more than 1 hour and is rejected", async (expire) => {
    const res = await t.task("POST", "/v1/tasks", { name: "long", expire });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/exceeds the maximum task lifetime of 1 hour/);
  });

  test.each(["soon", "10x", "1.5h", ""])("expire %j cannot be parsed and is rejected", async (expire) => {
    const res = await t.task("PUT", "/v1/tasks/x", { expire });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/expire/);
  });

  test("a missing name or expire is rejected naming the field", async () => {
    const res = await t.task("POST", "/v1/tasks", { expire: 10 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^name:/);
    expect((await t.task("POST", "/v1/tasks", { name: "x" })).body.error).toMatch(/^expire:/);
  });

  test("a task expires when its expires_at passes (virtual time)", async () => {
    await t.task("POST", "/v1/tasks", { name: "job", expire: 30 });
    await t.advance(29_999);
    expect((await t.task("GET", "/v1/tasks/job")).status).toBe(200);
    await t.advance(1);
    expect((await t.task("GET", "/v1/tasks/job")).status).toBe(404);
    expect((await t.task("POST", "/v1/tasks", { name: "job", expire: 30 })).status).toBe(201);
  });
});

describe("pause stages", () => {
  test("with no live task the instance goes running -> warm -> cold", async () => {
    expect(await instance()).toMatchObject({ stage: "running", liveTasks: 0 });
    await t.advance(1000);
    expect((await instance()).stage).toBe("warm");
    await t.advance(4999);
    expect((await instance()).stage).toBe("warm");
    await t.advance(1);
    expect((await instance()).stage).toBe("cold");
  });

  test("a held task keeps the instance running; releasing it lets it pause", async () => {
    await t.task("POST", "/v1/tasks", { name: "hold", expire: "1h" });
    await t.advance(10 * 60_000);
    expect(await instance()).toMatchObject({ stage: "running", liveTasks: 1 });
    await t.task("DELETE", "/v1/tasks/hold");
    expect((await instance()).stage).toBe("running");
    await t.advance(1000);
    expect((await instance()).stage).toBe("warm");
  });

  test("a heartbeat (refresh before expiry) holds the instance past one task lifetime", async () => {
    for (let i = 0; i < 5; i++) {
      await t.task("PUT", "/v1/tasks/beat", { expire: 10 });
      await t.advance(5_000);
    }
    expect(await instance()).toMatchObject({ stage: "running", liveTasks: 1 });
  });

  test("an expired task (a crash without cleanup) lets the instance pause, idle from its expiry", async () => {
    await t.task("POST", "/v1/tasks", { name: "crash", expire: 10 });
    await t.advance(10_000 + 999);
    expect(await instance()).toMatchObject({ stage: "running", liveTasks: 0 });
    await t.advance(1);
    expect((await instance()).stage).toBe("warm");
  });

  test("an inbound request wakes a paused instance", async () => {
    await t.advance(20_000);
    expect((await instance()).stage).toBe("cold");
    expect((await t.control.instance.wake()).stage).toBe("running");
  });
});
