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
        const preview = await stack.preview();
        expect(preview.changeSummary.create).toBe(4);

        const up = await stack.up();
        // The status is the hostname's: which pending state shows depends on which kind came first.
        expect(up.outputs.acmeStatus?.value).toMatch(/^pending_(validation|ownership)$/);
        expect(up.outputs.customStatus?.value).toBe("pending_ownership");
        expect(up.outputs.ownershipRecord?.value).toMatchObject({
          type: "TXT",
          name: "_platform-ownership.www.example.com",
        });
        expect(up.outputs.acmeRequirements?.value).toMatchObject({ cname: expect.any(String) });
        expect(up.outputs.wildcardHostname?.value).toBe("*.apps.example.com");
        expect(up.outputs.wildcardChallenge?.value).toMatchObject({
          name: "_acme-challenge.apps.example.com",
        });
        const firstExpiry = String(up.outputs.expiresAt?.value);
        expect(String(up.outputs.issuer?.value)).toContain("www.example.com");
        expect((await hostnames()).sort()).toEqual(["*.apps.example.com", "www.example.com"]);

        await stack.preview({ expectNoChanges: true });
        await stack.refresh({ expectNoChanges: true });
        expectNoPlaintext(plainExport(ctx, stack.name, programDir), e.emu.token, [keyBody(first.key)]);

        // Rotation: a new chain and key are imported again in place.
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

        // Drift: the custom certificate removed elsewhere; refresh drops it, ACME keeps the hostname.
        await e.api("DELETE", "/v1/apps/demo-app/certificates/www.example.com/custom");
        const drift = await stack.refresh();
        expect(drift.summary.resourceChanges).toMatchObject({ delete: 1 });
        expect(await hostnames()).toContain("www.example.com");
        const healed = await stack.up();
        expect(healed.summary.resourceChanges).toMatchObject({ create: 1 });

        await stack.destroy();
        expect(await hostnames()).toEqual([]);
      });
    });
  },
);
