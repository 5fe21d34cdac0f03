import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
const V = "/v1/apps/demo-app/volumes";
const addFault = async (spec: Record<string, unknown>) => {
  const res = await t.api("POST", "/__emulator/faults", spec);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
});

describe("fault injection", () => {
  test("a 429 fault answers once with Retry-After, then the route works again", async () => {
    const id = await addFault({ path: V, kind: "status", status: 429, retryAfterSeconds: 3 });
    expect(id).toMatch(/^fault_/);
    const first = await t.api("GET", V);
    expect(first.status).toBe(429);
    expect(first.headers["retry-after"]).toBe("3");
    expect(first.body.error).toContain("429");
    expect((await t.api("GET", V)).status).toBe(200);
  });

  test("a 503 fault honours method, glob path and times", async () => {
    await addFault({ method: "POST", path: "/v1/apps/*/volumes", kind: "status", status: 503, times: 2 });
    expect((await t.api("GET", V)).status).toBe(200);
    const a = await t.api("POST", V, { name: "a" });
    expect(a.status).toBe(503);
    expect(a.headers["retry-after"]).toBe("1");
    expect((await t.api("POST", V, { name: "b" })).status).toBe(503);
    expect((await t.api("POST", V, { name: "c" })).status).toBe(200);
    expect(await t.control.faults.list()).toEqual([]);
  });

  test("the glob matches below its path: /v1/apps/*/volumes covers a volume's GET", async () => {
    const vol = (await t.api("POST", V, { name: "a" })).body;
    await addFault({ path: "/v1/apps/*/volumes", kind: "status", status: 502 });
    expect((await t.api("GET", `${V}/${vol.id}`)).status).toBe(502);
    expect((await t.api("GET", "/v1/apps/demo-app/certificates")).status).toBe(200);
  });

  test("times 0 lasts until the faults are cleared", async () => {
    await addFault({ path: V, kind: "status", status: 504, times: 0 });
    for (let i = 0; i < 3; i++) expect((await t.api("GET", V)).status).toBe(504);
    expect((await t.control.faults.list())[0]).toMatchObject({
      hits: 3,
      remaining: null,
    });
    await t.control.faults.clear();
    expect((await t.api("GET", V)).status).toBe(200);
  });

  test("latency delays the response by at least latencyMs", async () => {
    await addFault({ path: V, kind: "latency", latencyMs: 150 });
    const start = performance.now();
    expect((await t.api("GET", V)).status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(140);
  });

  test("drop-before closes the connection before the handler: nothing is created", async () => {
    await addFault({ method: "POST", path: V, kind: "drop-before" });
    await expect(t.api("POST", V, { name: "dropped" })).rejects.toThrow();
    expect((await t.control.state()).volumes).toEqual([]);
    const log = await t.control.requests.list();
    expect(log.at(-1)).toMatchObject({ method: "POST", path: V, status: 0, dropped: "before" });
  });

  test("drop-after runs the handler, then closes without a response: the volume exists", async () => {
    await addFault({ method: "POST", path: V, kind: "drop-after" });
    await expect(t.api("POST", V, { name: "ambiguous" })).rejects.toThrow();
    const vols = (await t.api("GET", V)).body;
    expect(vols.map((v: { name: string }) => v.name)).toEqual(["ambiguous"]);
    const log = await t.control.requests.list();
    expect(log.find((r: { dropped?: string }) => r.dropped === "after")).toMatchObject({
      method: "POST",
      status: 200,
    });
  });

  test("latency-after runs the handler at once and holds the answer: the volume exists before the client hears", async () => {
    await addFault({ method: "POST", path: V, kind: "latency-after", latencyMs: 400 });
    const startedAt = Date.now();
    const answer = t.api("POST", V, { name: "slow_way_back" });
    await new Promise((r) => setTimeout(r, 150));
    const meanwhile = (await t.control.state()).volumes.map((v) => v.name);
    const res = await answer;
    expect(meanwhile).toEqual(["slow_way_back"]);
    expect(res.status).toBe(200);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(400);
  });

  test("status-after runs the handler and answers the injected status instead: the rotation happened", async () => {
    const route = "/v1/postgres/demo-pg/users/app_user/rotate_password";
    await addFault({ method: "POST", path: route, kind: "status-after", status: 500 });
    const refused = await t.api("POST", route, { kill_sessions: true });
    expect(refused.status).toBe(500);
    expect(refused.body.error).toMatch(/HTTP 500 after the request was carried out/);
    const user = (await t.control.state()).postgres
      .find((c) => c.name === "demo-pg")
      ?.users.find((u) => u.name === "app_user");
    expect(user).toMatchObject({ rotations: 1, sessions_killed: 1 });
    expect((await t.requests()).map((r) => [r.method, r.path, r.status])).toEqual([["POST", route, 500]]);
    // The next call is answered normally.
    expect((await t.api("POST", route, {})).status).toBe(200);
  });

  test("status 500 is only accepted for status-after", async () => {
    const res = await t.api("POST", "/__emulator/faults", { kind: "status", status: 500 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/status 500 is only allowed for a status-after fault/);
  });

  test("faults never apply to /__emulator itself", async () => {
    await addFault({ kind: "status", status: 503, times: 0 });
    expect((await t.api("GET", V)).status).toBe(503);
    expect((await t.api("GET", "/__emulator/health")).status).toBe(200);
    await t.control.faults.clear();
  });

  test("an invalid fault is rejected naming the field", async () => {
    const res = await t.api("POST", "/__emulator/faults", { kind: "status", status: 418 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("status");
    const latency = await t.api("POST", "/__emulator/faults", { kind: "latency" });
    expect(latency.body.error).toContain("latencyMs");
  });

  test("probabilistic faults are seeded: the same faultSeed replays the same sequence", async () => {
    const run = async (emu: TestEmulator) => {
      await emu.control.faults.add({
        path: V,
        kind: "status",
        status: 503,
        times: 0,
        probability: 0.5,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await emu.api("GET", V)).status);
      return statuses;
    };
    const a = await startTestEmulator({ faultSeed: 42 });
    const b = await startTestEmulator({ faultSeed: 42 });
    try {
      const sa = await run(a);
      expect(sa).toEqual(await run(b));
      expect(new Set(sa)).toEqual(new Set([200, 503]));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/**
 * Two faults on one route, added in this order; what the first and the second create hear. The
 * README's rule: every latency that fires (wherever it stands), then the first terminal fault;
 * a fault not applied stays queued. "held" is at least one latency, "held twice" both.
 */
const COMPOSED: [first: string, second: string, firstCreate: string, secondCreate: string][] = [
  ["latency", "latency", "200 held twice", "200"],
  ["latency", "latency-after", "200 held twice", "200"],
  ["latency", "status", "503 held", "200"],
  ["latency", "status-after", "500 held", "200"],
  ["latency", "drop-before", "dropped-before held", "200"],
  ["latency", "drop-after", "dropped-after held", "200"],
  ["latency-after", "latency", "200 held twice", "200"],
  ["latency-after", "latency-after", "200 held twice", "200"],
  ["latency-after", "status", "503 held", "200"],
  ["latency-after", "status-after", "500 held", "200"],
  ["latency-after", "drop-before", "dropped-before", "200 held"],
  ["latency-after", "drop-after", "dropped-after held", "200"],
  ["status", "latency", "503 held", "200"],
  ["status", "latency-after", "503 held", "200"],
  ["status", "status", "503", "503"],
  ["status", "status-after", "503", "500"],
  ["status", "drop-before", "503", "dropped-before"],
  ["status", "drop-after", "503", "dropped-after"],
  ["status-after", "latency", "500 held", "200"],
  ["status-after", "latency-after", "500 held", "200"],
  ["status-after", "status", "500", "503"],
  ["status-after", "status-after", "500", "500"],
  ["status-after", "drop-before", "500", "dropped-before"],
  ["status-after", "drop-after", "500", "dropped-after"],
  ["drop-before", "latency", "dropped-before held", "200"],
  ["drop-before", "latency-after", "dropped-before", "200 held"],
  ["drop-before", "status", "dropped-before", "503"],
  ["drop-before", "status-after", "dropped-before", "500"],
  ["drop-before", "drop-before", "dropped-before", "dropped-before"],
  ["drop-before", "drop-after", "dropped-before", "dropped-after"],
  ["drop-after", "latency", "dropped-after held", "200"],
  ["drop-after", "latency-after", "dropped-after held", "200"],
  ["drop-after", "status", "dropped-after", "503"],
  ["drop-after", "status-after", "dropped-after", "500"],
  ["drop-after", "drop-before", "dropped-after", "dropped-before"],
  ["drop-after", "drop-after", "dropped-after", "dropped-after"],
];

const LATENCY_MS = 60;
const FAULT_OF: Record<string, Record<string, unknown>> = {
  latency: { kind: "latency", latencyMs: LATENCY_MS },
  "latency-after": { kind: "latency-after", latencyMs: LATENCY_MS },
  status: { kind: "status", status: 503 },
  "status-after": { kind: "status-after", status: 500 },
  "drop-before": { kind: "drop-before" },
  "drop-after": { kind: "drop-after" },
};
/** What the platform did and what the request log records, by what the client heard. */
const EFFECT_OF: Record<string, { created: boolean; log: Record<string, unknown> }> = {
  "200": { created: true, log: { status: 200 } },
  "503": { created: false, log: { status: 503 } },
  "500": { created: true, log: { status: 500 } },
  "dropped-before": { created: false, log: { status: 0, dropped: "before" } },
  "dropped-after": { created: true, log: { status: 200, dropped: "after" } },
};

describe("two faults on one route compose as the README says", () => {
  test("every pair of kinds is in the table", () => {
    const kinds = Object.keys(FAULT_OF);
    expect(COMPOSED.map(([a, b]) => `${a}+${b}`).sort()).toEqual(
      kinds.flatMap((a) => kinds.map((b) => `${a}+${b}`)).sort(),
    );
  });

  test.each(COMPOSED)("%s then %s: the first create hears %s, the second %s", async (a, b, ...heard) => {
    for (const kind of [a, b]) await addFault({ method: "POST", path: V, ...FAULT_OF[kind] });
    for (const [i, expected] of heard.entries()) {
      const [answer = "", held, twice] = expected.split(" ");
      const name = `create_${i}`;
      const startedAt = performance.now();
      const status = await t.api("POST", V, { name }).then(
        (res) => String(res.status),
        () => "dropped",
      );
      const tookMs = performance.now() - startedAt;
      const effect = EFFECT_OF[answer];
      if (!effect) throw new Error(`no effect for ${answer} in the table`);
      expect(status, `create ${i + 1}`).toBe(answer.startsWith("dropped") ? "dropped" : answer);
      if (held)
        expect(tookMs, `create ${i + 1} held`).toBeGreaterThanOrEqual((twice ? 2 : 1) * LATENCY_MS - 5);
      const names = (await t.control.state()).volumes.map((v) => v.name);
      expect(names.includes(name), `create ${i + 1} made the volume`).toBe(effect.created);
      await expect
        .poll(async () => (await t.control.requests.list()).filter((r) => r.method === "POST"), {
          timeout: 2000,
        })
        .toHaveLength(i + 1);
      const logged = (await t.control.requests.list()).filter((r) => r.method === "POST")[i];
      expect(logged, `create ${i + 1} in the request log`).toMatchObject({ path: V, ...effect.log });
      if (!answer.startsWith("dropped")) expect(logged?.dropped).toBeUndefined();
    }
    expect(await t.control.faults.list(), "both faults used").toEqual([]);
  });
});
