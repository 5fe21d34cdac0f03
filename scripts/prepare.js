// Runs on `npm ci` / `npm install` in this repository: builds dist/ and links the package
// into its own node_modules so examples, the root Pulumi project and the dynamic provider
// host resolve `pulumi-platform` exactly as an installed package would.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
if (!fs.existsSync(tsc)) process.exit(0); // installed as a dependency elsewhere: nothing to do
execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
// The provider plugin in one file (dist/provider/plugin/bundle.js), what its bin runs when usable.
execFileSync(process.execPath, [path.join(__dirname, "build-plugin.js")], { stdio: "inherit" });

// The provider plugin on PATH from node_modules/.bin, as a consumer's install puts it there, so
// the e2e tests' CLI finds `pulumi-resource-platform` (npm links no bin of the root package);
// build-plugin.js made it executable.
const plugin = path.join(root, "dist", "provider", "plugin", "main.js");
const pluginLink = path.join(root, "node_modules", ".bin", "pulumi-resource-platform");
fs.mkdirSync(path.dirname(pluginLink), { recursive: true });
fs.rmSync(pluginLink, { force: true });
fs.symlinkSync(path.relative(path.dirname(pluginLink), plugin), pluginLink);

const link = path.join(root, "node_modules", "pulumi-platform");
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
} catch {}
fs.rmSync(link, { recursive: true, force: true });
fs.symlinkSync("..", link, "dir");
