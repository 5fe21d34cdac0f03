/** `rateLimitPerSecond` / `--rate-limit`: a rate-limited platform, 429 with Retry-After beyond the rate. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { PlatformClient } from "../../../sdk";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

let t: TestEmulator;
const V = "/v1/apps/demo-app/volumes";

beforeAll(async () => {
  t = await startTestEmulator({ rateLimitPerSecond: 2 });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.control.reset();
  // Frozen virtual time: buckets refill only through advance().
  await t.control.time.speed(0);
  await t.control.requests.clear();
});

describe("rate limit", () => {
  test("beyond N requests per second: 429 {error} with Retry-After in whole seconds, and no effect", async () => {
    expect((await t.api("GET", V)).status).toBe(200);
    expect((await t.api("GET", V)).status).toBe(200);
    const limited = await t.api("POST", V, { name: "data" });
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("1");
    expect(limited.body).toEqual({ error: expect.stringContaining("rate limited") });
    expect((await t.control.state()).volumes).toEqual([]);
    const log = await t.control.requests.list();
    expect(log.map((r: { status: number }) => r.status)).toEqual([200, 200, 429]);
  });

  test("the bucket refills with time: half a second later one request passes again", async () => {
    await t.api("GET", V);
    await t.api("GET", V);
    expect((await t.api("GET", V)).status).toBe(429);
    await t.advance(500);
    expect((await t.api("GET", V)).status).toBe(200);
    expect((await t.api("GET", V)).status).toBe(429);
  });

  test("the control API is never limited", async () => {
    await t.api("GET", V);
    await t.api("GET", V);
    for (let i = 0; i < 10; i++) expect((await t.api("GET", "/__emulator/health")).status).toBe(200);
  });

  test("the control API sets and clears the limit; reset restores the start-up one", async () => {
    expect((await t.api("GET", "/__emulator/rate-limit")).body).toEqual({ perSecond: 2 });
    expect((await t.api("PUT", "/__emulator/rate-limit", { perSecond: null })).body).toEqual({
      perSecond: null,
    });
    for (let i = 0; i < 10; i++) expect((await t.api("GET", V)).status).toBe(200);
    await t.control.rateLimit.set(1);
    expect((await t.api("GET", V)).status).toBe(200);
    expect((await t.api("GET", V)).status).toBe(429);
    expect((await t.api("PUT", "/__emulator/rate-limit", { perSecond: 0 })).status).toBe(400);
    await t.control.reset();
    expect((await t.api("GET", "/__emulator/rate-limit")).body).toEqual({ perSecond: 2 });
  });

  test("the sdk's retries hold up: 10 concurrent calls at 4/s all succeed after 429s", async () => {
    await t.control.time.speed(1);
    await t.control.rateLimit.set(4);
    const client = new PlatformClient({ baseUrl: t.emu.url, token: t.emu.token });
    try {
      const lists = await Promise.all(Array.from({ length: 10 }, () => client.volumes.list("demo-app")));
      expect(lists).toHaveLength(10);
    } finally {
      await client.close();
    }
    const statuses = (await t.control.requests.list()).map((r: { status: number }) => r.status);
    expect(statuses.filter((s: number) => s === 200)).toHaveLength(10);
    expect(statuses).toContain(429);
  });
});
