import { describe, expect, it } from "vitest";
import { days, makeCert } from "../support/certs";
import {
  expectNoPlaintext,
  plainExport,
  platformConfig,
  RESPONSE_MODES,
  useE2eEmulator,
} from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { step } from "../support/step";

const keyBody = (pem: string) => pem.split("\n").slice(1, 3).join("\n");

// The lifecycle runs against the emulator's full answers and against its sparse ones (what the
// real platform may leave out or null).
describe.each(RESPONSE_MODES)(
  "AcmeCertificate and CustomCertificate through the real engine (%s responses)",
  (responses) => {
    const e = useE2eEmulator({ responses });
    const hostnames = async (): Promise<string[]> =>
      ((await e.state()).certificates ?? []).map((c) => c.hostname);

    it("walks preview, up, no-change preview/refresh, rotation, drift, coexistence and destroy", async () => {
      const first = await makeCert("www.example.com", ["www.example.com"], { to: Date.now() + days(90) });
      const second = await makeCert("www.example.com", ["www.example.com"], { to: Date.now() + days(60) });
      const programDir = programPath("provider-certificates");
      const config = {
        ...platformConfig(e.emu),
        fullchain: first.cert,
        privateKey: { value: first.key, secret: true },
      };
      await withStack({ programDir, config }, async (ctx) => {
        const { stack } = ctx;
        const up = await step("preview and up", async () => {
          const preview = await stack.preview();
          expect(preview.changeSummary.create).toBe(4);
          const result = await stack.up();
          // The status is the hostname's: which pending state shows depends on which kind came first.
          expect(result.outputs.acmeStatus?.value).toMatch(/^pending_(validation|ownership)$/);
          expect(result.outputs.customStatus?.value).toBe("pending_ownership");
          expect(result.outputs.ownershipRecord?.value).toMatchObject({
            type: "TXT",
            name: "_platform-ownership.www.example.com",
          });
          expect(result.outputs.acmeRequirements?.value).toMatchObject({ cname: expect.any(String) });
          expect(result.outputs.wildcardHostname?.value).toBe("*.apps.example.com");
          expect(result.outputs.wildcardChallenge?.value).toMatchObject({
            name: "_acme-challenge.apps.example.com",
          });
          expect(String(result.outputs.issuer?.value)).toContain("www.example.com");
          expect((await hostnames()).sort()).toEqual(["*.apps.example.com", "www.example.com"]);
          return result;
        });
        const firstExpiry = String(up.outputs.expiresAt?.value);

        await step("no-change preview and refresh", async () => {
          await stack.preview({ expectNoChanges: true });
          await stack.refresh({ expectNoChanges: true });
          expectNoPlaintext(plainExport(ctx, stack.name, programDir), e.emu.token, [keyBody(first.key)]);
        });

        await step("rotation (a new chain and key imported again in place)", async () => {
          await stack.setAllConfig({
            fullchain: { value: second.cert },
            privateKey: { value: second.key, secret: true },
          });
          const rotated = await stack.up();
          expect(rotated.summary.resourceChanges).toMatchObject({ update: 1 });
          expect(String(rotated.outputs.expiresAt?.value)).not.toBe(firstExpiry);
          expectNoPlaintext(plainExport(ctx, stack.name, programDir), e.emu.token, [
            keyBody(first.key),
            keyBody(second.key),
          ]);
        });

        await step("drift: the custom certificate removed elsewhere", async () => {
          await e.api("DELETE", "/v1/apps/demo-app/certificates/www.example.com/custom");
          const drift = await stack.refresh();
          expect(drift.summary.resourceChanges).toMatchObject({ delete: 1 });
          // ACME keeps the hostname.
          expect(await hostnames()).toContain("www.example.com");
          const healed = await stack.up();
          expect(healed.summary.resourceChanges).toMatchObject({ create: 1 });
        });

        await step("destroy", async () => {
          await stack.destroy();
          expect(await hostnames()).toEqual([]);
        });
      });
    });
  },
);
