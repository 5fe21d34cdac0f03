import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { days, makeCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { OPS_CLI as cli } from "../support/ops-cli";

const run = promisify(execFile);
const e = useE2eEmulator();
const APP = "demo-app";
const programDir = programPath("adopt");
const generated = path.join(programDir, "adopted.ts");

async function adopt(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [cli, "adopt", "--app", APP, ...args], {
    env: { ...process.env, PLATFORM_API_URL: e.emu.url, PLATFORM_API_TOKEN: e.emu.token },
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** What a mutating request is: anything but GET/HEAD on the remote API (checks are POSTs, counted apart). */
const mutating = (r: { method: string; path: string }) =>
  r.path.startsWith("/v1/") && !["GET", "HEAD"].includes(r.method) && !r.path.endsWith("/check");

describe("pulumi-platform adopt, then the first `pulumi up` of what it wrote", () => {
  it("takes an app's volumes and certificates under management with zero mutating requests", async () => {
    // An app as a team has it before Pulumi: an attached volume, one with its own retention and
    // backups off, one restored from a snapshot; ACME, custom, both kinds on one hostname, a wildcard.
    const vol = async (body: Record<string, unknown>) => {
      const res = await e.api("POST", `/v1/apps/${APP}/volumes`, { region: "iad", ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { id: string };
    };
    const attached = await vol({ name: "pg_data", size_gb: 10 });
    await e.control.volumes.attach(attached.id, "m-postgres");
    const tuned = await vol({
      name: "cache",
      size_gb: 4,
      snapshot_retention: 12,
      auto_backup_enabled: false,
    });
    expect((await e.api("POST", `/v1/apps/${APP}/volumes/${tuned.id}/snapshots`)).status).toBeLessThan(300);
    const snapshotId = await until("the on-demand snapshot", async () => {
      const list = await e.api<{ id: string }[]>("GET", `/v1/apps/${APP}/volumes/${tuned.id}/snapshots`);
      return list.body[0]?.id;
    });
    const restored = await vol({ name: "cache_copy", snapshot_id: snapshotId });
    await until("the restore", async () => {
      const v = await e.api("GET", `/v1/apps/${APP}/volumes/${restored.id}`);
      return v.body.state === "created" ? true : undefined;
    });

    const api = await makeCert("api.example.com", ["api.example.com"], { to: Date.now() + days(80) });
    const both = await makeCert("shop.example.com", ["shop.example.com"], { to: Date.now() + days(70) });
    const certs = `/v1/apps/${APP}/certificates`;
    for (const hostname of ["www.example.com", "shop.example.com", "*.apps.example.com"]) {
      expect((await e.api("POST", `${certs}/acme`, { hostname })).status).toBeLessThan(300);
    }
    for (const [hostname, c] of [
      ["api.example.com", api],
      ["shop.example.com", both],
    ] as const) {
      const res = await e.api("POST", `${certs}/custom`, { hostname, fullchain: c.cert, private_key: c.key });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }

    // The command: JSON for the config names, the module for the stack; a second run is identical.
    const plan = JSON.parse((await adopt("--format", "json")).stdout) as {
      certificates: { hostname: string; kind: string; config?: { fullchain: string; privateKey: string } }[];
    };
    await adopt("--out", generated);
    const first = fs.readFileSync(generated, "utf8");
    expect((await adopt()).stdout).toBe(first);
    expect(plan.certificates.map((c) => `${c.hostname} ${c.kind}`).sort()).toEqual([
      "*.apps.example.com acme",
      "api.example.com custom",
      "shop.example.com acme",
      "shop.example.com custom",
      "www.example.com acme",
    ]);

    const pems = { "api.example.com": api, "shop.example.com": both } as Record<
      string,
      { cert: string; key: string }
    >;
    const config: Record<string, string | { value: string; secret: boolean }> = { ...platformConfig(e.emu) };
    for (const c of plan.certificates) {
      const pem = pems[c.hostname];
      if (c.kind !== "custom" || !c.config || !pem) continue;
      config[c.config.fullchain] = pem.cert;
      config[c.config.privateKey] = { value: pem.key, secret: true };
    }

    try {
      await withStack({ programDir, config }, async ({ stack }) => {
        const before = await e.state();
        await e.control.requests.clear();
        const up = await stack.up();
        // 3 volumes, 5 certificate kinds on 4 hostnames, and the stack itself.
        expect(up.summary.resourceChanges).toMatchObject({ create: 3 + 5 + 1 });
        const requests = await e.control.requests.list();
        console.log(
          `adopt e2e: first up made ${requests.length} requests, ${requests.filter(mutating).length} mutating`,
        );
        expect(requests.filter(mutating)).toEqual([]);

        // What exists did not change; the stack now owns it.
        const after = await e.state();
        expect(after.volumes).toEqual(before.volumes);
        expect(after.certificates).toEqual(before.certificates);

        await stack.preview({ expectNoChanges: true });
        await stack.refresh({ expectNoChanges: true });

        // Documented: adopted resources carry retainOnDelete, so destroy forgets them only.
        await stack.destroy();
        const kept = await e.state();
        expect(
          kept.volumes
            .filter((v) => v.state !== "destroyed")
            .map((v) => v.id)
            .sort(),
        ).toEqual([attached.id, tuned.id, restored.id].sort());
        expect(kept.certificates.map((c) => c.hostname).sort()).toEqual([
          "*.apps.example.com",
          "api.example.com",
          "shop.example.com",
          "www.example.com",
        ]);
      });
    } finally {
      fs.rmSync(generated, { force: true });
    }
  });
});
