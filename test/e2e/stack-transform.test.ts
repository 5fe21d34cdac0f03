import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";

// Stack transforms (`pulumi.runtime.registerResourceTransform`) are run by the engine, which calls
// the program back through the nodejs language host: they need a host of today (the one an
// official CLI carries, or the one scripts/ensure-pulumi builds with the CLI).
describe("a stack transform on our Volume (both doors) through the real engine", () => {
  const e = useE2eEmulator();
  const retentionOf = async (id: unknown) =>
    (await e.api("GET", `/v1/apps/demo-app/volumes/${String(id)}`)).body.snapshot_retention;

  it("applies at up, and the next preview plans no change", async () => {
    await withStack(
      {
        programDir: programPath("stack-transform"),
        config: { ...platformConfig(e.emu), defaultRetention: "14" },
      },
      async ({ stack }) => {
        const up = await stack.up();
        expect(up.summary.result).toBe("succeeded");
        expect(up.outputs.dynRetention?.value).toBe(14);
        expect(up.outputs.plugRetention?.value).toBe(14);
        expect(up.outputs.ownRetention?.value).toBe(3);
        // What the platform holds: the transformed inputs reached the create requests.
        expect(await retentionOf(up.outputs.dynId?.value)).toBe(14);
        expect(await retentionOf(up.outputs.plugId?.value)).toBe(14);

        // The transform runs again at preview and gives the same inputs: nothing to do.
        await stack.preview({ expectNoChanges: true });

        // A new default is an in-place update of the two transformed volumes only.
        await stack.setConfig("defaultRetention", { value: "21" });
        const events: EngineEvent[] = [];
        await stack.preview({ onEvent: (ev) => events.push(ev) });
        const planned = events.flatMap((ev) => {
          const m = ev.resourcePreEvent?.metadata;
          return m && m.op !== "same" && !m.type.startsWith("pulumi:")
            ? [`${m.op} ${m.urn.split("::").pop()}`]
            : [];
        });
        expect(planned.sort()).toEqual(["update dyn", "update plug"]);
        const again = await stack.up();
        expect(again.outputs.dynRetention?.value).toBe(21);
        expect(again.outputs.plugRetention?.value).toBe(21);
        expect(await retentionOf(again.outputs.dynId?.value)).toBe(21);

        const destroyed = await stack.destroy();
        expect(destroyed.summary.result).toBe("succeeded");
      },
    );
  });
});
