import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { killUpWhen, removeBrokenSidecars } from "../support/kill";
import { OPS_CLI as cli } from "../support/ops-cli";
import { upAndTally } from "../support/tally";
import { yamlProgram } from "../support/yaml-program";

// A deploy pipeline gets killed: SIGKILL of `pulumi up` and every process it started (the CLI
// puts plugins in their own process groups, so the tree is walked by parent pid). Volumes the
// platform created but Pulumi never recorded stay as pending creates; `pulumi-platform recover`
// then a plain `pulumi up` must end with every volume exactly once and nothing orphaned, through
// either door (the dynamic classes, or the provider plugin from a YAML program).

const run = promisify(execFile);
const e = useE2eEmulator();
const programDir = programPath("interrupted-up");

type StackContext = Parameters<Parameters<typeof withStack>[1]>[0];

/**
 * Starts `pulumi up` of the stack in `dir` with creates that land at once and answer after 5 s,
 * and SIGKILLs its process tree once `landed` volumes are at the platform, so the kill finds
 * volumes the platform made and Pulumi has not recorded. Returns what the kill left: processes
 * killed, volumes at the platform, pending creates in the checkpoint.
 */
async function killUpAfterCreates(
  { stack, env, cliDir }: StackContext,
  dir: string,
  ours: () => Promise<unknown[]>,
  landed: number,
): Promise<{ killed: number; atKill: number; pending: number }> {
  const cliEnv = { ...process.env, ...env };
  await e.control.faults.add({
    method: "POST",
    path: "/v1/apps/demo-app/volumes",
    kind: "latency-after",
    latencyMs: 5_000,
    times: 0,
  });
  const killed = await killUpWhen(
    { cliDir, dir, stackName: stack.name, env: cliEnv },
    "volumes at the platform",
    async () => (await ours()).length >= landed,
  );
  await e.control.faults.clear();
  await new Promise((r) => setTimeout(r, 500));
  const atKill = (await ours()).length;
  await removeBrokenSidecars(stack, env.PULUMI_BACKEND_URL as string);
  const exported = JSON.parse(
    (
      await run(path.join(cliDir, "pulumi"), ["stack", "export", "--stack", stack.name], {
        cwd: dir,
        env: cliEnv,
      })
    ).stdout,
  ) as { deployment: { pending_operations?: unknown[] } };
  return { killed, atKill, pending: exported.deployment.pending_operations?.length ?? 0 };
}

/** The README's recipe after a killed `up`, first step: `npx pulumi-platform recover ...`. */
function recover({ stack, env }: StackContext, dir: string, args: string[]) {
  return run(process.execPath, [cli, "recover", ...args, "--stack", stack.name], {
    cwd: dir,
    env: { ...process.env, ...env },
  });
}

describe("an interrupted `pulumi up` (SIGKILL of the CLI's process tree)", () => {
  it("recovers with `pulumi-platform recover` and one `pulumi up`: every volume once, 0 orphans", async () => {
    await withStack({ programDir, config: platformConfig(e.emu) }, async (ctx) => {
      const { stack } = ctx;
      const ours = async () => (await e.state()).volumes.filter((v) => v.name.startsWith("intr_"));
      const { killed, atKill, pending } = await killUpAfterCreates(ctx, programDir, ours, 5);
      expect(pending).toBeGreaterThan(0);

      const recovered = await recover(ctx, programDir, ["--unlock", "--yes"]);
      expect(recovered.stdout).toMatch(/Recovered/);

      const { volumes, duplicates, orphans } = await upAndTally(stack, ours);
      console.log(
        `interrupted up: ${killed} processes killed; ${atKill} volumes at the platform, ${pending} pending creates in the checkpoint; after recover + up: ${volumes.length} volumes, ${duplicates.length} duplicates, ${orphans.length} orphans; steps typed: 2 (npx pulumi-platform recover --unlock --yes, pulumi up)`,
      );
      expect(duplicates).toEqual([]);
      expect(orphans).toEqual([]);
      expect(volumes).toHaveLength(15);

      await stack.preview({ expectNoChanges: true });
      await stack.destroy();
      expect(await ours()).toEqual([]);
    });
  });

  it("through the plugin door (a YAML program of `platform:index:Volume`): the README recipe, then every volume once, 0 orphans, recovered resources recorded as the plugin records them", async () => {
    const count = 12;
    const resources = Array.from(
      { length: count },
      (_, i) =>
        `  vol-${i}:\n    type: platform:index:Volume\n    properties: { app: demo-app, name: plug_${i}, region: iad, sizeGb: 1 }\n`,
    ).join("");
    const ids = Array.from({ length: count }, (_, i) => `    - \${vol-${i}.volumeId}\n`).join("");
    const program = yamlProgram(
      "interrupted-plugin",
      `resources:\n${resources}outputs:\n  volumeIds:\n${ids}`,
    );
    await withStack({ programDir: program.dir, config: platformConfig(e.emu) }, async (ctx) => {
      const { stack } = ctx;
      const ours = async () => (await e.state()).volumes.filter((v) => v.name.startsWith("plug_"));
      const { killed, atKill, pending } = await killUpAfterCreates(ctx, program.dir, ours, 4);
      expect(pending).toBeGreaterThan(0);

      // The README's recipe, as typed after a lost runner.
      const recovered = await recover(ctx, program.dir, ["--unlock-if-stale", "--yes"]);
      expect(recovered.stdout).toMatch(/import {2}urn:pulumi:.*::platform:index:Volume::vol-/);
      expect(recovered.stdout).toMatch(/Recovered/);
      const imported = (recovered.stdout.match(/^ {2}import /gm) ?? []).length;

      const { volumes, duplicates, orphans } = await upAndTally(stack, ours);
      console.log(
        `interrupted up through the plugin: ${killed} processes killed; ${atKill} volumes at the platform, ${pending} pending creates; recover imported ${imported}; after up: ${volumes.length} volumes, ${duplicates.length} duplicates, ${orphans.length} orphans`,
      );
      expect(imported).toBeGreaterThan(0);
      expect(duplicates).toEqual([]);
      expect(orphans).toEqual([]);
      expect(volumes).toHaveLength(count);

      // A recovered volume is recorded like one the plugin created: the same provider reference,
      // the same output names (the dynamic door's provider text among them).
      const { deployment } = await stack.exportStack();
      const states = (deployment.resources as { type: string; provider?: string; outputs?: object }[]).filter(
        (r) => r.type === "platform:index:Volume",
      );
      expect(states).toHaveLength(count);
      expect(new Set(states.map((r) => r.provider)).size).toBe(1);
      expect(
        new Set(
          states.map((r) =>
            Object.keys(r.outputs ?? {})
              .sort()
              .join(","),
          ),
        ).size,
      ).toBe(1);

      await stack.preview({ expectNoChanges: true });
      await stack.refresh({ expectNoChanges: true });
      await stack.destroy();
      expect(await ours()).toEqual([]);
    });
  });

  it("a kill inside the backend's metadata write: recover removes the empty file, Pulumi reads the stack again", async () => {
    await withStack(
      { programDir, config: { ...platformConfig(e.emu), count: "1" } },
      async ({ stack, env, cliDir }) => {
        const cliEnv = { ...process.env, ...env };
        await stack.up();
        // What a SIGKILL between the truncate and the write of the checkpoint's sidecar leaves.
        const project = (await stack.workspace.projectSettings()).name;
        const backend = new URL(env.PULUMI_BACKEND_URL as string).pathname;
        const sidecar = path.join(backend, ".pulumi", "stacks", project, `${stack.name}.json.attrs`);
        expect(fs.existsSync(sidecar)).toBe(true);
        fs.writeFileSync(sidecar, "");
        const pulumi = (args: string[]) =>
          run(path.join(cliDir, "pulumi"), [...args, "--stack", stack.name], {
            cwd: programDir,
            env: cliEnv,
          });
        await expect(pulumi(["stack", "export"])).rejects.toThrow(/failed to load checkpoint: EOF/);

        const recover = (args: string[]) =>
          run(process.execPath, [cli, "recover", ...args, "--stack", stack.name], {
            cwd: programDir,
            env: cliEnv,
          });
        const shown = await recover(["--unlock-if-stale"]).catch((err) => err);
        expect(shown.code).toBe(3);
        expect(shown.stdout).toContain(`remove  ${sidecar}`);
        expect(shown.stdout).toMatch(/Not applied: run again with --yes/);
        expect(fs.existsSync(sidecar)).toBe(true);

        const applied = await recover(["--unlock-if-stale", "--yes"]);
        expect(applied.stdout).toMatch(/removed 1 empty metadata file\(s\) of the backend/);
        expect(applied.stdout).toMatch(/nothing to do/);
        await stack.preview({ expectNoChanges: true });
        await stack.destroy();
        expect((await e.state()).volumes.filter((v) => v.name.startsWith("intr_"))).toEqual([]);
      },
    );
  });
});
