import { execFile, spawn } from "node:child_process";
import { X509Certificate } from "node:crypto";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { beforeEach, describe, expect, it } from "vitest";
import { days, makeCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, type StackContext, withStack } from "../support/engine";
import { killTree, until } from "../support/kill";
import {
  type Observed,
  observedPreview,
  observedRefresh,
  observedUp,
  PEM,
  stateValue as value,
} from "../support/observed";
import { OPS_CLI as cli } from "../support/ops-cli";
import { step } from "../support/step";
import { fakeTimeEnv, StackClock } from "../support/time-travel";

// A stack's lifetime through the real engine: docs/day-2.md's shapes (quickstart: volume, snapshot,
// restored volume; a volume; both certificate kinds on one hostname, a wildcard, a certificate
// that expires in real time during the test; a scheduled rotation and one without a schedule),
// then time moved forward in steps, with `pulumi refresh`, `pulumi preview` and `pulumi up` of the
// unchanged program at each, one volume grown by hand and one unrelated program change. At every
// step: exit 0, no delete, no replace but the rotations the schedule asks for, no resource
// recreated at the platform, and the warnings that age calls for (and no others). Run through
// both doors (issue 30): the dynamic classes and the provider plugin's (`pulumi-platform/plugin`),
// side by side, so that the real-time wait for the short-lived certificate is paid once.

const run = promisify(execFile);
const API = "api.life.example.com";
const SHORT = "short.life.example.com";
/** How long the short-lived certificate is valid in real time: it expires during the test. */
const SHORT_LIVED_MS = 120_000;

const AGES = [3, 10, 40, 100, 400] as const;

/** What each step must plan, and which warnings it must show (by resource). */
interface Expected {
  changes: string[];
  warnings: RegExp[];
}

const warn = {
  shortExpired: /^short: EXPIRED: the custom certificate of short\.life\.example\.com expired on /,
  apiExpiring: /^api: the custom certificate of api\.life\.example\.com expires on .* \(in \d+ days\)/,
  apiExpired: /^api: EXPIRED: the custom certificate of api\.life\.example\.com expired on /,
  logsGrown: /^logs: volume logs \(vol_\w+\) is 10 GB at the platform, more than sizeGb 3 in the program/,
};

function expectedAt(age: number): Expected {
  // rotationDays 30 from day 0: due at 40 (next 70), at 100 (next 130) and at 400.
  const rotation = age >= 40 ? ["replace scheduled"] : [];
  const unrelated = age === 100 ? ["update logs"] : [];
  const api = age >= 60 ? [warn.apiExpired] : age >= 30 ? [warn.apiExpiring] : [];
  const grown = age >= 10 ? [warn.logsGrown] : [];
  return { changes: [...unrelated, ...rotation].sort(), warnings: [warn.shortExpired, ...api, ...grown] };
}

/**
 * The warnings shown, matched one to one against the expected patterns (no more, no fewer), each
 * printed in the command's output (where the user reads it).
 */
function expectWarnings(run: Observed<unknown>, expected: RegExp[], label: string): void {
  const shown = [...new Set(run.warnings)];
  for (const pattern of expected) {
    expect(shown, `${label}: a warning matching ${pattern}`).toContainEqual(expect.stringMatching(pattern));
  }
  const unexpected = shown.filter((w) => !expected.some((p) => p.test(w)));
  expect(unexpected, `${label}: warnings nobody asked for`).toEqual([]);
  for (const warning of shown) {
    const [, name, text] = /^([^:]+): ([^\n]*)/.exec(warning) ?? [];
    expect(run.output, `${label}: printed under ${name}`).toContain(`(${name}):`);
    expect(run.output, `${label}: printed`).toContain(`warning: ${text}`);
  }
}

/** The program's classes: the dynamic ones (`pulumi-platform`) or the plugin's (`pulumi-platform/plugin`). */
const DOORS = ["dynamic", "plugin"] as const;

describe.concurrent.each(DOORS)(
  "a stack's lifetime through the %s door: the README's shapes over 400 days of refresh and up",
  (door) => {
    const e = useE2eEmulator();

    it("stays green, replaces and deletes nothing, keeps every id, and warns ahead", async () => {
      const [api, short] = await Promise.all([
        makeCert(API, [API], { to: Date.now() + days(60) }),
        makeCert(SHORT, [SHORT], { to: Date.now() + SHORT_LIVED_MS }),
      ]);
      const shortExpiry = new Date(new X509Certificate(short.cert).validTo).getTime();
      const config = {
        ...platformConfig(e.emu),
        door,
        dataRetention: "2",
        rotationDays: "30",
        apiChain: api.cert,
        apiKey: { value: api.key, secret: true },
        shortChain: short.cert,
        shortKey: { value: short.key, secret: true },
      };
      const table: string[] = [
        "| age (days) | refresh | preview / up plan | warnings |",
        "|---|---|---|---|",
      ];
      await withStack(
        { programDir: programPath("lifetime"), config, env: fakeTimeEnv() },
        async ({ stack }) => {
          const clock = new StackClock(e, stack);
          const first = await step("day 0: up", () => observedUp(stack));
          expect(first.warnings).toContainEqual(
            expect.stringMatching(
              /^short: the custom certificate of short\.life\.example\.com expires on .* \(in less than a day\)/,
            ),
          );
          const ids = ["dataId", "restoredId", "logsId", "snapshotId"].map(
            (k) => [k, value(first.result, k)] as const,
          );
          const rotations = [value(first.result, "scheduledRotatedAt")];
          let last = first.result;
          const manualRotatedAt = value(first.result, "manualRotatedAt");

          await step(
            "day 0: the short-lived certificate expires in real time; the stack stays green",
            async () => {
              await stack.preview({ expectNoChanges: true });
              await stack.refresh({ expectNoChanges: true });
              await sleep(Math.max(0, shortExpiry - Date.now() + 1000));
              const preview = await observedPreview(stack);
              expect(preview.changes).toEqual([]);
              expectWarnings(preview, [warn.shortExpired], "day 0 after expiry");
              table.push(`| 0 | — | none | short expired |`);
            },
          );

          for (const age of AGES) {
            await clock.to(age);
            const expected = expectedAt(age);
            await step(`day ${age}`, async () => {
              if (age === 10) {
                // An operator grows the volume by hand.
                await e.api("PUT", `/v1/apps/demo-app/volumes/${value(first.result, "logsId")}/extend`, {
                  size_gb: 10,
                });
              }
              const refresh = await observedRefresh(stack);
              const refreshed = refresh.result.summary.resourceChanges ?? {};
              expect(Object.keys(refreshed).filter((op) => op !== "same" && op !== "update")).toEqual([]);
              if (age === 100) await stack.setConfig("logsRetention", { value: "9" });

              const preview = await observedPreview(stack);
              expect(preview.changes.sort()).toEqual(expected.changes);
              // The dynamic classes warn from the program, where a resource planned for an update has
              // unknown outputs at preview: its warning shows at up. The plugin warns at diff, from
              // the recorded outputs, so at preview too.
              const stillKnown = expected.warnings.filter(
                (w) => door === "plugin" || !(age === 100 && w === warn.logsGrown),
              );
              expectWarnings(preview, stillKnown, `day ${age} preview`);

              const up = await observedUp(stack);
              expect(up.changes.sort()).toEqual(expected.changes);
              expectWarnings(up, expected.warnings, `day ${age} up`);
              expect(`${refresh.output}${preview.output}${up.output}`).not.toMatch(PEM);

              // Nothing recreated at the platform: the same ids, all still there.
              for (const [key, id] of ids) expect(value(up.result, key), key).toBe(id);
              const volumes = (await e.state()).volumes.map((v: { id: string }) => v.id);
              for (const [key, id] of ids) if (key !== "snapshotId") expect(volumes, key).toContain(id);
              expect(value(up.result, "manualRotatedAt")).toBe(manualRotatedAt);
              const rotatedAt = value(up.result, "scheduledRotatedAt");
              if (expected.changes.includes("replace scheduled")) {
                expect(rotations).not.toContain(rotatedAt);
                rotations.push(rotatedAt);
              } else {
                expect(rotatedAt).toBe(rotations.at(-1));
              }
              await stack.preview({ expectNoChanges: true });
              last = up.result;

              table.push(
                `| ${age} | ${JSON.stringify(refreshed)} | ${expected.changes.join(", ") || "none"} | ${[
                  ...new Set(up.warnings.map((w) => w.slice(0, w.indexOf(":"))).sort()),
                ].join(", ")} |`,
              );
            });
          }
          // The snapshot aged out long ago and is still the restored volume's source (the outputs of
          // day 400's up, which the clean preview after it leaves as they are).
          expect(value(last, "snapshotListed")).toBe(false);
          expect(value(last, "restoredFrom")).toBe(value(first.result, "snapshotId"));
          expect(value(last, "logsSize")).toBe(10);
          console.log(`lifetime table (${door} door)\n${table.join("\n")}`);
        },
      );
    });
  },
);

// Shapes a randomized soak of the quickstart found (issue 28): a replace killed mid-way and the
// README's recipe, a snapshot's source volume deleted by hand, a restore below its snapshot's size.
describe("a stack's lifetime: the quickstart's snapshot, restore and fork under change", () => {
  const e = useE2eEmulator();
  const base = () => ({ ...platformConfig(e.emu), parts: "quickstart" });
  // Each test starts from the seed: what one test left at the platform is no other's orphan (and
  // no test needs a destroy to clean up).
  beforeEach(() => e.reset());
  const named = async (name: string) =>
    (await e.state()).volumes
      .filter((v: { name: string }) => v.name === name)
      .map((v: { id: string }) => v.id);

  /** The URN of the stack's custom resource named `name` (for `--replace`). */
  async function urnOf(stack: Stack, name: string): Promise<string> {
    const { deployment } = await stack.exportStack();
    const found = (deployment.resources as { urn: string; custom?: boolean }[]).find(
      (r) => r.custom && r.urn.endsWith(`::${name}`),
    );
    if (!found) throw new Error(`no resource ${name} in the stack`);
    return found.urn;
  }

  /** `pulumi-platform recover …` as a pipeline runs it; its exit code and output. */
  async function recover(ctx: StackContext, args: string[]): Promise<{ code: number; out: string }> {
    try {
      const { stdout } = await run(process.execPath, [cli, "recover", ...args, "--stack", ctx.stack.name], {
        cwd: programPath("lifetime"),
        env: { ...process.env, ...ctx.env },
      });
      return { code: 0, out: stdout };
    } catch (err) {
      const failed = err as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
    }
  }

  /**
   * `pulumi up` of the program as it is now (with `upArgs`), SIGKILLed once `landed` holds (the answers of
   * `method` requests to the app's volumes wait 5 s, so the platform has done what Pulumi has not
   * recorded), then the README's recipe: `recover --unlock-if-stale --yes` (its output is
   * returned) and `pulumi up`.
   */
  async function killedThenRecipe(
    ctx: StackContext,
    method: "POST" | "PUT" | "DELETE",
    what: string,
    landed: () => Promise<boolean>,
    upArgs: string[] = [],
  ): Promise<{ recovered: string; finished: Awaited<ReturnType<Stack["up"]>> }> {
    await e.control.faults.add({
      method,
      path: method === "POST" ? "/v1/apps/demo-app/volumes" : "/v1/apps/demo-app/volumes/*",
      kind: "latency-after",
      latencyMs: 5_000,
      times: 0,
    });
    const env = { ...process.env, ...ctx.env };
    const up = spawn(
      path.join(ctx.cliDir, "pulumi"),
      ["up", "--yes", "--skip-preview", "--stack", ctx.stack.name, ...upArgs],
      {
        cwd: programPath("lifetime"),
        env,
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => up.once("exit", resolve));
    await step(`kill the up once ${what}`, async () => {
      await until(what, landed);
      killTree(up.pid as number);
      await exited;
    });
    await e.control.faults.clear();
    const exported = await run(
      path.join(ctx.cliDir, "pulumi"),
      ["stack", "export", "--stack", ctx.stack.name],
      {
        cwd: programPath("lifetime"),
        env,
      },
    ).catch(() => ({ stdout: '{"deployment":{}}' }));
    const pending: { type: string; resource: { urn: string } }[] =
      JSON.parse(exported.stdout).deployment.pending_operations ?? [];
    const r = await step("recover --unlock-if-stale --yes", () =>
      recover(ctx, ["--unlock-if-stale", "--yes"]),
    );
    console.log(
      `killed once ${what}; pending operations: ${JSON.stringify(pending.map((op) => `${op.type} ${op.resource.urn.split("::").at(-1)}`))}; recover:\n${r.out}`,
    );
    expect(r.code, r.out).toBe(0);
    return { recovered: r.out, finished: await step("up", () => ctx.stack.up()) };
  }

  for (const deleteBeforeReplace of [false, true]) {
    it(`a replace of the restored volume killed after its create landed (deleteBeforeReplace ${deleteBeforeReplace}): the recipe leaves 0 orphans`, async () => {
      const config = { ...base(), restoredDeleteBeforeReplace: String(deleteBeforeReplace) };
      await withStack({ programDir: programPath("lifetime"), config }, async (ctx) => {
        const { stack } = ctx;
        const first = await step("up", () => stack.up());
        // A restore is an event: only the user replaces it (a new snapshot would not).
        const replace = ["--replace", await urnOf(stack, "restored")];
        const { finished } = await killedThenRecipe(
          ctx,
          "POST",
          "the new restore landed",
          async () => (await named("data_restored")).some((id) => id !== value(first, "restoredId")),
          replace,
        );
        const restored = await named("data_restored");
        expect(restored, "every data_restored volume at the platform is the stack's").toEqual([
          value(finished, "restoredId"),
        ]);
        await stack.preview({ expectNoChanges: true });
      });
    });
  }

  it("a kill during an update and during a delete: the recipe converges, nothing left over", async () => {
    const config = { ...base(), forkSizeGb: "3" };
    await withStack({ programDir: programPath("lifetime"), config }, async (ctx) => {
      const { stack } = ctx;
      const first = await step("up", () => stack.up());
      const dataId = value(first, "dataId");
      await stack.setConfig("dataRetention", { value: "4" });
      await killedThenRecipe(ctx, "PUT", "the retention update landed", async () =>
        (await e.state()).volumes.some(
          (v: { id: string; snapshot_retention: number }) => v.id === dataId && v.snapshot_retention === 4,
        ),
      );
      await stack.preview({ expectNoChanges: true });
      await stack.removeConfig("forkSizeGb");
      const { finished } = await killedThenRecipe(
        ctx,
        "DELETE",
        "the fork was deleted",
        async () => (await named("data_fork")).length === 0,
      );
      const ids = (await e.state()).volumes.map((v: { id: string }) => v.id).sort();
      expect(ids, "the platform holds the stack's volumes and nothing else").toEqual(
        [value(finished, "dataId"), value(finished, "restoredId")].sort(),
      );
      expect(value(finished, "dataId")).toBe(dataId);
      await stack.preview({ expectNoChanges: true });
      await stack.destroy();
      expect((await e.state()).volumes).toEqual([]);
    });
  });

  it("an out-of-band delete of the snapshot's source volume (and the fork's) replaces nothing that holds data", async () => {
    const config = { ...base(), protectRestored: "true", forkSizeGb: "3" };
    await withStack({ programDir: programPath("lifetime"), config }, async (ctx) => {
      const { stack } = ctx;
      const first = await step("up", () => stack.up());
      const dataId = value(first, "dataId") as string;
      await step("an operator deletes the data volume by hand; refresh drops it", async () => {
        await e.api("DELETE", `/v1/apps/demo-app/volumes/${dataId}`);
        await stack.refresh();
      });
      const preview = await step("preview", () => observedPreview(stack));
      expect(preview.changes).toEqual(["create data"]);
      const up = await step("up", () => observedUp(stack));
      console.log(
        `after the source volume was deleted by hand: up plans ${JSON.stringify(up.changes)}, warns:\n${up.warnings.join("\n")}`,
      );
      expect(up.changes).toEqual(["create data"]);
      expect(value(up.result, "dataId")).not.toBe(dataId);
      for (const key of ["snapshotId", "restoredId", "forkId"]) {
        expect(value(up.result, key), key).toBe(value(first, key));
      }
      expect(up.warnings).toContainEqual(
        expect.stringMatching(/^data-snap: .*snapshot .* was taken of volume vol_\w+/),
      );
      // The fork's moved source: said by its check at this up (in the dynamic door, a message of
      // the stack), and not again.
      expect(up.output).toMatch(
        /volume data_fork: sourceVolumeId changes from vol_\w+ to vol_\w+; nothing is forked/,
      );
      // The next preview plans nothing; the snapshot's warning names what silences it (triggers).
      const again = await observedPreview(stack);
      expect(again.changes).toEqual([]);
      expect(again.warnings).toContainEqual(
        expect.stringMatching(/^data-snap: .*Change triggers to take a snapshot/),
      );
      expect(again.output).not.toMatch(/sourceVolumeId changes from/);
    });
  });

  it("a restore (and a fork) with sizeGb below its snapshot's (source's) size gets the larger size and plans nothing after", async () => {
    const config = { ...base(), restoredSizeGb: "3", forkSizeGb: "3", snapshotTriggers: "1" };
    await withStack({ programDir: programPath("lifetime"), config }, async (ctx) => {
      const { stack } = ctx;
      await step("up", () => stack.up());
      await stack.setAllConfig({ dataSizeGb: { value: "4" }, snapshotTriggers: { value: "2" } });
      const first = await step("the source grows, a new snapshot: the restored volume is kept", () =>
        observedUp(stack),
      );
      expect([...first.changes].sort()).toEqual(["replace data-snap", "update data"]);
      // Said by the volume's check (in the dynamic door, a message of the stack), at this up only.
      expect(first.output).toMatch(
        /volume data_restored: snapshotId changes from vs_\w+ to vs_\w+; nothing is restored from vs_\w+\. A restore is an event: the volume and its data are kept/,
      );
      const restoredUrn = await urnOf(stack, "restored");
      const grown = await step("--replace of the restored volume: a new restore of the new snapshot", () =>
        observedUp(stack, { replace: [restoredUrn] }),
      );
      console.log(`restore below the snapshot's size: up plans ${JSON.stringify(grown.changes)}`);
      expect(grown.changes).toEqual(["replace restored"]);
      expect(value(grown.result, "restoredSize")).toBe(4);
      expect(value(grown.result, "restoredFrom")).toBe(value(grown.result, "snapshotId"));
      await step("a new fork of the grown source, still with sizeGb 3", async () => {
        await stack.removeConfig("forkSizeGb");
        await stack.up();
        await stack.setConfig("forkSizeGb", { value: "3" });
        const forked = await stack.up();
        expect(value(forked, "forkSize")).toBe(4);
      });
      await stack.preview({ expectNoChanges: true });
      await stack.refresh({ expectNoChanges: true });
      await stack.preview({ expectNoChanges: true });
    });
  });
});
