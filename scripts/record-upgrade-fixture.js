// @ts-check
// `npm run record-upgrade-fixture [-- --ref <commit> --version <x.y.z>]`: records what a release
// leaves in its users' stacks, for the upgrade e2e (test/e2e/upgrade.test.ts). It builds the
// release from `git archive <ref>` in a temp directory (never from the working tree), runs
// scripts/upgrade-fixture-program with that build through the real CLI against the release's own
// emulator, and writes test/fixtures/upgrade/<version>/: the exported state (secrets encrypted
// with the fixed test passphrase), the stack's config file (its encryption salt), the emulator's
// state file, the program and meta.json. Run it for every release, before changing the stub.
const { execFileSync, spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const readline = require("node:readline");
const { parseArgs } = require("node:util");
const { createOfflineBackend, ensurePulumiCli, offlineEngineEnv, repoRoot } = require("./lib/pulumi-engine");

const PASSPHRASE = "pulumi-platform-upgrade-fixture";
const TOKEN = "upgrade-fixture-token";
const STACK = "upgrade";

async function main() {
  const { values } = parseArgs({
    options: { ref: { type: "string", default: "HEAD" }, version: { type: "string" } },
  });
  const ref = String(values.ref);
  const commit = git(["rev-parse", ref]).trim();
  const version = values.version ?? JSON.parse(git(["show", `${commit}:package.json`])).version;
  const out = path.join(repoRoot, "test", "fixtures", "upgrade", version);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-platform-record-${version}-`));
  const src = path.join(work, "src");
  console.log(`==> recording ${version} (${commit.slice(0, 12)}) in ${work}`);
  try {
    fs.mkdirSync(src);
    execFileSync("sh", ["-c", `git -C "${repoRoot}" archive ${commit} | tar -x -C "${src}"`], {
      stdio: "inherit",
    });
    linkDependencies(src);
    execFileSync(
      process.execPath,
      [path.join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", src],
      {
        stdio: "inherit",
      },
    );

    const programDir = path.join(src, "upgrade-fixture-program");
    fs.cpSync(path.join(__dirname, "upgrade-fixture-program"), programDir, { recursive: true });
    const pems = { api: await chain("api.example.com"), shop: await chain("shop.example.com") };

    const stateFile = path.join(work, "emulator-state.json");
    const emulator = await startEmulator(src, stateFile, path.join(work, "task.sock"));
    const cliDir = ensurePulumiCli();
    const backend = createOfflineBackend("record");
    const env = {
      ...process.env,
      ...offlineEngineEnv(backend, cliDir),
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    };
    /** @param {string[]} args @param {string} [input] */
    const pulumi = (args, input) =>
      execFileSync(path.join(cliDir, "pulumi"), args, {
        cwd: programDir,
        env,
        encoding: "utf8",
        input,
        maxBuffer: 256 * 1024 * 1024,
        stdio: ["pipe", "pipe", "inherit"],
      });
    try {
      pulumi(["stack", "init", STACK]);
      pulumi(["config", "set", "platform:apiUrl", emulator.url]);
      pulumi(["config", "set", "--secret", "platform:apiToken"], TOKEN);
      pulumi(["config", "set", "apiFullchain"], pems.api.cert);
      pulumi(["config", "set", "--secret", "apiPrivateKey"], pems.api.key);
      pulumi(["config", "set", "shopFullchain"], pems.shop.cert);
      pulumi(["config", "set", "--secret", "shopPrivateKey"], pems.shop.key);
      console.log("==> pulumi up (the release's code)");
      pulumi(["up", "--yes", "--skip-preview"]);
      const exported = pulumi(["stack", "export"]);
      fs.rmSync(out, { recursive: true, force: true });
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, "stack.json"), exported);
      fs.copyFileSync(path.join(programDir, `Pulumi.${STACK}.yaml`), path.join(out, `Pulumi.${STACK}.yaml`));
      fs.cpSync(path.join(__dirname, "upgrade-fixture-program"), path.join(out, "program"), {
        recursive: true,
      });
    } finally {
      await emulator.stop();
      backend.remove();
    }
    fs.copyFileSync(stateFile, path.join(out, "emulator-state.json"));
    fs.writeFileSync(
      path.join(out, "meta.json"),
      `${JSON.stringify(
        {
          version,
          commit,
          recordedAt: new Date().toISOString(),
          stack: STACK,
          passphrase: PASSPHRASE,
          token: TOKEN,
          apiUrl: emulator.url,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`==> wrote ${path.relative(repoRoot, out)}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function git(/** @type {string[]} */ args) {
  return execFileSync("git", ["-C", repoRoot, ...args], { encoding: "utf8" });
}

/** The release's node_modules: this checkout's packages, with pulumi-platform pointing at the release. */
function linkDependencies(/** @type {string} */ src) {
  const modules = path.join(src, "node_modules");
  fs.mkdirSync(modules);
  for (const entry of fs.readdirSync(path.join(repoRoot, "node_modules"))) {
    if (entry === "pulumi-platform") continue;
    fs.symlinkSync(path.join(repoRoot, "node_modules", entry), path.join(modules, entry));
  }
  fs.symlinkSync("..", path.join(modules, "pulumi-platform"), "dir");
}

/** A self-signed chain valid for 20 years, so the recorded state stays usable. */
function chain(/** @type {string} */ hostname) {
  const selfsigned = require("selfsigned");
  return selfsigned
    .generate([{ name: "commonName", value: hostname }], {
      keyType: "ec",
      algorithm: "sha256",
      notBeforeDate: new Date(Date.now() - 86_400_000),
      notAfterDate: new Date(Date.now() + 20 * 365 * 86_400_000),
      extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: hostname }] }],
    })
    .then((/** @type {{cert: string, private: string}} */ p) => ({ cert: p.cert, key: p.private }));
}

/** Starts the release's own emulator with a state file; resolves once it printed its JSON line. */
function startEmulator(
  /** @type {string} */ src,
  /** @type {string} */ stateFile,
  /** @type {string} */ socket,
) {
  const child = spawn(
    process.execPath,
    [
      path.join(src, "dist", "emulator", "cli.js"),
      "--port",
      "0",
      "--token",
      TOKEN,
      "--state",
      stateFile,
      "--task-socket",
      socket,
      "--quiet",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({
      input: /** @type {import("node:stream").Readable} */ (child.stdout),
    });
    lines.once("line", (line) => {
      const info = JSON.parse(line);
      resolve({
        url: info.url,
        stop: () =>
          new Promise((done) => {
            child.once("exit", done);
            child.kill("SIGTERM");
          }),
      });
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code} before it started`)));
  });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
