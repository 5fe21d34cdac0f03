import { createRequire } from "node:module";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { finishBeforeStop } from "../../../provider/runtime/before-stop";
import { until } from "../../support/kill";
import { configureRuntime, type ProviderHarness, startHarness, withProvider } from "./helpers";

// The rerun after a killed `pulumi up` (test/e2e/rerun-after-kill.test.ts (b)) as the provider
// process sees it: the killed run's creates landed, then a new provider process (a fresh runtime
// session) runs the rerun's creates together, as the engine does (8 at a time).

const APP = "demo-app";
let h: ProviderHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** What the provider process writes with `pulumi.log.warn` (no engine there: its stderr). */
function capturedWarnings(): string[] {
  const warnings: string[] = [];
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
  });
  return warnings;
}

async function landed(name: string): Promise<string> {
  const res = await h.api<{ id: string }>("POST", `/v1/apps/${APP}/volumes`, {
    name,
    region: "iad",
    size_gb: 1,
  });
  return res.body.id;
}

describe("the rerun's warning about a killed run's leftovers", () => {
  it("every create of a name the killed run left names that volume, with creates run together", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `rerun_${i}`);
    const orphans = new Map<string, string>();
    for (const name of names.slice(0, 6)) orphans.set(name, await landed(name));
    await configureRuntime(h.emu.url, h.emu.token);
    await h.control.requests.clear();
    const warnings = capturedWarnings();

    const created = await Promise.all(
      names.map((name) => runtime.volume.create(withProvider({ app: APP, name, region: "iad", sizeGb: 1 }))),
    );

    for (const [name, orphan] of orphans) {
      const own = created[names.indexOf(name)]?.id;
      const named = warnings.filter((w) => w.includes(`volume "${name}" (${own})`));
      expect(named, `the warning for ${name}`).toHaveLength(1);
      expect(named[0]).toContain(orphan);
      expect(named[0]).toContain("npx pulumi-platform recover --sweep");
    }
    expect(warnings).toHaveLength(orphans.size);
    const lists = (await h.requests()).filter(
      (r) => r.method === "GET" && r.path === `/v1/apps/${APP}/volumes`,
    );
    expect(lists, "one list for all the creates").toHaveLength(1);
  });

  it("volumes a killed run's still-running provider lands after the rerun's first list are named before the provider process stops", async () => {
    // A SIGKILL of the CLI alone (the OOM killer, a runner that kills one pid) leaves its provider
    // process running: creates it had queued land while the rerun runs, after the rerun listed
    // the app. Answers take 1 s here, so they land while the rerun's creates are in flight.
    const names = Array.from({ length: 8 }, (_, i) => `late_${i}`);
    await configureRuntime(h.emu.url, h.emu.token);
    await h.control.requests.clear();
    await h.control.faults.add({
      method: "POST",
      path: `/v1/apps/${APP}/volumes`,
      kind: "latency-after",
      latencyMs: 1_000,
      times: 0,
    });
    const warnings = capturedWarnings();

    const rerun = Promise.all(
      names.map((name) => runtime.volume.create(withProvider({ app: APP, name, region: "iad", sizeGb: 1 }))),
    );
    await until("the rerun's first list of the app", async () =>
      (await h.requests()).some((r) => r.method === "GET" && r.path === `/v1/apps/${APP}/volumes`),
    );
    const late = await Promise.all(
      names.slice(0, 5).map(async (name) => [name, await landed(name)] as const),
    );
    const created = await rerun;
    await h.control.faults.clear();
    await finishBeforeStop(); // what the engine's stop of the provider process causes

    const ours = new Set(created.map((c) => c.id));
    for (const [name, orphan] of late) {
      const named = warnings.filter((w) => w.includes(orphan));
      expect(named, `a warning naming ${name}'s leftover ${orphan}`).toHaveLength(1);
      expect(named[0]).toContain("npx pulumi-platform recover --sweep");
    }
    for (const id of ours)
      expect(warnings.join("\n"), "the rerun's own volumes are never suspects").not.toContain(id);
  });

  it("loads Pulumi's log module to warn, never the package's index (the whole Pulumi runtime, which the provider plugin's process does not have)", async () => {
    const loaded = () => Object.keys(createRequire(__filename).cache);
    const pulumiIndex = createRequire(__filename).resolve("@pulumi/pulumi");
    expect(loaded(), "nothing before the warning loaded it").not.toContain(pulumiIndex);
    await landed("leftover_once");
    await configureRuntime(h.emu.url, h.emu.token);
    const warnings = capturedWarnings();

    await runtime.volume.create(withProvider({ app: APP, name: "leftover_once", region: "iad", sizeGb: 1 }));

    expect(warnings).toHaveLength(1);
    expect(loaded()).toContain(createRequire(__filename).resolve("@pulumi/pulumi/log"));
    expect(loaded()).not.toContain(pulumiIndex);
  });
});

describe("a create whose answer was lost, beside a second writer (issue 46)", () => {
  it("the one volume its look took over is named in a warning, with why", async () => {
    await configureRuntime(h.emu.url, h.emu.token);
    // This runtime's first create in the app lists it: the second writer's volume comes after.
    await runtime.volume.create(withProvider({ app: APP, name: "tw_first", region: "iad", sizeGb: 1 }));
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "status-after",
      status: 500,
    });
    const warnings = capturedWarnings();

    const made = await runtime.volume.create(
      withProvider({ app: APP, name: "tw_one", region: "iad", sizeGb: 1 }),
    );

    const named = warnings.filter((w) => w.includes("taken over after a lost answer"));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain(`volume "tw_one" in app ${APP} is ${made.id}`);
    expect(named[0]).toContain("answered 500");
  });

  it("two candidates: the create fails naming both and the way out, and returns nothing to record", async () => {
    await configureRuntime(h.emu.url, h.emu.token);
    await runtime.volume.create(withProvider({ app: APP, name: "tw_start", region: "iad", sizeGb: 1 }));
    const theirs = await landed("tw_two");
    await h.control.faults.add({
      method: "POST",
      path: "/v1/apps/*/volumes",
      kind: "status-after",
      status: 500,
    });

    const err = await runtime.volume
      .create(withProvider({ app: APP, name: "tw_two", region: "iad", sizeGb: 1 }))
      .catch((e: Error) => e);

    const both = (await h.api<{ id: string; name: string }[]>("GET", `/v1/apps/${APP}/volumes`)).body
      .filter((v) => v.name === "tw_two")
      .map((v) => v.id);
    expect(both).toHaveLength(2);
    expect(both).toContain(theirs);
    expect(err).toBeInstanceOf(Error);
    for (const id of both) expect((err as Error).message).toContain(id);
    expect((err as Error).message).toMatch(/^creating volume "tw_two" in app demo-app failed: /);
    expect((err as Error).message).toContain("npx pulumi-platform adopt");
  });
});
