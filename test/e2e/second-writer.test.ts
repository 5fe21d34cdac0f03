import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { killUpWhen, removeBrokenSidecars } from "../support/kill";
import { OPS_CLI as cli } from "../support/ops-cli";

// Two stacks of one program on one backend share an app and the names of their volumes (issue
// 46): both `up` at the same time with a create answered 500 after the platform made it, then a
// `recover --sweep --delete` and a `destroy` of one; and both `up` at once with one of them
// killed (SIGKILL of its process tree) while its creates are in flight, then the README's recipe
// (`recover`, `up`). The other keeps every volume it records, no volume is in two states, and a
// lost create never takes the other stack's volume.

const run = promisify(execFile);
const e = useE2eEmulator();
const programDir = programPath("interrupted-up");
const COUNT = 3;

const volumeIds = async (stack: Stack): Promise<string[]> => {
  const { deployment } = await stack.exportStack();
  return (deployment.resources as { type: string; id?: string }[])
    .filter((r) => r.type.endsWith("platform:Volume") && r.id)
    .map((r) => r.id as string);
};

const alive = async () =>
  new Set(
    (await e.state()).volumes
      .filter((v) => v.name.startsWith("intr_") && v.state !== "destroyed")
      .map((v) => v.id),
  );

describe("two stacks of one program in one app (same-named volumes)", () => {
  it("up at once with a 500 after a create, then sweep and destroy of one: the other keeps every volume, none in two states", async () => {
    await withTwoStacks(async ({ a, b, env }) => {
      await e.control.faults.add({
        method: "POST",
        path: "/v1/apps/*/volumes",
        kind: "status-after",
        status: 500,
      });
      const first = await Promise.allSettled([a.up(), b.up()]);
      await e.control.faults.clear();
      const failures = first.flatMap((r) =>
        r.status === "rejected" ? [String((r.reason as Error).message)] : [],
      );
      // A run that failed is run again, as a pipeline would.
      for (const [i, stack] of [a, b].entries()) if (first[i]?.status === "rejected") await stack.up();

      const ownedA = await volumeIds(a);
      const ownedB = await volumeIds(b);
      expect(ownedA).toHaveLength(COUNT);
      expect(ownedB).toHaveLength(COUNT);
      expect(
        ownedA.filter((id) => ownedB.includes(id)),
        "no volume in two states",
      ).toEqual([]);
      // A lost create that found two candidates took none and named both.
      const namedInErrors = new Set(failures.flatMap((m) => m.match(/vol_[A-Za-z0-9]+/g) ?? []));
      for (const m of failures) expect(m).toContain("none was taken over");
      // Else the one candidate was taken over, and the run said so, naming it.
      const outputs = first.flatMap((r) => (r.status === "fulfilled" ? [r.value.stdout] : []));
      const warned = outputs.filter((out) => out.includes("taken over after a lost answer"));
      expect(failures.length + warned.length, "the 500 was met by a named take-over or a failure").toBe(1);

      const swept = await run(
        process.execPath,
        [cli, "recover", "--sweep", "--delete", "--yes", "--stack", a.name],
        { cwd: programDir, env: { ...process.env, ...env } },
      ).catch((err: { stdout?: string; code?: number }) => ({ stdout: err.stdout ?? "", code: err.code }));
      const afterSweep = await alive();
      for (const id of [...ownedA, ...ownedB])
        expect(afterSweep.has(id), `${id} kept by the sweep`).toBe(true);

      await a.destroy();
      const afterDestroy = await alive();
      for (const id of ownedB) expect(afterDestroy.has(id), `B's ${id} after A's destroy`).toBe(true);
      expect(ownedA.filter((id) => afterDestroy.has(id))).toEqual([]);
      await b.preview({ expectNoChanges: true });
      // What is left beside B's volumes is only what a failed run named for a person to decide.
      const left = [...afterDestroy].filter((id) => !ownedB.includes(id));
      for (const id of left) expect(namedInErrors.has(id), `${id} left over unnamed`).toBe(true);
      console.log(
        `second writer: ${warned.length} take-over warning(s); ${failures.length} run(s) failed at first (${failures.map((m) => (m.includes("AMBIGUOUS") || m.includes("none was taken over") ? "two candidates, none taken" : m.slice(0, 80))).join("; ") || "none"}); sweep of A: ${(swept.stdout.match(/left alone: volume/g) ?? []).length} of B's volume(s) left alone; after A's destroy: B keeps ${ownedB.length}/${COUNT}, ${left.length} named leftover(s)`,
      );
      await b.destroy();
      // The person deletes what the failed run named (its way out); then nothing is left.
      for (const id of left) await e.api("DELETE", `/v1/apps/demo-app/volumes/${id}`);
      expect((await alive()).size).toBe(0);
    });
  });

  it("up at once, one killed while its creates are in flight, then recover and up of it: each stack owns its own volumes, none in two states, no orphan", async () => {
    await withTwoStacks(async ({ a, b, env, cliDir }) => {
      const cliEnv = { ...process.env, ...env };
      // Every create lands at once and is answered 5 s later, so the kill finds A's volumes made
      // and not recorded while B's same-named ones are being made beside them.
      await e.control.faults.add({
        method: "POST",
        path: "/v1/apps/*/volumes",
        kind: "latency-after",
        latencyMs: 5_000,
        times: 0,
      });
      const upB = b.up();
      const killed = await killUpWhen(
        { cliDir, dir: programDir, stackName: a.name, env: cliEnv },
        "both stacks' creates at the platform",
        async () => (await alive()).size >= 2 * COUNT,
      );
      await upB;
      await e.control.faults.clear();
      await removeBrokenSidecars(a, env.PULUMI_BACKEND_URL as string);
      const ownedB = await volumeIds(b);
      expect(ownedB).toHaveLength(COUNT);

      // The recipe: recover the killed stack, then `pulumi up` it.
      const recovered = await run(
        process.execPath,
        [cli, "recover", "--unlock", "--yes", "--stack", a.name],
        {
          cwd: programDir,
          env: cliEnv,
        },
      ).catch((err: { code?: number; stdout?: string; stderr?: string }) => {
        throw new Error(`recover exited ${err.code}:\n${err.stdout ?? ""}\n${err.stderr ?? ""}`);
      });
      expect(recovered.stdout).toMatch(/Recovered/);
      const imported = (recovered.stdout.match(/^\s+import\s/gm) ?? []).length;
      for (const id of ownedB)
        expect(recovered.stdout, `B's ${id} is not imported into A`).not.toContain(`volume ${id} `);
      await a.up();

      const ownedA = await volumeIds(a);
      expect(ownedA).toHaveLength(COUNT);
      expect(
        ownedA.filter((id) => ownedB.includes(id)),
        "no volume in two states",
      ).toEqual([]);
      const now = await alive();
      expect([...now].sort(), "every live volume is in one state: no orphan, none lost").toEqual(
        [...ownedA, ...ownedB].sort(),
      );
      await b.preview({ expectNoChanges: true });
      await a.preview({ expectNoChanges: true });
      console.log(
        `second writer, killed up: ${killed} processes killed; recover imported ${imported} of A's pending creates and none of B's ${ownedB.length}; after A's up: A ${ownedA.length}, B ${ownedB.length}, ${now.size} alive, 0 in two states`,
      );

      await a.destroy();
      const afterDestroy = await alive();
      for (const id of ownedB) expect(afterDestroy.has(id), `B's ${id} after A's destroy`).toBe(true);
      await b.destroy();
      expect((await alive()).size).toBe(0);
    });
  });
});

/**
 * Stack A (the test's own) and stack B of the same program on A's backend, with the same config,
 * so that their volumes share names in one app; B is removed afterwards.
 */
async function withTwoStacks(
  fn: (ctx: { a: Stack; b: Stack; env: Record<string, string>; cliDir: string }) => Promise<void>,
): Promise<void> {
  const config = { ...platformConfig(e.emu), count: String(COUNT) };
  await withStack({ programDir, config }, async ({ stack: a, env, cliDir }) => {
    const pulumiCommand = await PulumiCommand.get({ root: path.dirname(cliDir), skipVersionCheck: true });
    const bName = `${a.name}b`;
    const b = await LocalWorkspace.createStack(
      { stackName: bName, workDir: programDir },
      { pulumiCommand, envVars: env, pulumiHome: env.PULUMI_HOME },
    );
    try {
      await b.setAllConfig(
        Object.fromEntries(
          Object.entries(config).map(([k, v]) => [
            k,
            typeof v === "string" ? { value: v } : { value: v.value, secret: !!v.secret },
          ]),
        ),
      );
      await fn({ a, b, env, cliDir });
    } finally {
      await b.workspace.removeStack(bName, { force: true }).catch(() => undefined);
      fs.rmSync(path.join(programDir, `Pulumi.${bName}.yaml`), { force: true });
    }
  });
}
