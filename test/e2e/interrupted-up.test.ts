import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { killTree, removeBrokenSidecars, until } from "../support/kill";
import { OPS_CLI as cli } from "../support/ops-cli";

// A deploy pipeline gets killed: SIGKILL of `pulumi up` and every process it started (the CLI
// puts plugins in their own process groups, so the tree is walked by parent pid). Volumes the
// platform created but Pulumi never recorded stay as pending creates; `pulumi-platform recover`
// then a plain `pulumi up` must end with every volume exactly once and nothing orphaned.

const run = promisify(execFile);
const e = useE2eEmulator();
const programDir = programPath("interrupted-up");

describe("an interrupted `pulumi up` (SIGKILL of the CLI's process tree)", () => {
  it("recovers with `pulumi-platform recover` and one `pulumi up`: every volume once, 0 orphans", async () => {
    await withStack({ programDir, config: platformConfig(e.emu) }, async ({ stack, env, cliDir }) => {
      const cliEnv = { ...process.env, ...env };
      const ours = async () => (await e.state()).volumes.filter((v) => v.name.startsWith("intr_"));
      // Creates land at once and their answers take 5 s, so the kill finds volumes the platform
      // made and Pulumi has not recorded.
      await e.control.faults.add({
        method: "POST",
        path: "/v1/apps/demo-app/volumes",
        kind: "latency-after",
        latencyMs: 5_000,
        times: 0,
      });
      const up = spawn(
        path.join(cliDir, "pulumi"),
        ["up", "--yes", "--skip-preview", "--stack", stack.name],
        {
          cwd: programDir,
          env: cliEnv,
          stdio: "ignore",
        },
      );
      const exited = new Promise((resolve) => up.once("exit", resolve));
      await until("volumes at the platform", async () => (await ours()).length >= 5);
      const killed = killTree(up.pid as number);
      await exited;
      await e.control.faults.clear();
      await new Promise((r) => setTimeout(r, 500));
      const atKill = (await ours()).length;
      await removeBrokenSidecars(stack, env.PULUMI_BACKEND_URL as string);

      const exported = JSON.parse(
        (
          await run(path.join(cliDir, "pulumi"), ["stack", "export", "--stack", stack.name], {
            cwd: programDir,
            env: cliEnv,
          })
        ).stdout,
      ) as { deployment: { pending_operations?: unknown[]; resources?: { type: string }[] } };
      const pending = exported.deployment.pending_operations?.length ?? 0;
      expect(pending).toBeGreaterThan(0);

      const recover = await run(
        process.execPath,
        [cli, "recover", "--unlock", "--yes", "--stack", stack.name],
        {
          cwd: programDir,
          env: cliEnv,
        },
      );
      expect(recover.stdout).toMatch(/Recovered/);

      const finished = await stack.up();
      const volumes = await ours();
      const names = volumes.map((v) => v.name);
      const duplicates = names.filter((n, i) => names.indexOf(n) !== i);
      const recorded = new Set(finished.outputs.volumeIds?.value as string[]);
      const orphans = volumes.filter((v) => !recorded.has(v.id));
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
