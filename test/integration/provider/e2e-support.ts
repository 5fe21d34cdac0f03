import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { type RunningEmulator, startEmulator } from "../../../emulator";

/** An emulator for one e2e file, with fast timings, and a caller of its API and control API. */
export async function startE2eEmulator(): Promise<{
  emu: RunningEmulator;
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  state(): Promise<any>;
}> {
  const emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    taskSocket: join(mkdtempSync(join(tmpdir(), "provider-e2e-")), "api.sock"),
    timing: { restoreDelayMs: 500, snapshotListDelayMs: 500 },
  });
  const api = async <T>(method: string, path: string, body?: unknown) => {
    const res = await request(`${emu.url}${path}`, {
      method: method as "GET",
      headers: {
        authorization: `Bearer ${emu.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  };
  return { emu, api, state: async () => (await api("GET", "/__emulator/state")).body };
}

/** Stack config pointing the provider at the emulator; the token is a secret. */
export function platformConfig(emu: RunningEmulator) {
  return {
    "platform:apiUrl": emu.url,
    "platform:apiToken": { value: emu.token, secret: true },
  };
}

/** Every serialized provider in a deployment, by resource type. */
export function serializedProviders(deployment: any): { type: string; size: number; text: string }[] {
  return (deployment.resources ?? [])
    .filter((r: any) => typeof r.type === "string" && r.type.startsWith("pulumi-nodejs:dynamic/"))
    .map((r: any) => ({
      type: r.type,
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
  const deployment = JSON.parse(exported).deployment;
  for (const r of deployment.resources ?? []) {
    if (!String(r.type).startsWith("pulumi-nodejs:dynamic/")) continue;
    for (const bag of [r.inputs ?? {}, r.outputs ?? {}]) {
      for (const key of Object.keys(bag)) {
        if (/apiToken|apiUrl/.test(key)) throw new Error(`${r.urn} holds ${key} in its state`);
      }
    }
  }
}
