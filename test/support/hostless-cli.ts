import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensurePulumiCli, repoRoot } from "../../scripts/lib/pulumi-engine";

/** This project's `pulumi-analyzer-policy-nodejs` (a directory for a project's `plugins.analyzers`). */
export const POLICY_ANALYZER_DIR = path.resolve(__dirname, "analyzer");

/** The nodejs language host's executable, which the CLI looks for beside itself and on PATH. */
const NODEJS_HOST = "pulumi-language-nodejs";

export interface HostlessCli {
  /** A directory named `bin` (as `PulumiCommand.get({ root })` wants) holding `pulumi`. */
  cliDir: string;
  /** A PATH for the CLI: `cliDir`, node_modules/.bin, then the caller's PATH without any nodejs host. */
  path: string;
  remove(): void;
}

/**
 * The CLI of scripts/ensure-pulumi in a directory of its own WITHOUT `pulumi-language-nodejs`: a
 * hard link of `pulumi` (a copy across file systems) and of the dynamic provider host
 * `pulumi-resource-pulumi-nodejs` (a bundled plugin, found beside the running `pulumi`). Not a
 * symbolic link: the CLI looks for bundled plugins beside `os.Executable()` with symbolic links
 * resolved, so a link would still find the host beside the real binary. Programs must reach this
 * CLI as inline programs (no host runs them); a `runtime: nodejs` policy pack then goes to the
 * analyzer plugin `policy-nodejs` ({@link POLICY_ANALYZER_DIR}) instead of the host's RunPlugin.
 */
export function hostlessCli(): HostlessCli {
  const realDir = ensurePulumiCli();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-platform-hostless-"));
  const cliDir = path.join(root, "bin");
  fs.mkdirSync(cliDir);
  for (const name of ["pulumi", "pulumi-resource-pulumi-nodejs"]) {
    const from = fs.realpathSync(path.join(realDir, name));
    const to = path.join(cliDir, name);
    try {
      fs.linkSync(from, to);
    } catch {
      fs.copyFileSync(from, to);
      fs.chmodSync(to, 0o755);
    }
  }
  const hostIn = (dir: string) => dir !== "" && fs.existsSync(path.join(dir, NODEJS_HOST));
  const inherited = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => !hostIn(dir));
  const entries = [cliDir, path.join(repoRoot, "node_modules", ".bin"), ...inherited];
  const found = entries.filter(hostIn);
  if (found.length > 0) throw new Error(`${NODEJS_HOST} is still reachable in ${found.join(", ")}`);
  return {
    cliDir,
    path: entries.join(path.delimiter),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
