import type { Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import {
  type Observed,
  observedPreview,
  observedRefresh,
  observedUp,
  stateValue as value,
} from "../support/observed";
import { step } from "../support/step";

// What a preview plans is what the following `up` does, through the real engine and both doors:
// each kind's one answer for a diff (provider/model/change-plan) against the requests the `up` sends
// (the emulator's request log). The plugin names the inputs the kind's answer changes
// (`detailedDiff`, preview --json's `diffReasons`); the dynamic host forwards only whether
// anything changes and what replaces, and the engine's --diff then compares the recorded inputs.
// test/integration/provider/diff-answer.test.ts checks every kind's answer for each kind of input.

const program = programPath("lifetime");
const APP = "demo-app";

/** The warning of a restored volume whose snapshotId moved (said by check, once). */
const MOVED = /volume data_restored: snapshotId changes from (vs_\w+) to (vs_\w+); nothing is restored/;
const MAY_MOVE = /volume data_restored: snapshotId \(vs_\w+\) may change at this up/;

describe.concurrent.each(["dynamic", "plugin"])("the planned diff is what the up sends (%s door)", (door) => {
  const e = useE2eEmulator();

  /** The requests of one command that change something at the platform, as `METHOD route`. */
  async function sent<R>(command: () => Promise<R>): Promise<{ result: R; requests: string[] }> {
    await e.control.requests.clear();
    const result = await command();
    const ids = new Map<string, string>();
    const requests = (await e.requests())
      .filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"))
      .map((r) => {
        const path = r.path.replace(/vol_[a-z0-9]+/g, (id) => {
          if (!ids.has(id)) ids.set(id, `{vol${ids.size + 1}}`);
          return ids.get(id) ?? id;
        });
        return `${r.method} ${path}`;
      });
    return { result, requests };
  }

  /**
   * The distinct warnings a command printed about the restored volume's snapshotId (either door's
   * way: under the resource, or the dynamic host's as the stack's; the CLI repeats each in its summary).
   */
  const sourceWarnings = (o: Observed<unknown>) => [
    ...new Set(o.output.match(/volume data_restored: snapshotId[^\n]*/g) ?? []),
  ];

  const previewWithDiff = (stack: Stack) => observedPreview(stack, { diff: true });

  it("a volume grown elsewhere whose retention changes; a retaken snapshot; a moved snapshotId beside a change; replaceOnChanges", async () => {
    const config = { ...platformConfig(e.emu), parts: "quickstart,volumes", door, snapshotTriggers: "1" };
    await withStack({ programDir: program, config }, async ({ stack }) => {
      const first = await step("up", () => stack.up());
      const logsId = String(value(first, "logsId"));
      const restoredId = String(value(first, "restoredId"));
      const firstSnapshot = String(value(first, "snapshotId"));
      const volume = async (id: string) => (await e.api("GET", `/v1/apps/${APP}/volumes/${id}`)).body;

      await step(
        "grown to 10 GB elsewhere, then snapshotRetention changes: only it is planned and sent",
        async () => {
          await e.api("PUT", `/v1/apps/${APP}/volumes/${logsId}/extend`, { size_gb: 10 });
          await observedRefresh(stack);
          await stack.setConfig("logsRetention", { value: "9" });
          const preview = await previewWithDiff(stack);
          expect(preview.changes).toEqual(["update logs"]);
          expect(preview.planned.logs).toEqual(
            door === "plugin"
              ? {
                  op: "update",
                  diffs: ["snapshotRetention"],
                  replaceReasons: [],
                  detailedDiff: { snapshotRetention: "update" },
                }
              : { op: "update", diffs: [], replaceReasons: [], detailedDiff: undefined },
          );
          // What --diff shows: the retention, not the size the program does not change.
          expect(preview.output).toMatch(/snapshotRetention\s*:\s*5\s*=>\s*9/);
          expect(preview.output).not.toMatch(/sizeGb\s*:\s*10\s*=>\s*3/);
          const up = await sent(() => observedUp(stack));
          expect(up.result.changes).toEqual(["update logs"]);
          expect(up.requests).toEqual([`PUT /v1/apps/${APP}/volumes/{vol1}`]);
          expect(await volume(logsId)).toMatchObject({ size_gb: 10, snapshot_retention: 9 });
          await stack.preview({ expectNoChanges: true });
        },
      );

      const second = await step("a retaken snapshot: said at its preview and up, then quiet", async () => {
        await stack.setConfig("snapshotTriggers", { value: "2" });
        const preview = await observedPreview(stack);
        expect(preview.changes).toEqual(["replace data-snap"]);
        expect(sourceWarnings(preview)).toEqual([expect.stringMatching(MAY_MOVE)]);
        const up = await sent(() => observedUp(stack));
        expect(up.result.changes).toEqual(["replace data-snap"]);
        expect(up.requests).toEqual([`POST /v1/apps/${APP}/volumes/{vol1}/snapshots`]);
        const retaken = String(value(up.result.result, "snapshotId"));
        expect(retaken).not.toBe(firstSnapshot);
        const said = sourceWarnings(up.result);
        expect(said).toEqual([expect.stringMatching(MOVED)]);
        expect(said[0]?.match(MOVED)?.slice(1)).toEqual([firstSnapshot, retaken]);
        if (door === "plugin")
          expect(up.result.warnings).toContainEqual(expect.stringMatching(/^restored: /));
        expect(value(up.result.result, "restoredId")).toBe(restoredId);
        expect(value(up.result.result, "restoredFrom")).toBe(firstSnapshot);
        for (const run of [1, 2]) {
          const quiet = await observedPreview(stack);
          expect(quiet.changes, `preview ${run}`).toEqual([]);
          expect(sourceWarnings(quiet), `preview ${run}`).toEqual([]);
          // (The logs volume's grown-elsewhere warning names what silences it, and stays.)
          expect(
            quiet.warnings.filter((w) => !w.startsWith("logs: ")),
            `preview ${run}`,
          ).toEqual([]);
        }
        return retaken;
      });

      await step(
        "a moved snapshotId beside another change: only the other change is planned and sent",
        async () => {
          await stack.setAllConfig({ snapshotTriggers: { value: "3" }, restoredRetention: { value: "4" } });
          const preview = await previewWithDiff(stack);
          expect(preview.changes.sort()).toEqual(["replace data-snap", "update restored"]);
          // The program adds snapshotRetention: an add of the input, an update at the platform.
          if (door === "plugin") {
            expect(preview.planned.restored).toEqual({
              op: "update",
              diffs: ["snapshotRetention"],
              replaceReasons: [],
              detailedDiff: { snapshotRetention: "add" },
            });
          }
          const up = await sent(() => observedUp(stack));
          expect(up.result.changes.sort()).toEqual(["replace data-snap", "update restored"]);
          expect(up.requests).toEqual([
            `POST /v1/apps/${APP}/volumes/{vol1}/snapshots`,
            `PUT /v1/apps/${APP}/volumes/{vol2}`,
          ]);
          expect(value(up.result.result, "restoredId")).toBe(restoredId);
          expect(value(up.result.result, "restoredFrom")).toBe(firstSnapshot);
          expect(await volume(restoredId)).toMatchObject({ snapshot_retention: 4 });
          expect(value(up.result.result, "snapshotId")).not.toBe(second);
          const quiet = await observedPreview(stack);
          expect(quiet.changes).toEqual([]);
          expect(sourceWarnings(quiet)).toEqual([]);
        },
      );

      await step(
        "replaceOnChanges: [snapshotId]: a retaken snapshot plans and carries out the restore",
        async () => {
          await stack.setAllConfig({
            snapshotTriggers: { value: "4" },
            restoredReplaceOnChanges: { value: "snapshotId" },
          });
          const preview = await observedPreview(stack);
          expect(preview.changes.sort()).toEqual(["replace data-snap", "replace restored"]);
          expect(preview.planned.restored?.replaceReasons).toEqual(["snapshotId"]);
          if (door === "plugin")
            expect(preview.planned.restored?.detailedDiff).toEqual({ snapshotId: "update-replace" });
          expect(sourceWarnings(preview)).toEqual([]);
          const up = await sent(() => observedUp(stack));
          expect(up.result.changes.sort()).toEqual(["replace data-snap", "replace restored"]);
          // The snapshot, the restore from it (create before delete), the old volume's delete.
          expect(up.requests).toEqual([
            `POST /v1/apps/${APP}/volumes/{vol1}/snapshots`,
            `POST /v1/apps/${APP}/volumes`,
            `DELETE /v1/apps/${APP}/volumes/{vol2}`,
          ]);
          const snapshotId = value(up.result.result, "snapshotId");
          expect(value(up.result.result, "restoredFrom")).toBe(snapshotId);
          expect(value(up.result.result, "restoredId")).not.toBe(restoredId);
          const quiet = await observedPreview(stack);
          expect(quiet.changes).toEqual([]);
          expect(sourceWarnings(quiet)).toEqual([]);
        },
      );

      await step(
        "replaceWith: [snap] (the engine's option, every language): a retaken snapshot restores, and nothing advises",
        async () => {
          await stack.removeConfig("restoredReplaceOnChanges");
          await stack.setAllConfig({
            snapshotTriggers: { value: "5" },
            restoredReplaceWithSnapshot: { value: "true" },
          });
          const preview = await observedPreview(stack);
          expect(preview.changes.sort()).toEqual(["replace data-snap", "replace restored"]);
          expect(sourceWarnings(preview)).toEqual([]);
          const up = await sent(() => observedUp(stack));
          expect(up.result.changes.sort()).toEqual(["replace data-snap", "replace restored"]);
          expect(sourceWarnings(up.result)).toEqual([]);
          expect(value(up.result.result, "restoredFrom")).toBe(value(up.result.result, "snapshotId"));
          const quiet = await observedPreview(stack);
          expect(quiet.changes).toEqual([]);
          expect(sourceWarnings(quiet)).toEqual([]);
        },
      );

      await step(
        "a shrink is refused alone, and with replaceOnChanges: [sizeGb] plans and carries out the replace",
        async () => {
          await stack.removeConfig("restoredReplaceWithSnapshot");
          await stack.setConfig("restoredSizeGb", { value: "5" });
          const grown = await observedUp(stack);
          expect(grown.changes).toEqual(["update restored"]);
          const before = String(value(grown.result, "restoredId"));
          await stack.setConfig("restoredSizeGb", { value: "4" });
          await expect(stack.preview()).rejects.toThrow(/volumes can only grow: 5 GB → 4 GB/);
          await stack.setConfig("restoredReplaceOnChanges", { value: "sizeGb" });
          const preview = await observedPreview(stack);
          expect(preview.changes).toEqual(["replace restored"]);
          expect(preview.planned.restored?.replaceReasons).toEqual(["sizeGb"]);
          const up = await sent(() => observedUp(stack));
          expect(up.result.changes).toEqual(["replace restored"]);
          // The restore (of the 3 GB snapshot, then grown to the 4 GB asked), then the old volume's delete.
          expect(up.requests).toEqual([
            `POST /v1/apps/${APP}/volumes`,
            `PUT /v1/apps/${APP}/volumes/{vol1}/extend`,
            `DELETE /v1/apps/${APP}/volumes/{vol2}`,
          ]);
          expect(value(up.result.result, "restoredId")).not.toBe(before);
          expect(value(up.result.result, "restoredSize")).toBe(4);
          expect((await observedPreview(stack)).changes).toEqual([]);
        },
      );
    });
  }, 1_500_000);
});
