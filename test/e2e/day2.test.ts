import type { Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { days, makeCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { observedPreview, observedRefresh, observedUp, PEM, stateValue as value } from "../support/observed";
import { step } from "../support/step";
import { fakeTimeEnv, StackClock } from "../support/time-travel";

// Day 2: what happens to an unchanged program as time passes and people change things by hand,
// one case at a time, through the real engine. Time moves on the emulator's clock and, through
// libfaketime, on the clock of the program and the provider (see ../support/time-travel).

const program = programPath("lifetime");

/** An output of the resource named `name` as the stack's state records it. */
async function recorded(stack: Stack, name: string, key: string): Promise<unknown> {
  const { deployment } = await stack.exportStack();
  const resources = deployment.resources as { urn: string; outputs?: Record<string, unknown> }[];
  return resources.find((r) => r.urn.endsWith(`::${name}`))?.outputs?.[key];
}

describe("a volume restored from a snapshot outlives the snapshot's retention", () => {
  const e = useE2eEmulator();

  it("refresh keeps the aged-out snapshot in the stack and up replaces nothing", async () => {
    const config = { ...platformConfig(e.emu), parts: "quickstart", dataRetention: "2" };
    await withStack({ programDir: program, config, env: fakeTimeEnv() }, async ({ stack }) => {
      const clock = new StackClock(e, stack);
      const first = await step("up", () => stack.up());
      const snapshotId = value(first, "snapshotId");
      const restoredId = value(first, "restoredId");

      await clock.to(10);
      await step("refresh at day 10", async () => {
        expect((await e.state()).snapshots.map((s: { id: string }) => s.id)).not.toContain(snapshotId);
        const refresh = await observedRefresh(stack);
        expect(refresh.result.summary.resourceChanges).not.toHaveProperty("delete");
      });
      await step("preview and up at day 10", async () => {
        const preview = await observedPreview(stack);
        expect(preview.changes).toEqual([]);
        const up = await observedUp(stack);
        expect(up.changes).toEqual([]);
        expect(value(up.result, "restoredId")).toBe(restoredId);
        expect(value(up.result, "snapshotId")).toBe(snapshotId);
        expect(value(up.result, "snapshotListed")).toBe(false);
        expect(value(up.result, "snapshotLastSeenAt")).toEqual(expect.any(String));
        const volumes = (await e.state()).volumes.map((v: { id: string }) => v.id);
        expect(volumes).toContain(restoredId);
        expect(value(first, "snapshotListed")).toBe(true);
      });
    });
  });
});

/** Config of the certificates part with one custom certificate for `api.life.example.com`. */
async function certificateConfig(e: ReturnType<typeof useE2eEmulator>, validDays: number) {
  const chain = await makeCert(API_HOST, [API_HOST], { to: Date.now() + days(validDays) });
  return {
    ...platformConfig(e.emu),
    parts: "certificates,volumes",
    apiChain: chain.cert,
    apiKey: { value: chain.key, secret: true },
  };
}

const API_HOST = "api.life.example.com";

describe("a custom certificate imported before it expired never blocks the stack", () => {
  const e = useE2eEmulator();

  it("an unrelated change deploys after the certificate expired; only a new expired chain is refused", async () => {
    const config = await certificateConfig(e, 20);
    await withStack({ programDir: program, config, env: fakeTimeEnv() }, async ({ stack }) => {
      const clock = new StackClock(e, stack);
      await step("up", () => stack.up());

      await clock.to(25);
      await step("an unrelated change 5 days after expiry deploys, with the EXPIRED warning", async () => {
        await stack.setConfig("logsRetention", { value: "9" });
        const up = await observedUp(stack);
        expect(up.changes).toEqual(["update logs"]);
        expect(value(up.result, "logsRetention")).toBe(9);
        expect(up.output).not.toMatch(PEM);
        expect(up.warnings).toContainEqual(
          expect.stringMatching(
            /^api: EXPIRED: the custom certificate of api\.life\.example\.com expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(5 days ago\)/,
          ),
        );
      });

      await step("refresh records the days left", async () => {
        await observedRefresh(stack);
        expect(await recorded(stack, "api", "expiresInDays")).toBe(-6);
      });

      await step(
        "a new chain that is already expired is still refused at preview, without PEM text",
        async () => {
          const expired = await makeCert(API_HOST, [API_HOST], { to: Date.now() + days(24) });
          await stack.setAllConfig({
            apiChain: { value: expired.cert },
            apiKey: { value: expired.key, secret: true },
          });
          const err = await stack.preview().then(
            () => undefined,
            (x: Error) => x,
          );
          expect(err?.message).toMatch(/the certificate expired on/);
          expect(err?.message).not.toMatch(PEM);
        },
      );
    });
  });
});

describe("a custom certificate about to expire", () => {
  const e = useE2eEmulator();

  it("is warned about from expiryWarningDays (default 30) before, naming the hostname and the date", async () => {
    const config = await certificateConfig(e, 20);
    await withStack({ programDir: program, config, env: fakeTimeEnv() }, async ({ stack }) => {
      const clock = new StackClock(e, stack);
      const first = await step("up: 20 days left, inside the default window", () => observedUp(stack));
      expect(first.warnings).toContainEqual(expect.stringMatching(/^api: .* \(in 19 days\)/));

      await clock.to(5);
      await step("15 days left with expiryWarningDays 10: no warning", async () => {
        await stack.setConfig("expiryWarningDays", { value: "10" });
        const up = await observedUp(stack);
        expect(up.changes).toEqual(["update api"]);
        expect(up.warnings).toEqual([]);
        await observedRefresh(stack);
        expect(await recorded(stack, "api", "expiresInDays")).toBe(14);
      });

      await clock.to(11);
      await step("9 days left: preview warns", async () => {
        const preview = await observedPreview(stack);
        expect(preview.changes).toEqual([]);
        expect(preview.warnings).toEqual([
          expect.stringMatching(
            /^api: the custom certificate of api\.life\.example\.com expires on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 8 days\): import a renewed chain/,
          ),
        ]);
        expect(preview.output).not.toMatch(PEM);
      });
    });
  });
});

// Through both doors (issue 30): the dynamic classes and the provider plugin's.
describe.concurrent.each(["dynamic", "plugin"])("a volume grown outside the stack (%s door)", (door) => {
  const e = useE2eEmulator();

  it("plans nothing for the unchanged program, grows in place above the platform's size, refuses the program's own shrink", async () => {
    const config = { ...platformConfig(e.emu), parts: "volumes", door };
    await withStack({ programDir: program, config }, async ({ stack }) => {
      const first = await step("up", () => stack.up());
      const id = String(value(first, "logsId"));
      const size = async () => (await e.api("GET", `/v1/apps/demo-app/volumes/${id}`)).body.size_gb;

      await step("grown to 10 GB elsewhere, refresh, preview and up of the unchanged program", async () => {
        await e.api("PUT", `/v1/apps/demo-app/volumes/${id}/extend`, { size_gb: 10 });
        await observedRefresh(stack);
        const preview = await observedPreview(stack);
        expect(preview.changes).toEqual([]);
        expect(preview.warnings).toContainEqual(
          expect.stringMatching(
            /^logs: volume logs \(vol_\w+\) is 10 GB at the platform, more than sizeGb 3/,
          ),
        );
        expect(preview.output).toMatch(
          /\(logs\):\s+warning: volume logs \(vol_\w+\) is 10 GB at the platform/,
        );
        const up = await observedUp(stack);
        expect(up.changes).toEqual([]);
        expect(value(up.result, "logsSize")).toBe(10);
        expect(await size()).toBe(10);
      });

      await step("raising sizeGb above the platform's size grows it", async () => {
        await stack.setConfig("logsSizeGb", { value: "12" });
        const up = await observedUp(stack);
        expect(up.changes).toEqual(["update logs"]);
        expect(await size()).toBe(12);
        expect(up.warnings).toEqual([]);
      });

      await step("lowering sizeGb below the program's own value is refused at preview", async () => {
        await stack.setConfig("logsSizeGb", { value: "11" });
        await expect(stack.preview()).rejects.toThrow(/volumes can only grow: 12 GB → 11 GB/);
        expect(await size()).toBe(12);
      });
    });
  });
});

describe("scheduled password rotation", () => {
  const e = useE2eEmulator();

  it("rotates once rotationDays have passed: preview shows the replace, refresh never rotates", async () => {
    const config = { ...platformConfig(e.emu), parts: "rotation", rotationDays: "30" };
    await withStack({ programDir: program, config, env: fakeTimeEnv() }, async ({ stack }) => {
      const clock = new StackClock(e, stack);
      const first = await step("up", () => stack.up());
      const rotatedAt = Date.parse(String(value(first, "scheduledRotatedAt")));
      // Scheduled at check, moments before the rotation itself.
      const next = Date.parse(String(value(first, "scheduledNextRotationAt")));
      expect(Math.abs(next - (rotatedAt + days(30)))).toBeLessThan(60_000);

      await clock.to(29);
      await step("not due at day 29", async () => {
        expect((await observedPreview(stack)).changes).toEqual([]);
      });

      await clock.to(31);
      await step("due at day 31: refresh keeps the password, preview plans the rotation", async () => {
        const refresh = await observedRefresh(stack);
        expect(Object.keys(refresh.result.summary.resourceChanges ?? {})).toEqual(["same"]);
        const preview = await observedPreview(stack);
        expect(preview.changes).toEqual(["replace scheduled"]);
      });

      await step("up rotates the scheduled one only", async () => {
        const up = await observedUp(stack);
        expect(up.changes).toEqual(["replace scheduled"]);
        expect(value(up.result, "scheduledPassword")).not.toBe(value(first, "scheduledPassword"));
        expect(Date.parse(String(value(up.result, "scheduledRotatedAt")))).toBeGreaterThanOrEqual(
          rotatedAt + days(31),
        );
        expect(value(up.result, "manualRotatedAt")).toBe(value(first, "manualRotatedAt"));
        expect((await observedPreview(stack)).changes).toEqual([]);
      });
    });
  });
});
