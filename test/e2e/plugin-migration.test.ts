import fs from "node:fs";
import path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { createControlClient } from "../../emulator";
import { withRecordedStack } from "../support/recorded-stack";

// A stack the dynamic door recorded (the newest upgrade fixture) moves to the plugin door by
// changing the import to `pulumi-platform/plugin`: the classes alias their dynamic types, so the
// engine carries every resource over with no replacement and no request to the platform.
// VolumeSnapshot stays on the dynamic door (its dynamic form is a component: not aliased).

const NEWEST = "0.3.0";

/** A stack transformation aliasing each dynamic resource to its plugin type. */
const BACK_TO_DYNAMIC = `import * as pulumiBack from "@pulumi/pulumi";
pulumiBack.runtime.registerStackTransformation((a) =>
  a.type.startsWith("pulumi-nodejs:dynamic/platform:")
    ? { props: a.props, opts: pulumiBack.mergeOptions(a.opts, { aliases: [{ type: \`platform:index:\${a.type.split(":").pop()}\` }] }) }
    : undefined,
);
`;

/** The steps the engine plans for the platform's resources, `op type`, from its events. */
function plannedOps(events: EngineEvent[]): string[] {
  return events.flatMap((e) => {
    const meta = e.resourcePreEvent?.metadata;
    if (!meta || meta.type.startsWith("pulumi:")) return [];
    return [`${meta.op} ${meta.type}`];
  });
}

/** The program with its classes but `VolumeSnapshot` taken from the plugin door. */
function toPluginDoor(source: string): string {
  return source.replace(
    /import \{([^}]*)\} from "pulumi-platform";/,
    [
      'import { AcmeCertificate, CustomCertificate, PostgresPasswordRotation, Volume } from "pulumi-platform/plugin";',
      'import { VolumeSnapshot } from "pulumi-platform";',
    ].join("\n"),
  );
}

describe("moving a recorded stack from the dynamic classes to the plugin classes", () => {
  it("plans no replacement and makes no platform request; the plugin then manages the resources; moving back is the same", async () => {
    await withRecordedStack(NEWEST, async (stack, emu, _recorded, programDir) => {
      const program = path.join(programDir, "index.ts");
      const source = fs.readFileSync(program, "utf8");
      fs.writeFileSync(program, toPluginDoor(source));
      expect(fs.readFileSync(program, "utf8")).toContain('from "pulumi-platform/plugin"');

      const control = createControlClient(emu.url, emu.token);
      await control.requests.clear();
      const events: EngineEvent[] = [];
      const preview = await stack.preview({ onEvent: (e) => events.push(e) });
      const ops = plannedOps(events);
      expect(ops.filter((op) => !op.startsWith("same "))).toEqual([]);
      expect(ops).toContain("same platform:index:Volume");
      expect(ops).toContain("same platform:index:CustomCertificate");
      expect(preview.changeSummary).not.toHaveProperty("replace");

      await stack.up();
      const { deployment } = await stack.exportStack();
      const types = (deployment.resources as { type: string }[]).map((r) => r.type);
      expect(types.filter((t) => t === "platform:index:Volume")).toHaveLength(4);
      expect(types.filter((t) => t === "pulumi-nodejs:dynamic/platform:Volume")).toEqual([]);
      const mutating = (await control.requests.list()).filter(
        (r) => r.path.startsWith("/v1/") && !["GET", "HEAD"].includes(r.method),
      );
      expect(mutating).toEqual([]);

      await stack.preview({ expectNoChanges: true });
      await stack.refresh({ expectNoChanges: true });
      await stack.setConfig("retention", { value: "9" });
      const up = await stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });

      // Back to the dynamic classes, aliased to the plugin types for one `up` (docs/plugin.md).
      fs.writeFileSync(program, `${BACK_TO_DYNAMIC}${source}`);
      await control.requests.clear();
      const backEvents: EngineEvent[] = [];
      await stack.up({ onEvent: (e) => backEvents.push(e) });
      expect(plannedOps(backEvents).filter((op) => !op.startsWith("same "))).toEqual([]);
      expect(plannedOps(backEvents)).toContain("same pulumi-nodejs:dynamic/platform:Volume");
      expect((await control.requests.list()).filter((r) => r.method !== "GET")).toEqual([]);
      // The dynamic host runs refresh and destroy from the outputs the plugin wrote.
      await stack.refresh({ expectNoChanges: true });
      await stack.destroy();
      const state = await control.state();
      expect(state.volumes).toEqual([]);
      expect(state.certificates).toEqual([]);
    });
  });
});
