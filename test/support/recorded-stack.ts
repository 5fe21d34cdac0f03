import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { withStack } from "./engine";

const repoRoot = path.resolve(__dirname, "..", "..");
const fixtures = path.join(repoRoot, "test", "fixtures", "upgrade");
/** Every release whose state is recorded under test/fixtures/upgrade. */
export const versions = fs
  .readdirSync(fixtures)
  .filter((v) => fs.existsSync(path.join(fixtures, v, "meta.json")));

interface Meta {
  version: string;
  stack: string;
  passphrase: string;
  token: string;
  apiUrl: string;
}

/**
 * Runs `fn` on a fresh backend holding the recorded stack, with an emulator started from the
 * recorded platform state. Snapshots are moved to yesterday (in both files, same instant) so
 * that retention, which runs on the wall clock, has not removed them since the recording.
 */
export async function withRecordedStack(
  version: string,
  fn: (stack: Stack, emu: RunningEmulator, recorded: RecordedDeployment, programDir: string) => Promise<void>,
): Promise<void> {
  const dir = path.join(fixtures, version);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")) as Meta;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `upgrade-${version}-`));
  const platform = JSON.parse(fs.readFileSync(path.join(dir, "emulator-state.json"), "utf8"));
  const moved: [string, string][] = [];
  for (const snapshot of platform.snapshots ?? []) {
    const to = Date.now() - 86_400_000 + moved.length;
    moved.push([new Date(snapshot.created_at).toISOString(), new Date(to).toISOString()]);
    snapshot.created_at = to;
  }
  const stateFile = path.join(tmp, "emulator-state.json");
  fs.writeFileSync(stateFile, JSON.stringify(platform));
  const emu = await startEmulator({
    port: 0,
    eventsPort: 0,
    quiet: true,
    token: meta.token,
    stateFile,
    taskSocket: path.join(tmp, "api.sock"),
    timing: { restoreDelayMs: 200, snapshotListDelayMs: 200 },
  });
  const rewrite = (text: string) => {
    let out = text.split(meta.apiUrl).join(emu.url);
    for (const [from, to] of moved) out = out.split(from).join(to);
    return out;
  };
  // The recorded program, inside the repository so that `pulumi-platform` is this checkout.
  const programDir = path.join(
    repoRoot,
    "test",
    "e2e",
    "programs",
    `.upgrade-${version}-${randomBytes(3).toString("hex")}`,
  );
  fs.cpSync(path.join(dir, "program"), programDir, { recursive: true });
  try {
    await withStack(
      { programDir, stackName: meta.stack, env: { PULUMI_CONFIG_PASSPHRASE: meta.passphrase } },
      async ({ stack }) => {
        const configFile = path.join(dir, `Pulumi.${meta.stack}.yaml`);
        fs.writeFileSync(
          path.join(programDir, `Pulumi.${meta.stack}.yaml`),
          rewrite(fs.readFileSync(configFile, "utf8")),
        );
        const deployment = JSON.parse(rewrite(fs.readFileSync(path.join(dir, "stack.json"), "utf8")));
        await stack.importStack(deployment);
        await fn(stack, emu, deployment.deployment, programDir);
      },
    );
  } finally {
    fs.rmSync(programDir, { recursive: true, force: true });
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The part of an exported deployment the upgrade checks read. */
export interface RecordedDeployment {
  resources?: { urn: string; type?: string; outputs?: Record<string, unknown> }[];
}
