import { describe, expect, it } from "vitest";
import {
  expectNoPlaintext,
  plainExport,
  platformConfig,
  RESPONSE_MODES,
  serializedProviders,
  useE2eEmulator,
} from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { observedPreview, observedUp } from "../support/observed";
import { step } from "../support/step";

// The lifecycle runs against the emulator's full answers and against its sparse ones (what the
// real platform may leave out or null).
describe.each(RESPONSE_MODES)(
  "Volume and VolumeSnapshot through the real engine (%s responses)",
  (responses) => {
    const e = useE2eEmulator({ responses });
    const volumeSize = async (id: string) =>
      (await e.api("GET", `/v1/apps/demo-app/volumes/${id}`)).body.size_gb;

    it("walks preview, up, no-change preview/refresh, growth, a rejected shrink, a new snapshot, drift and destroy", async () => {
      await withStack(
        { programDir: programPath("provider-volume"), config: platformConfig(e.emu) },
        async (ctx) => {
          const { stack } = ctx;
          const up = await step("preview and up", async () => {
            const preview = await stack.preview();
            expect(preview.changeSummary.create).toBe(5);

            const up = await stack.up();
            expect(up.outputs.dataSize?.value).toBe(10);
            expect(up.outputs.restoredState?.value).toBe("created");
            expect(up.outputs.restoredFrom?.value).toBe(up.outputs.snapshotId?.value);
            expect(String(up.outputs.snapshotDigest?.value)).toMatch(/^sha256:/);
            return up;
          });
          const dataId = String(up.outputs.dataId?.value);

          await step("no-change preview and refresh", async () => {
            await stack.preview({ expectNoChanges: true });
            await stack.refresh({ expectNoChanges: true });
          });

          await step("plain export", async () => {
            expectNoPlaintext(plainExport(ctx, stack.name, programPath("provider-volume")), e.emu.token, []);
            const { deployment } = await stack.exportStack();
            for (const p of serializedProviders(deployment)) {
              expect(p.size, p.type).toBeLessThanOrEqual(4096);
              expect(p.text).toContain('require("pulumi-platform/provider/runtime")');
            }
            // Registration caps stack traces (PlatformResource); the source positions the engine
            // records still lead to the program's own line.
            const volume = (
              deployment.resources as { type: string; stackTrace?: { sourcePosition?: string }[] }[]
            ).find((r) => r.type === "pulumi-nodejs:dynamic/platform:Volume");
            expect(volume?.stackTrace?.map((f) => f.sourcePosition)).toContainEqual(
              expect.stringMatching(/^project:\/\/\/index\.ts#\d+,\d+$/),
            );
          });

          await step("omitted sizeGb", async () => {
            // Removing sizeGb from the program plans nothing.
            await stack.setConfig("sizeGb", { value: "omit" });
            await stack.preview({ expectNoChanges: true });
          });

          await step("growth", async () => {
            // Growth and retention in one in-place update.
            await stack.setAllConfig({ sizeGb: { value: "20" }, retention: { value: "9" } });
            // The preview plans that update only: the snapshot fed from `volumeId` and the volume
            // restored from it do not preview as replacements (the id stays known).
            expect((await observedPreview(stack)).changes).toEqual(["update data"]);
            const grown = await stack.up();
            expect(grown.summary.resourceChanges).toMatchObject({ update: 1 });
            expect(grown.outputs.dataSize?.value).toBe(20);
            expect(grown.outputs.dataRetention?.value).toBe(9);
            expect(await volumeSize(dataId)).toBe(20);
          });

          await step("rejected shrink", async () => {
            // A shrink fails at preview and changes nothing.
            await stack.setConfig("sizeGb", { value: "5" });
            await expect(stack.preview()).rejects.toThrow(/volumes can only grow: 20 GB → 5 GB/);
            await expect(stack.up()).rejects.toThrow(/volumes can only grow: 20 GB → 5 GB/);
            expect(await volumeSize(dataId)).toBe(20);
            await stack.setConfig("sizeGb", { value: "20" });
          });

          const resnap = await step("new snapshot", async () => {
            // A new trigger takes a new snapshot; the volume restored from the old one is kept (a
            // restore is an event) and the up says so (its check: in the dynamic door, a message of
            // the stack), once: the next preview is quiet.
            await stack.setConfig("snapshotGeneration", { value: "2" });
            const retaken = await observedUp(stack);
            const outputs = retaken.result.outputs;
            expect(outputs.snapshotId?.value).not.toBe(up.outputs.snapshotId?.value);
            expect(retaken.changes).toEqual(["replace data-snap"]);
            expect(outputs.restoredId?.value).toBe(up.outputs.restoredId?.value);
            expect(outputs.restoredFrom?.value).toBe(up.outputs.snapshotId?.value);
            expect(retaken.output).toMatch(
              /volume restored: snapshotId changes from vs_\w+ to vs_\w+; nothing is restored from vs_\w+\. A restore is an event.*replaceOnChanges: \["snapshotId"\].*pulumi up --replace <urn>/,
            );
            expect((await observedPreview(stack)).output).not.toMatch(/snapshotId changes from/);
            // Restoring again is the user's replace of the volume.
            const { deployment } = await stack.exportStack();
            const urn = (deployment.resources as { urn: string }[]).find((r) =>
              r.urn.endsWith("::restored"),
            )?.urn;
            const resnap = await stack.up({ replace: [String(urn)] });
            expect(resnap.summary.resourceChanges).toMatchObject({ replace: 1 });
            expect(resnap.outputs.restoredId?.value).not.toBe(up.outputs.restoredId?.value);
            expect(resnap.outputs.restoredFrom?.value).toBe(resnap.outputs.snapshotId?.value);
            await stack.preview({ expectNoChanges: true });
            return resnap;
          });

          await step("drift", async () => {
            // Drift made elsewhere: growth and retention, then refresh shows it.
            await e.api("PUT", `/v1/apps/demo-app/volumes/${dataId}/extend`, { size_gb: 30 });
            await e.api("PUT", `/v1/apps/demo-app/volumes/${dataId}`, { snapshot_retention: 12 });
            const drift = await stack.refresh();
            expect(drift.summary.resourceChanges).toMatchObject({ update: 1 });
            expect(drift.stdout).toMatch(/snapshotRetention/);
            // The unchanged program plans the retention back, and nothing for the size, which grew
            // beyond the program's 20 GB elsewhere (a snapshot fed from `volumeId` stays put).
            const replan = await observedPreview(stack);
            expect(replan.changes).toEqual(["update data"]);
            // Retention caught up: nothing to do, and a warning says the size grew elsewhere.
            await stack.setConfig("retention", { value: "12" });
            const grown = await observedPreview(stack);
            expect(grown.changes).toEqual([]);
            expect(grown.warnings).toContainEqual(
              expect.stringMatching(
                /^data: volume data \(vol_\w+\) is 30 GB at the platform, more than sizeGb 20/,
              ),
            );
            // The program catches up with reality: nothing to do, no warning.
            await stack.setAllConfig({ sizeGb: { value: "30" }, retention: { value: "12" } });
            expect((await observedPreview(stack)).warnings).toEqual([]);
            await stack.preview({ expectNoChanges: true });
          });

          await step("deleted elsewhere", async () => {
            // Deleted elsewhere: refresh drops it from the stack.
            const restoredId = String(resnap.outputs.restoredId?.value);
            await e.api("DELETE", `/v1/apps/demo-app/volumes/${restoredId}`);
            const gone = await stack.refresh();
            expect(gone.summary.resourceChanges).toMatchObject({ delete: 1 });
          });

          await step("destroy", async () => {
            await stack.destroy();
            const state = await e.state();
            expect(state.volumes).toEqual([]);
            // Snapshots are left to retention (delete does nothing at the platform).
            await e.control.time.advance(13 * 24 * 3600 * 1000);
            expect((await e.state()).snapshots).toEqual([]);
          });
        },
      );
    });
  },
);
