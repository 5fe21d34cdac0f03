import { describe, expect, it } from "vitest";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";

// The platform's DNS check (POST …/certificates/{hostname}/check) only reads (spec 4.2 rule 4),
// so a lost answer or a gateway error on it is repeated like a GET's. An ACME certificate that
// waits for `active` must not lose the ACME request that already landed because of one.

const e = useE2eEmulator();
const APP = "demo-app";

const CHECK_FAULTS = [
  ["an answer dropped after the check ran", { kind: "drop-after", times: 1 }],
  ["a 502 from the gateway", { kind: "status", status: 502, times: 1 }],
] as const;

describe("AcmeCertificate { waitForActive } when the DNS check's answer is lost", () => {
  it.each(CHECK_FAULTS)("converges in one `up` after %s, with one ACME request", async (_name, fault) => {
    const hostname = `${fault.kind}.check.example.com`;
    // DNS points the hostname at the app, so the first check that answers makes it active.
    const probe = await e.api("POST", `/v1/apps/${APP}/certificates/acme`, {
      hostname: "probe.check.example.com",
    });
    await e.api("DELETE", `/v1/apps/${APP}/certificates/probe.check.example.com`);
    await e.control.dns.set([{ type: "A", name: hostname, value: probe.body.dns_requirements.a[0] }]);
    await e.control.requests.clear();
    const path = `/v1/apps/${APP}/certificates/${hostname}/check`;
    await e.control.faults.add({ method: "POST", path, ...fault });

    await withStack(
      { programDir: programPath("acme-wait"), config: { ...platformConfig(e.emu), hostname } },
      async ({ stack }) => {
        const up = await stack.up();
        expect(up.outputs.status?.value).toBe("active");
        const requests = await e.control.requests.list();
        const acme = requests.filter(
          (r) => r.method === "POST" && r.path === `/v1/apps/${APP}/certificates/acme`,
        );
        expect(acme).toHaveLength(1);
        // The fault hit the first check, which was sent again.
        const checks = requests.filter((r) => r.path === path);
        expect(checks.length).toBeGreaterThanOrEqual(2);
        expect(checks[0]?.dropped === "after" || checks[0]?.status === 502).toBe(true);
        await stack.preview({ expectNoChanges: true });
        await stack.destroy();
      },
    );
    await e.control.faults.clear();
  });
});
