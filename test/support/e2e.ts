import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import type { ResponseMode, RunningEmulator } from "../../emulator";
import { type TestEmulator, useTestEmulator } from "./emulator";

/** The emulator modes the provider's lifecycles run against (issue 9: both must pass). */
export { RESPONSE_MODES } from "../../emulator";

/**
 * An emulator for one e2e file (or describe block), with fast timings: started before its tests,
 * closed after them. The returned handle is filled in when the tests start. `responses: "sparse"`
 * answers like the real platform: optional members left out or null.
 */
export function useE2eEmulator(options: { responses?: ResponseMode } = {}): TestEmulator {
  return useTestEmulator({
    emulator: {
      responses: options.responses ?? "full",
      timing: { restoreDelayMs: 500, snapshotListDelayMs: 500, warmAfterMs: 5000, coldAfterMs: 30000 },
    },
  });
}

/** Stack config pointing the provider at the emulator; the token is a secret. */
export function platformConfig(emu: RunningEmulator) {
  return {
    "platform:apiUrl": emu.url,
    "platform:apiToken": { value: emu.token, secret: true },
  };
}

/**
 * After a destroy: each of `volumeIds` is gone (404) or destroyed, the app lists no volume, and
 * the emulator holds no certificate.
 */
export async function expectNothingLeftAt(e: TestEmulator, app: string, volumeIds: string[]): Promise<void> {
  for (const id of volumeIds) {
    const gone = await e.api("GET", `/v1/apps/${app}/volumes/${id}`);
    expect(
      gone.status === 404 || gone.body.state === "destroyed",
      `${id}: ${JSON.stringify(gone.body)}`,
    ).toBe(true);
  }
  expect((await e.api("GET", `/v1/apps/${app}/volumes`)).body).toEqual([]);
  expect((await e.state()).certificates).toEqual([]);
}

/** The part of an exported deployment (`pulumi stack export`) these checks read. */
interface ExportedDeployment {
  resources?: {
    urn?: string;
    type?: string;
    inputs?: Record<string, unknown>;
    outputs?: Record<string, unknown>;
  }[];
}

/** Every serialized provider in a deployment, by resource type. */
export function serializedProviders(
  deployment: ExportedDeployment,
): { type: string; size: number; text: string }[] {
  return (deployment.resources ?? [])
    .filter((r) => typeof r.type === "string" && r.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((r) => ({
      type: String(r.type),
      size: String(r.inputs?.__provider ?? "").length,
      text: String(r.inputs?.__provider),
    }));
}

/**
 * `pulumi stack export` as a user runs it (no --show-secrets; the Automation API's exportStack
 * shows secrets). Secrets appear there only as ciphertext.
 */
export function plainExport(
  ctx: { env: Record<string, string>; cliDir: string },
  stackName: string,
  programDir: string,
): string {
  return execFileSync(join(ctx.cliDir, "pulumi"), ["stack", "export", "--stack", stackName], {
    cwd: programDir,
    env: { ...process.env, ...ctx.env },
    encoding: "utf8",
  });
}

/** Checks what a plain export may hold: no token anywhere, and only ciphertext for `secrets`. */
export function expectNoPlaintext(exported: string, token: string, secrets: string[]): void {
  if (exported.includes(token)) throw new Error("the API token appears in `pulumi stack export`");
  for (const secret of secrets) {
    // JSON escapes newlines in PEM text; compare the escaped and raw forms.
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (exported.includes(secret) || exported.includes(escaped)) {
      throw new Error(`a secret appears in plaintext in \`pulumi stack export\`: ${secret.slice(0, 12)}...`);
    }
  }
  const deployment: ExportedDeployment = JSON.parse(exported).deployment;
  for (const r of deployment.resources ?? []) {
    if (!String(r.type).startsWith("pulumi-nodejs:dynamic/")) continue;
    for (const bag of [r.inputs ?? {}, r.outputs ?? {}]) {
      for (const key of Object.keys(bag)) {
        if (/apiToken|apiUrl/.test(key)) throw new Error(`${r.urn} holds ${key} in its state`);
      }
    }
  }
}
