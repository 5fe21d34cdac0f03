import fs from "node:fs";
import path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { createControlClient } from "../../emulator";
import { observedUp } from "../support/observed";
import { versions, withRecordedStack } from "../support/recorded-stack";

// A stack the dynamic door recorded (each upgrade fixture: two volumes, a snapshot of one, a
// volume restored from it, a fork, certificates and a rotation) moves to the plugin door by
// changing the import to `pulumi-platform/plugin`, and back: every resource is carried over with
// no replacement and no request to the platform, the snapshot and the restored volume included.
// Between the moves, a new snapshot through the plugin keeps the volume restored from the old one.

/** A stack transformation aliasing each dynamic resource to its plugin type (docs/plugin.md). */
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

/** The program with every class taken from the plugin door. */
function toPluginDoor(source: string): string {
  return source.replace('} from "pulumi-platform";', '} from "pulumi-platform/plugin";');
}

interface Recorded {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
}

/** The recorded resource named `name` of type `type` (the last part of its URN's type). */
function resource(resources: Recorded[], type: string, name: string): Recorded | undefined {
  return resources.find((r) => r.urn.endsWith(`::${name}`) && r.type === type);
}

/** Requests that change something at the platform. */
async function mutatingRequests(control: ReturnType<typeof createControlClient>) {
  return (await control.requests.list()).filter(
    (r) => r.path.startsWith("/v1/") && !["GET", "HEAD"].includes(r.method),
  );
}

describe.each(versions)(
  "moving the stack %s recorded from the dynamic classes to the plugin classes",
  (version) => {
    it("plans only `same` (the snapshot and the restored volume too) and makes no platform request, both ways", async () => {
      await withRecordedStack(version, async (stack, emu, recorded, programDir) => {
        const program = path.join(programDir, "index.ts");
        const source = fs.readFileSync(program, "utf8");
        fs.writeFileSync(program, toPluginDoor(source));
        expect(fs.readFileSync(program, "utf8")).toContain(
          'VolumeSnapshot,\n} from "pulumi-platform/plugin"',
        );
        const before = recorded.resources as Recorded[];
        const restoredId = resource(before, "pulumi-nodejs:dynamic/platform:Volume", "restored")?.id;
        const snapshotId = resource(
          before,
          "pulumi-nodejs:dynamic/platform:VolumeSnapshotRequest",
          "data-snapshot",
        )?.id;
        expect(restoredId).toMatch(/^vol_/);
        expect(snapshotId).toMatch(/^vs_/);

        const control = createControlClient(emu.url, emu.token);
        await control.requests.clear();
        const events: EngineEvent[] = [];
        const preview = await stack.preview({ onEvent: (e) => events.push(e) });
        const ops = plannedOps(events);
        expect(ops.filter((op) => !op.startsWith("same "))).toEqual([]);
        expect(ops).toContain("same platform:index:Volume");
        expect(ops).toContain("same platform:index:CustomCertificate");
        expect(ops).toContain("same platform:index:VolumeSnapshot");
        expect(preview.changeSummary).not.toHaveProperty("replace");
        expect(preview.changeSummary).not.toHaveProperty("delete");

        await stack.up();
        const moved = (await stack.exportStack()).deployment.resources as Recorded[];
        const types = moved.map((r) => r.type);
        expect(types.filter((t) => t === "platform:index:Volume")).toHaveLength(4);
        expect(types.filter((t) => t.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
        // The snapshot the dynamic door took is now the plugin's custom VolumeSnapshot, same id.
        const pluginSnapshot = moved.find((r) => r.type === "platform:index:VolumeSnapshot" && r.custom);
        expect(pluginSnapshot?.id).toBe(snapshotId);
        expect(resource(moved, "platform:index:Volume", "restored")?.id).toBe(restoredId);
        expect(await mutatingRequests(control)).toEqual([]);

        await stack.preview({ expectNoChanges: true });
        await stack.refresh({ expectNoChanges: true });
        await stack.setConfig("retention", { value: "9" });
        const up = await stack.up();
        expect(up.summary.resourceChanges).toMatchObject({ update: 1 });

        // A new snapshot (new triggers) through the plugin: the volume restored from the old one is kept.
        const retriggered = source.replace('triggers: { generation: "1" }', 'triggers: { generation: "2" }');
        fs.writeFileSync(program, toPluginDoor(retriggered));
        const retaken = await observedUp(stack);
        expect(retaken.changes).toEqual(["replace data-snapshot"]);
        expect(retaken.warnings).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^restored: volume restored: snapshotId changes from ${snapshotId} to vs_\\w+; nothing is restored from vs_\\w+\\. A restore is an event: the volume and its data are kept`,
            ),
          ),
        );
        const retakenState = (await stack.exportStack()).deployment.resources as Recorded[];
        expect(resource(retakenState, "platform:index:Volume", "restored")?.id).toBe(restoredId);
        const newSnapshotId = retakenState.find(
          (r) => r.type === "platform:index:VolumeSnapshot" && r.custom,
        )?.id;
        expect(newSnapshotId).not.toBe(snapshotId);

        // Back to the dynamic classes, aliased to the plugin types for one `up` (docs/plugin.md).
        fs.writeFileSync(program, `${BACK_TO_DYNAMIC}${retriggered}`);
        await control.requests.clear();
        const backEvents: EngineEvent[] = [];
        await stack.up({ onEvent: (e) => backEvents.push(e) });
        const backOps = plannedOps(backEvents);
        expect(backOps.filter((op) => !op.startsWith("same "))).toEqual([]);
        expect(backOps).toContain("same pulumi-nodejs:dynamic/platform:Volume");
        expect(backOps).toContain("same pulumi-nodejs:dynamic/platform:VolumeSnapshotRequest");
        expect(await mutatingRequests(control)).toEqual([]);
        const back = (await stack.exportStack()).deployment.resources as Recorded[];
        expect(resource(back, "pulumi-nodejs:dynamic/platform:Volume", "restored")?.id).toBe(restoredId);
        expect(
          resource(back, "pulumi-nodejs:dynamic/platform:VolumeSnapshotRequest", "data-snapshot")?.id,
        ).toBe(newSnapshotId);
        expect(back.filter((r) => r.type.startsWith("platform:index:") && r.custom)).toEqual([]);

        // The dynamic host runs refresh and destroy from the outputs the plugin wrote.
        await stack.refresh({ expectNoChanges: true });
        await stack.destroy();
        const state = await control.state();
        expect(state.volumes).toEqual([]);
        expect(state.certificates).toEqual([]);
      });
    });
  },
);
