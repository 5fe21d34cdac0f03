import { describe, expect, it } from "vitest";
import { programPath, withStack } from "../support/engine";

// Proof that the real engine runs here: one trivial dynamic resource through the whole lifecycle.
describe("the real Pulumi engine", () => {
  it("walks preview, up, no-change preview and refresh, an in-place update, and destroy", async () => {
    await withStack({ programDir: programPath("smoke"), config: { message: "hello" } }, async ({ stack }) => {
      const preview = await stack.preview();
      expect(preview.changeSummary.create).toBe(2);

      const up = await stack.up();
      expect(up.summary.result).toBe("succeeded");
      const nodeVersion = String(up.outputs.nodeVersion?.value);
      console.log(`Pulumi program ran on Node ${nodeVersion}`);
      expect(Number(/^v(\d+)\./.exec(nodeVersion)?.[1])).toBeGreaterThanOrEqual(22);
      expect(up.outputs.message?.value).toBe("hello");

      await stack.preview({ expectNoChanges: true });
      await stack.refresh({ expectNoChanges: true });

      await stack.setConfig("message", { value: "hello again" });
      const update = await stack.up();
      expect(update.summary.resourceChanges?.update).toBe(1);
      expect(update.outputs.updates?.value).toBe(1);
      expect(update.outputs.message?.value).toBe("hello again");

      const destroy = await stack.destroy();
      expect(destroy.summary.resourceChanges?.delete).toBe(2);
      expect((await stack.exportStack()).deployment.resources ?? []).toHaveLength(0);
    });
  });
});
