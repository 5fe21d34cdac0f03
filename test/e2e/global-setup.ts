import { execFileSync } from "node:child_process";
import path from "node:path";
import { ensurePulumiCli } from "../../scripts/lib/pulumi-engine";

// E2E tests need the compiled package (the dynamic provider host loads dist/) and the real CLI.
// When the CLI cannot be obtained this throws, and the whole e2e project fails with the reason.
export default function setup(): void {
  const root = path.resolve(__dirname, "..", "..");
  execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", root], {
    stdio: "inherit",
  });
  // The plugin's one-file build, as `npm run build` makes it (the bin runs it when it is current).
  execFileSync(process.execPath, [path.join(root, "scripts", "build-plugin.js")], { stdio: "inherit" });
  const cliDir = ensurePulumiCli();
  const version = execFileSync(path.join(cliDir, "pulumi"), ["version"], { encoding: "utf8" }).trim();
  // The nodejs language host runs every program; a legacy one (no -version) lacks stack transforms.
  let host = "legacy";
  try {
    host = execFileSync(path.join(cliDir, "pulumi-language-nodejs"), ["-version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {}
  console.log(`e2e: Pulumi CLI ${version} (nodejs language host ${host}) from ${cliDir}`);
}
