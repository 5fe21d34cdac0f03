/**
 * The reliability scenario (a deploy pipeline meets a platform that throttles, fails and drops
 * answers), through either door: the same program (test/e2e/programs/reliability) with the
 * dynamic classes or the plugin's (`door` in its config). With faults on every route (seeded, so
 * a failure replays), about 25 mixed resources must converge by plain re-runs of `pulumi up` (at
 * most two), with nothing duplicated and nothing left that the stack does not own.
 */
import { expect } from "vitest";
import type { FaultSpec } from "../../emulator";
import { makeCert } from "./certs";
import { platformConfig } from "./e2e";
import type { TestEmulator } from "./emulator";
import { programPath, withStack } from "./engine";

const programDir = programPath("reliability");
const APP = "demo-app";

/** Faults on every route and method: throttling, unavailability, answers lost after the handler ran. */
const FAULTS: FaultSpec[] = [
  // Creates are where a lost answer hurts: a quarter of the POSTs lose theirs.
  { method: "POST", kind: "drop-after", times: 0, probability: 0.25 },
  { kind: "status", status: 429, retryAfterSeconds: 1, times: 0, probability: 0.1 },
  { kind: "status", status: 503, retryAfterSeconds: 1, times: 0, probability: 0.05 },
  { kind: "drop-after", times: 0, probability: 0.08 },
];

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Runs the scenario against `e`'s emulator, the program's classes taken from `door`. */
export async function reliabilityScenario(e: TestEmulator, door: "dynamic" | "plugin"): Promise<void> {
  const config: Record<string, string | { value: string; secret: boolean }> = {
    ...platformConfig(e.emu),
    door,
  };
  for (const i of [0, 1, 2]) {
    const pem = await makeCert(`c${i}.rel.example.com`);
    config[`cert${i}`] = pem.cert;
    config[`key${i}`] = { value: pem.key, secret: true };
  }
  await withStack({ programDir, config }, async ({ stack }) => {
    for (const fault of FAULTS) await e.control.faults.add(fault);

    const failures: string[] = [];
    let runs = 0;
    let outputs: Record<string, { value: unknown }> | undefined;
    while (runs < 2 && !outputs) {
      runs++;
      try {
        outputs = (await stack.up()).outputs;
      } catch (err) {
        const lines = String((err as Error).message)
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l.startsWith("error:") && l !== "error: update failed");
        failures.push(...new Set(lines.map((l) => `run ${runs}: ${l}`)));
      }
    }
    const hits = (await e.control.faults.list()).map((f) => f.hits);
    const dropped = (await e.control.requests.list()).filter((r) => r.dropped).length;
    await e.control.faults.clear();

    const state = await e.state();
    const volumes = state.volumes.filter((v) => v.app === APP && v.name.startsWith("rel_"));
    const duplicates = [...countBy(volumes, (v) => v.name)].filter(([, n]) => n > 1);
    const stackVolumes = new Set((outputs?.volumeIds?.value as string[] | undefined) ?? []);
    const orphanVolumes = volumes.filter((v) => !stackVolumes.has(v.id)).map((v) => v.id);
    const hostnames = state.certificates.map((c) => c.hostname).filter((h) => h.endsWith(".rel.example.com"));
    const stackHostnames = new Set((outputs?.hostnames?.value as string[] | undefined) ?? []);
    const orphanHostnames = hostnames.filter((h) => !stackHostnames.has(h));
    const stackSnapshots = new Set((outputs?.snapshotIds?.value as string[] | undefined) ?? []);
    const relVolumeIds = new Set(volumes.map((v) => v.id));
    const orphanSnapshots = state.snapshots
      .filter((s) => relVolumeIds.has(s.volume_id) && !stackSnapshots.has(s.id))
      .map((s) => s.id);

    console.log(
      [
        `reliability (${door} door): converged after ${runs} up run(s); faults hit 429×${hits[1]}, 503×${hits[2]}, answers dropped after the handler ×${dropped} (${hits[0]} of them POSTs)`,
        `  volumes ${volumes.length} (stack ${stackVolumes.size}), hostnames ${hostnames.length} (stack ${stackHostnames.size}), snapshots of the stack's volumes ${state.snapshots.filter((s) => relVolumeIds.has(s.volume_id)).length}`,
        `  duplicates ${duplicates.length}, orphans ${orphanVolumes.length + orphanHostnames.length + orphanSnapshots.length}`,
        ...failures.map((f) => `  ${f}`),
      ].join("\n"),
    );

    expect(outputs, failures.join("\n")).toBeDefined();
    expect(hits[0]).toBeGreaterThan(0);
    expect(hits).toHaveLength(FAULTS.length);
    expect((hits[1] ?? 0) + (hits[2] ?? 0)).toBeGreaterThan(0);
    expect(stackVolumes.size).toBe(13);
    expect(duplicates).toEqual([]);
    expect(orphanVolumes).toEqual([]);
    expect(orphanHostnames).toEqual([]);
    expect(orphanSnapshots).toEqual([]);
    expect(stackHostnames.size).toBe(8);
    // The door the run went through: its volumes' type token.
    const { deployment } = await stack.exportStack();
    const volumeType = door === "plugin" ? "platform:index:Volume" : "pulumi-nodejs:dynamic/platform:Volume";
    const types = (deployment.resources as { type: string }[]).map((r) => r.type);
    expect(types.filter((t) => t === volumeType)).toHaveLength(13);

    await stack.preview({ expectNoChanges: true });
    await stack.refresh({ expectNoChanges: true });
    await stack.destroy();
    const after = await e.state();
    expect(after.volumes.filter((v) => v.name.startsWith("rel_"))).toEqual([]);
    expect(after.certificates.filter((c) => c.hostname.endsWith(".rel.example.com"))).toEqual([]);
  });
}
