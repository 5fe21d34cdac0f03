import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/runtime";
import { platformClient } from "../../../provider/runtime/credentials";
import { configureRuntime, type ProviderHarness, startHarness, withProvider } from "./helpers";

// What the engine does (observed through the CLI): `up` configures the provider with the current
// stack config and calls check/create/update; `refresh` and `destroy` configure it with the config
// recorded in the state and only call read/delete. A rotated token therefore reaches refresh and
// destroy as the OLD one.

let h: ProviderHarness;
const OLD = "old-token-value-0123";
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(async () => {
  delete process.env.PLATFORM_API_TOKEN;
  await configureRuntime(h.emu.url, h.emu.token);
});

async function createdVolume(name: string) {
  await configureRuntime(h.emu.url, h.emu.token);
  return runtime.volume.create(withProvider({ app: "demo-app", name, region: "ord", sizeGb: 1 }));
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (e: Error) => e,
  );
  expect(outcome, "the call should fail").toBeInstanceOf(Error);
  return outcome as Error;
}

describe("a refused token (401)", () => {
  it("in refresh (state config, no check ran) names --run-program and `pulumi up` once, never `pulumi config set`", async () => {
    const { id, outs } = await createdVolume("refresh-old-token");
    await configureRuntime(h.emu.url, OLD);
    const err = await failure(runtime.volume.read(id, outs));
    expect(err.message).toMatch(
      /^reading volume .* failed: GET \/v1\/apps\/demo-app\/volumes\/.* failed with 401/,
    );
    expect(occurrences(err.message, "`pulumi refresh --run-program`")).toBe(1);
    expect(occurrences(err.message, "`pulumi destroy --run-program`")).toBe(1);
    expect(err.message).toContain("`pulumi up` first");
    expect(err.message).toContain("set PLATFORM_API_TOKEN to the new token");
    expect(err.message).not.toContain("pulumi config set");
    expect(err.message).not.toContain(OLD);
  });

  it("in destroy (state config) gives the same single advice", async () => {
    const { id, outs } = await createdVolume("destroy-old-token");
    await configureRuntime(h.emu.url, OLD);
    const err = await failure(runtime.volume.delete(id, outs));
    expect(err.message).toMatch(/^deleting volume .* failed with 401/);
    expect(occurrences(err.message, "--run-program")).toBe(2);
    expect(err.message).not.toContain("pulumi config set");
  });

  it("in up (check ran: current stack config) says to set a valid platform:apiToken, once", async () => {
    await configureRuntime(h.emu.url, OLD);
    const inputs = withProvider({ app: "demo-app", name: "up-bad-token", region: "ord" });
    expect((await runtime.volume.check({}, inputs)).failures).toEqual([]);
    const err = await failure(runtime.volume.create(inputs));
    expect(occurrences(err.message, "pulumi config set --secret platform:apiToken <token>")).toBe(1);
    expect(err.message).not.toContain("--run-program");
  });

  it("in a rotation's create gives the provider's advice once, not the sdk's hint and the resource's too", async () => {
    await configureRuntime(h.emu.url, OLD);
    const err = await failure(
      runtime.postgresPasswordRotation.create(withProvider({ clusterId: "demo-pg", username: "app_user" })),
    );
    expect(err.message).toMatch(/^rotating the password of .* failed with 401/);
    expect(occurrences(err.message, "platform:apiToken")).toBe(1);
    expect(err.message).not.toContain("Check the API token");
  });

  it("from PLATFORM_API_TOKEN alone names that variable", async () => {
    await configureRuntime(h.emu.url, undefined);
    process.env.PLATFORM_API_TOKEN = "wrong-env-token";
    const err = await failure(runtime.volume.read("vol_x", { app: "demo-app" }));
    expect(err.message).toContain("The platform refused the token in PLATFORM_API_TOKEN");
    expect(err.message).not.toContain("wrong-env-token");
  });
});

describe("PLATFORM_API_TOKEN takes over when the configured token is refused", () => {
  it("refresh with the old token in the state and the new one in PLATFORM_API_TOKEN reads the volume", async () => {
    const { id, outs } = await createdVolume("refresh-env-token");
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = h.emu.token;
    const read = await runtime.volume.read(id, outs);
    expect(read.id).toBe(id);
    // The process keeps the working token: the next call is not refused first.
    const before = (await h.requests()).filter((r) => r.status === 401).length;
    await runtime.volume.delete(id, outs);
    expect((await h.requests()).filter((r) => r.status === 401).length).toBe(before);
    expect(JSON.stringify(await h.state())).not.toContain(id);
  });

  it("a paged certificate listing is repeated with PLATFORM_API_TOKEN when refused before its first page", async () => {
    await h.api("POST", "/v1/apps/demo-app/certificates/acme", { hostname: "listed.example.com" });
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = h.emu.token;
    const seen: string[] = [];
    for await (const entry of platformClient().certificates.listAll("demo-app")) seen.push(entry.hostname);
    expect(seen).toContain("listed.example.com");
    await h.api("DELETE", "/v1/apps/demo-app/certificates/listed.example.com");
  });

  it("when PLATFORM_API_TOKEN is refused too, says so and still names --run-program", async () => {
    const { id, outs } = await createdVolume("refresh-both-refused");
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = "another-wrong-token";
    const err = await failure(runtime.volume.read(id, outs));
    expect(err.message).toContain("(PLATFORM_API_TOKEN was refused too)");
    expect(occurrences(err.message, "`pulumi refresh --run-program`")).toBe(1);
    expect(err.message).not.toContain("set PLATFORM_API_TOKEN to the new token");
    expect(err.message).not.toContain("another-wrong-token");
  });

  it("is not tried when it holds the same token as the config", async () => {
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = OLD;
    const before = (await h.requests()).filter((r) => r.status === 401).length;
    await failure(runtime.volume.read("vol_x", { app: "demo-app" }));
    expect((await h.requests()).filter((r) => r.status === 401).length).toBe(before + 1);
  });
});

describe("credential failures of check", () => {
  it("name no property (the engine would print the value of one named apiToken)", async () => {
    await configureRuntime(undefined, undefined);
    const saved = process.env.PLATFORM_API_URL;
    delete process.env.PLATFORM_API_URL;
    try {
      const { failures } = await runtime.customCertificate.check(
        {},
        withProvider({ app: "a", hostname: "a.b.c" }),
      );
      const credentials = failures.filter((f) => /API (token|URL)/.test(f.reason));
      expect(credentials).toHaveLength(2);
      for (const f of credentials) expect(f.property).toBe("");
    } finally {
      if (saved !== undefined) process.env.PLATFORM_API_URL = saved;
    }
  });
});
