// @ts-check
// `npm run plugin-archive`: the provider plugin as a Pulumi plugin archive,
// build/plugin-archive/pulumi-resource-platform-v<version>-<os>-<arch>.tar.gz, that
// `pulumi plugin install resource platform <version> --file <archive>` installs as it is. The CLI
// unpacks it into its plugin directory and starts the executable `pulumi-resource-platform` there
// (no PulumiPlugin.yaml: that file is for a language runtime to launch a plugin, and a
// `#!/usr/bin/env node` launcher needs none).
//
// Inside, and nothing else: `pulumi-resource-platform` (the launcher: Node's floor, then the plugin)
// and `plugin.js` (with a package.json naming its version), dist/provider/plugin/bundle.js (scripts/build-plugin.js) bundled once more by
// esbuild with what it still required from node_modules (@pulumi/pulumi, the zod locales), so the
// archive runs on any machine with Node >= 22.19. The content is pure JS: --os/--arch (or
// PLATFORM_PLUGIN_OS/PLATFORM_PLUGIN_ARCH) name another platform's archive, the current one by default.
// The tar.gz is made by GNU tar (sorted, fixed mtime and owner: the same bytes from the same dist/).
// Prints the archive's path on its last line.
const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { parseArgs } = require("node:util");

const root = path.resolve(__dirname, "..");
const pluginDir = path.join(root, "dist", "provider", "plugin");
const OUT = path.join(root, "build", "plugin-archive");
const OSES = { linux: "linux", darwin: "darwin", win32: "windows", windows: "windows" };
const ARCHES = { x64: "amd64", amd64: "amd64", arm64: "arm64" };

/** @param {Record<string, string>} names @param {string} value @param {string} what */
function pulumiName(names, value, what) {
  const name = names[value];
  if (!name)
    throw new Error(`plugin-archive: ${what} ${value} is not one of ${Object.keys(names).join(", ")}`);
  return name;
}

/** The archive's file name (Pulumi's convention for a provider plugin's release). */
function archiveName(/** @type {string} */ version, /** @type {string} */ os, /** @type {string} */ arch) {
  return `pulumi-resource-platform-v${version}-${os}-${arch}.tar.gz`;
}

function currentBundle() {
  const { usableBundle } = require(path.join(pluginDir, "bundle-check.js"));
  let bundle = usableBundle(pluginDir);
  if (!bundle) {
    execFileSync(process.execPath, [path.join(__dirname, "build-plugin.js")], { stdio: "inherit" });
    bundle = usableBundle(pluginDir);
  }
  if (!bundle)
    throw new Error("plugin-archive: no current dist/provider/plugin/bundle.js: run `npm run build`");
  return bundle;
}

async function main() {
  const { values } = parseArgs({
    options: { os: { type: "string" }, arch: { type: "string" }, out: { type: "string" } },
  });
  const os = pulumiName(OSES, values.os ?? process.env.PLATFORM_PLUGIN_OS ?? process.platform, "os");
  const arch = pulumiName(ARCHES, values.arch ?? process.env.PLATFORM_PLUGIN_ARCH ?? process.arch, "arch");
  const outDir = path.resolve(values.out ?? OUT);
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  if (!fs.existsSync(path.join(pluginDir, "start.js"))) {
    throw new Error("plugin-archive: dist/ is missing: run `npm run build` first");
  }
  const bundle = currentBundle();
  const esbuild = require("esbuild");

  fs.mkdirSync(outDir, { recursive: true });
  const stage = fs.mkdtempSync(path.join(outDir, ".stage-"));
  try {
    await esbuild.build({
      entryPoints: [bundle],
      bundle: true,
      platform: "node",
      target: "node22",
      format: "cjs",
      minify: true,
      keepNames: true,
      legalComments: "none",
      outfile: path.join(stage, "plugin.js"),
      logLevel: "warning",
    });
    // The launcher: Node's floor first (its message says what to do), then the plugin.
    await esbuild.build({
      stdin: {
        contents: `require(${JSON.stringify(path.join(root, "dist", "sdk", "node-floor.js"))});
require("./plugin.js").start(process.argv.slice(2));`,
        resolveDir: root,
        loader: "js",
      },
      bundle: true,
      platform: "node",
      target: "node22",
      format: "cjs",
      external: ["./plugin.js"],
      banner: { js: "#!/usr/bin/env node" },
      outfile: path.join(stage, "pulumi-resource-platform"),
      logLevel: "warning",
    });
    fs.chmodSync(path.join(stage, "pulumi-resource-platform"), 0o755);
    fs.chmodSync(path.join(stage, "plugin.js"), 0o644);
    // The plugin's version (provider/runtime/version.ts reads it beside plugin.js): its schema's.
    fs.writeFileSync(
      path.join(stage, "package.json"),
      `${JSON.stringify({ name: "pulumi-platform", version }, null, 2)}\n`,
    );

    const archive = path.join(outDir, archiveName(version, os, arch));
    execFileSync(
      "tar",
      [
        "--sort=name",
        "--mtime=@0",
        "--owner=0",
        "--group=0",
        "--numeric-owner",
        "--format=gnu",
        "-C",
        stage,
        "-cf",
        archive.replace(/\.gz$/, ""),
        "package.json",
        "plugin.js",
        "pulumi-resource-platform",
      ],
      { stdio: "inherit" },
    );
    // gzip -n: no name or time in the header, so the same content gives the same bytes.
    execFileSync("gzip", ["-n", "-9", "-f", archive.replace(/\.gz$/, "")], { stdio: "inherit" });
    console.log(
      `plugin-archive: ${(fs.statSync(archive).size / 1024 / 1024).toFixed(1)} MiB (${os}-${arch})`,
    );
    console.log(archive);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

module.exports = { archiveName };

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
