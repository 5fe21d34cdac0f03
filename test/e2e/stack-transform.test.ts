import path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/pulumi-engine";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { withInlineStack } from "../support/engine";
import { stackTransformProgram } from "./programs/stack-transform/program";

// Stack transforms (`pulumi.runtime.registerResourceTransform`) are run by the engine, which calls
// the program back. A `runtime: nodejs` program needs a nodejs language host of today for them (the
// one an official CLI carries); the CLI scripts/ensure-pulumi builds from Go modules has only the
// legacy host of sdk v3.68.0, which cannot (a preview of that project there fails with "TypeError:
// Cannot read properties of undefined (reading 'name')" from the program). So the program (programs/stack-transform/program.ts,
// which that project's index.ts runs for users) runs here as an Automation API INLINE program: this
// process serves the language runtime and the CLI connects to it, no host binary involved; the
// transform, the engine's callbacks, both doors' providers and the emulator are all real. The
// plugin door's provider `pulumi-resource-platform` is named in the project's `plugins.providers`
// (node_modules/.bin), which the CLI uses without the "using … from $PATH" notice.
const PLUGIN_DIR = path.join(repoRoot, "node_modules", ".bin");

describe("a stack transform on our Volume (both doors) through the real engine", () => {
  const e = useE2eEmulator();
  const retentionOf = async (id: unknown) =>
    (await e.api("GET", `/v1/apps/demo-app/volumes/${String(id)}`)).body.snapshot_retention;

  it("applies at up, and the next preview plans no change", async () => {
    await withInlineStack(
      {
        projectName: "stack-transform",
        program: async () => stackTransformProgram(),
        plugins: { providers: [{ name: "platform", path: PLUGIN_DIR }] },
        config: { ...platformConfig(e.emu), defaultRetention: "14" },
      },
      async ({ stack }) => {
        const upEvents: EngineEvent[] = [];
        const up = await stack.up({ onEvent: (ev) => upEvents.push(ev) });
        expect(up.summary.result).toBe("succeeded");
        // The plugin found through the project's `plugins.providers`: no notice, no warning at all.
        const warnings = upEvents.flatMap((ev) =>
          ev.diagnosticEvent?.severity === "warning" || ev.diagnosticEvent?.severity === "error"
            ? [ev.diagnosticEvent.message]
            : [],
        );
        expect(warnings).toEqual([]);
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
