import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { platformClient, RECORDED_ANYWAY } from "../../../provider/runtime/credentials";
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

  it("in up (check ran: current stack config) says to set a valid platform:apiToken, once, and that the state now holds the refused one", async () => {
    await configureRuntime(h.emu.url, OLD);
    const inputs = withProvider({ app: "demo-app", name: "up-bad-token", region: "ord" });
    expect((await runtime.volume.check({}, inputs)).failures).toEqual([]);
    const err = await failure(runtime.volume.create(inputs));
    expect(occurrences(err.message, "pulumi config set --secret platform:apiToken <token>")).toBe(1);
    // Pulumi records the config an `up` ran with before any resource changes, failed or not.
    expect(err.message).toContain(`<token>\`. ${RECORDED_ANYWAY}`);
    expect(occurrences(err.message, "--run-program")).toBe(1);
    expect(err.message).not.toContain(OLD);
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

describe("PLATFORM_API_TOKEN replaces a refused recorded token only with PLATFORM_API_TOKEN_FALLBACK=1", () => {
  const warnings: string[] = [];
  beforeEach(() => {
    warnings.length = 0;
    // Outside the engine, pulumi.log.warn writes to console.warn.
    vi.spyOn(console, "warn").mockImplementation((text: unknown) => void warnings.push(String(text)));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.PLATFORM_API_TOKEN_FALLBACK;
  });

  const unauthorized = async () => (await h.requests()).filter((r) => r.status === 401).length;

  it("refresh without the opt-in: the recorded token's 401 stands, PLATFORM_API_TOKEN is not sent, the advice names the opt-in", async () => {
    const { id, outs } = await createdVolume("refresh-no-opt-in");
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = h.emu.token;
    const before = await unauthorized();
    const err = await failure(runtime.volume.read(id, outs));
    expect(await unauthorized()).toBe(before + 1);
    expect(err.message).toContain(
      "set PLATFORM_API_TOKEN to the new token and PLATFORM_API_TOKEN_FALLBACK=1 for this command",
    );
    expect(err.message).not.toContain(h.emu.token);
    expect(warnings).toEqual([]);
  });

  it("refresh with the opt-in reads the volume with PLATFORM_API_TOKEN, warns once naming the source, and keeps it", async () => {
    const { id, outs } = await createdVolume("refresh-env-token");
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = h.emu.token;
    process.env.PLATFORM_API_TOKEN_FALLBACK = "1";
    const read = await runtime.volume.read(id, outs);
    expect(read.id).toBe(id);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      "The platform refused the API token recorded in the stack's state (platform:apiToken of the last `pulumi up`); this command uses PLATFORM_API_TOKEN from the environment instead",
    );
    expect(warnings[0]).not.toContain(h.emu.token);
    // The process keeps the working token: the next call is not refused first, nor warned about.
    const before = await unauthorized();
    await runtime.volume.delete(id, outs);
    expect(await unauthorized()).toBe(before);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(await h.state())).not.toContain(id);
  });

  it("a program run (check ran: current stack config) never switches, even with the opt-in", async () => {
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = h.emu.token;
    process.env.PLATFORM_API_TOKEN_FALLBACK = "1";
    const inputs = withProvider({ app: "demo-app", name: "up-no-switch", region: "ord" });
    expect((await runtime.volume.check({}, inputs)).failures).toEqual([]);
    const err = await failure(runtime.volume.create(inputs));
    expect(occurrences(err.message, "pulumi config set --secret platform:apiToken <token>")).toBe(1);
    expect(err.message).toContain("PLATFORM_API_TOKEN is used only when the stack config sets no token");
    expect(warnings).toEqual([]);
    expect(JSON.stringify(await h.state())).not.toContain("up-no-switch");
  });

  it("a paged certificate listing is repeated with PLATFORM_API_TOKEN when refused before its first page", async () => {
    await h.api("POST", "/v1/apps/demo-app/certificates/acme", { hostname: "listed.example.com" });
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = h.emu.token;
    process.env.PLATFORM_API_TOKEN_FALLBACK = "1";
    const seen: string[] = [];
    for await (const entry of platformClient().certificates.listAll("demo-app")) seen.push(entry.hostname);
    expect(seen).toContain("listed.example.com");
    await h.api("DELETE", "/v1/apps/demo-app/certificates/listed.example.com");
  });

  it("when PLATFORM_API_TOKEN is refused too, says so and still names --run-program", async () => {
    const { id, outs } = await createdVolume("refresh-both-refused");
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = "another-wrong-token";
    process.env.PLATFORM_API_TOKEN_FALLBACK = "1";
    const err = await failure(runtime.volume.read(id, outs));
    expect(err.message).toContain("(PLATFORM_API_TOKEN was refused too)");
    expect(occurrences(err.message, "`pulumi refresh --run-program`")).toBe(1);
    expect(err.message).not.toContain("set PLATFORM_API_TOKEN to the new token");
    expect(err.message).not.toContain("another-wrong-token");
  });

  it("is not tried when it holds the same token as the config", async () => {
    await configureRuntime(h.emu.url, OLD);
    process.env.PLATFORM_API_TOKEN = OLD;
    process.env.PLATFORM_API_TOKEN_FALLBACK = "1";
    const before = await unauthorized();
    await failure(runtime.volume.read("vol_x", { app: "demo-app" }));
    expect(await unauthorized()).toBe(before + 1);
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
