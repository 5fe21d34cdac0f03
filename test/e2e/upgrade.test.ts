import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { createControlClient, type RunningEmulator } from "../../emulator";
import {
  type RecordedDeployment as Deployment,
  versions,
  withRecordedStack,
} from "../support/recorded-stack";

// State written by every recorded release (test/fixtures/upgrade/<version>, made by
// `npm run record-upgrade-fixture`) must keep working with the code of this checkout: a preview
// plans nothing (above all no replacement), refresh finds nothing, a small change updates only
// that, destroy removes everything; refresh and destroy also work before any `up`, when the
// engine runs the serialized provider text the old release left in the state.

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
