import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { createControlClient, type RunningEmulator, startEmulator } from "../../emulator";
import { withStack } from "../support/engine";

// State written by every recorded release (test/fixtures/upgrade/<version>, made by
// `npm run record-upgrade-fixture`) must keep working with the code of this checkout: a preview
// plans nothing (above all no replacement), refresh finds nothing, a small change updates only
// that, destroy removes everything; refresh and destroy also work before any `up`, when the
// engine runs the serialized provider text the old release left in the state.

const repoRoot = path.resolve(__dirname, "..", "..");
const fixtures = path.join(repoRoot, "test", "fixtures", "upgrade");
const versions = fs.readdirSync(fixtures).filter((v) => fs.existsSync(path.join(fixtures, v, "meta.json")));

interface Meta {
  version: string;
  stack: string;
  passphrase: string;
  token: string;
  apiUrl: string;
}

/**
 * Runs `fn` on a fresh backend holding the recorded stack, with an emulator started from the
 * recorded platform state. Snapshots are moved to yesterday (in both files, same instant) so
 * that retention, which runs on the wall clock, has not removed them since the recording.
 */
async function withRecordedStack(
  version: string,
  fn: (stack: Stack, emu: RunningEmulator, recorded: Deployment) => Promise<void>,
): Promise<void> {
  const dir = path.join(fixtures, version);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")) as Meta;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `upgrade-${version}-`));
  const platform = JSON.parse(fs.readFileSync(path.join(dir, "emulator-state.json"), "utf8"));
  const moved: [string, string][] = [];
  for (const snapshot of platform.snapshots ?? []) {
    const to = Date.now() - 86_400_000 + moved.length;
    moved.push([new Date(snapshot.created_at).toISOString(), new Date(to).toISOString()]);
    snapshot.created_at = to;
  }
  const stateFile = path.join(tmp, "emulator-state.json");
  fs.writeFileSync(stateFile, JSON.stringify(platform));
  const emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    token: meta.token,
    stateFile,
    taskSocket: path.join(tmp, "api.sock"),
    timing: { restoreDelayMs: 200, snapshotListDelayMs: 200 },
  });
  const rewrite = (text: string) => {
    let out = text.split(meta.apiUrl).join(emu.url);
    for (const [from, to] of moved) out = out.split(from).join(to);
    return out;
  };
  // The recorded program, inside the repository so that `pulumi-platform` is this checkout.
  const programDir = path.join(
    repoRoot,
    "test",
    "e2e",
    "programs",
    `.upgrade-${version}-${randomBytes(3).toString("hex")}`,
  );
  fs.cpSync(path.join(dir, "program"), programDir, { recursive: true });
  try {
    await withStack(
      { programDir, stackName: meta.stack, env: { PULUMI_CONFIG_PASSPHRASE: meta.passphrase } },
      async ({ stack }) => {
        const configFile = path.join(dir, `Pulumi.${meta.stack}.yaml`);
        fs.writeFileSync(
          path.join(programDir, `Pulumi.${meta.stack}.yaml`),
          rewrite(fs.readFileSync(configFile, "utf8")),
        );
        const deployment = JSON.parse(rewrite(fs.readFileSync(path.join(dir, "stack.json"), "utf8")));
        await stack.importStack(deployment);
        await fn(stack, emu, deployment.deployment);
      },
    );
  } finally {
    fs.rmSync(programDir, { recursive: true, force: true });
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The part of an exported deployment these checks read. */
interface Deployment {
  resources?: { urn: string; outputs?: Record<string, unknown> }[];
}

/**
 * Outputs a recorded resource had that it no longer has: a rename or removal breaks every
 * program that reads it (refresh compares inputs only, so it would not show this).
 */
function lostOutputs(recorded: Deployment, now: Deployment): string[] {
  const current = new Map((now.resources ?? []).map((r) => [r.urn, new Set(Object.keys(r.outputs ?? {}))]));
  return (recorded.resources ?? []).flatMap((r) => {
    const keys = current.get(r.urn);
    if (!keys) return [`${r.urn} (the whole resource)`];
    return Object.keys(r.outputs ?? {})
      .filter((k) => !keys.has(k))
      .map((k) => `${r.urn}: ${k}`);
  });
}

/** Every step the engine plans, from its structured events: `[op, urn]`. */
function planned(events: EngineEvent[]): [string, string][] {
  return events.flatMap((e) =>
    e.resourcePreEvent ? [[e.resourcePreEvent.metadata.op, e.resourcePreEvent.metadata.urn]] : [],
  ) as [string, string][];
}

async function platformIsEmpty(emu: RunningEmulator): Promise<void> {
  const state = await createControlClient(emu.url, emu.token).state();
  expect(state.volumes).toEqual([]);
  expect(state.certificates).toEqual([]);
}

describe.each(versions)("upgrade from the state %s recorded", (version) => {
  it("preview plans nothing and replaces nothing; refresh finds nothing; a change updates only that; destroy", async () => {
    await withRecordedStack(version, async (stack, emu, recorded) => {
      const events: EngineEvent[] = [];
      const preview = await stack.preview({ onEvent: (e) => events.push(e) });
      const steps = planned(events);
      expect(steps.length).toBeGreaterThan(10);
      expect(steps.filter(([op]) => op !== "same")).toEqual([]);
      expect(preview.changeSummary).not.toHaveProperty("replace");

      await stack.refresh({ expectNoChanges: true });
      expect(lostOutputs(recorded, (await stack.exportStack()).deployment)).toEqual([]);

      await stack.setConfig("retention", { value: "9" });
      const up = await stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(Object.keys(up.summary.resourceChanges ?? {}).sort()).toEqual(["same", "update"]);
      await stack.preview({ expectNoChanges: true });

      await stack.destroy();
      await platformIsEmpty(emu);
    });
  });

  it("refresh and destroy before any up run the provider text the old release left in the state", async () => {
    await withRecordedStack(version, async (stack, emu) => {
      await stack.refresh({ expectNoChanges: true });
      await stack.destroy();
      await platformIsEmpty(emu);
    });
  });
});
