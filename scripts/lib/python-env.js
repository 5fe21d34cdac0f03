// @ts-check
// The one place that makes the Python environment of the Python SDK's tests: a venv holding the
// pins of examples/python-quickstart/requirements.txt (pulumi at the CLI's version, mypy) from
// PyPI and the generated SDK `pulumi_platform` as a user installs it, a wheel built from
// sdk-gen/python. Cached under ~/.cache/pulumi-platform (as scripts/ensure-pulumi caches the CLI):
// py-base-<hash> (the pins; keyed by the interpreter's version and the pins) and py-venv-<hash> (a
// copy of it with the SDK; keyed by the base and the SDK's files), so a warm run reuses both and a
// regenerated SDK only makes a new copy. Each is made in a temporary directory beside it and
// renamed into place when complete, so an interrupted or concurrent run never leaves a half-made
// one behind. Older copies are not removed (about 160 MB each): delete py-venv-* to reclaim them. Needs `python3` (3.9 or
// later, with venv and pip; `PULUMI_PLATFORM_PYTHON` names another interpreter) and PyPI.
//
// A venv renamed after its creation keeps its console scripts' old `#!` line: run everything as
// `<venv>/bin/python -m <module>` (pip, mypy), never `<venv>/bin/<script>`.
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..", "..");
/** The pins, one place: the example's own requirements (a user installs the same). */
const REQUIREMENTS = path.join(repoRoot, "examples", "python-quickstart", "requirements.txt");
const SDK_DIR = path.join(repoRoot, "sdk-gen", "python");
/** What a build or a type check may leave in sdk-gen/python: not the SDK (its .gitignore). */
const NOT_SDK = /(^|\/)(__pycache__|build|dist|\.mypy_cache|[^/]*\.egg-info)(\/|$)/;

/** @type {import("./python-env").PythonEnv | undefined} */
let cached;

/** The files of the generated SDK, relative and sorted, without build leftovers. */
function sdkFiles() {
  return /** @type {string[]} */ (fs.readdirSync(SDK_DIR, { recursive: true, encoding: "utf8" }))
    .filter((f) => !NOT_SDK.test(f.split(path.sep).join("/")) && fs.statSync(path.join(SDK_DIR, f)).isFile())
    .sort();
}

/**
 * The requirement lines: `name==version` pins and the SDK's relative path (replaced by the wheel).
 * Anything else (a range, an index option) is refused: the venv's key must say what is in it.
 */
function readPins() {
  const pins = [];
  let sdkLine = false;
  for (const raw of fs.readFileSync(REQUIREMENTS, "utf8").split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") continue;
    if (path.resolve(path.dirname(REQUIREMENTS), line) === SDK_DIR) sdkLine = true;
    else if (/^[A-Za-z0-9_.-]+==[A-Za-z0-9_.+-]+$/.test(line)) pins.push(line);
    else
      throw new Error(
        `${path.relative(repoRoot, REQUIREMENTS)}: "${line}" is neither a name==version pin nor the SDK's path`,
      );
  }
  if (!sdkLine)
    throw new Error(`${path.relative(repoRoot, REQUIREMENTS)} does not name the SDK (../../sdk-gen/python)`);
  return pins;
}

/** Runs a command, its output kept for the error that names it. */
function run(/** @type {string} */ cmd, /** @type {string[]} */ args, /** @type {string} */ cwd = repoRoot) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const e = /** @type {{ stdout?: string, stderr?: string, message: string }} */ (err);
    throw new Error(`${[cmd, ...args].join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

/** The interpreter and its version; throws with what is missing. */
function interpreter() {
  const python = process.env.PULUMI_PLATFORM_PYTHON ?? "python3";
  let version;
  try {
    version = execFileSync(
      python,
      ["-c", "import sys, venv, ensurepip; print('.'.join(map(str, sys.version_info[:3])))"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    ).trim();
  } catch (err) {
    throw new Error(
      `Python 3.9 or later with venv and ensurepip is needed (${python}: ${String(err)}); ` +
        "PULUMI_PLATFORM_PYTHON names another interpreter",
    );
  }
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major !== 3 || minor < 9) throw new Error(`${python} is Python ${version}: the SDK needs 3.9 or later`);
  return { python, version };
}

/**
 * Makes `dir` atomically when it has no `.complete` marker: `make(tmp)` fills a temporary
 * directory beside it, which is then marked and renamed into place. Returns whether this call
 * made it (false when it was there, or another run finished first).
 */
function atomically(/** @type {string} */ dir, /** @type {(tmp: string) => string} */ make) {
  if (fs.existsSync(path.join(dir, ".complete"))) return false;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}-${crypto.randomBytes(3).toString("hex")}`;
  try {
    const marker = make(tmp);
    fs.writeFileSync(path.join(tmp, ".complete"), marker);
    try {
      fs.renameSync(tmp, dir);
      return true;
    } catch (err) {
      // Another run finished first: keep its directory.
      if (!fs.existsSync(path.join(dir, ".complete"))) throw err;
      return false;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Builds the SDK's wheel (from a copy of sdk-gen/python) with `python`; its path in `out`. */
function buildWheel(/** @type {string} */ python, /** @type {string} */ out) {
  // From a copy: a build in sdk-gen/python would leave build/ and *.egg-info there.
  const src = path.join(out, "python");
  fs.cpSync(SDK_DIR, src, { recursive: true, filter: (f) => !NOT_SDK.test(path.relative(SDK_DIR, f)) });
  const wheelDir = path.join(out, "wheels");
  run(python, ["-m", "pip", "wheel", "--no-deps", "--no-input", "--wheel-dir", wheelDir, src]);
  const wheels = fs.readdirSync(wheelDir).filter((f) => f.endsWith(".whl"));
  const wheel = wheels[0];
  if (wheel === undefined || wheels.length !== 1) {
    throw new Error(`pip wheel made ${wheels.length} wheels: ${wheels.join(", ")}`);
  }
  return path.join(wheelDir, wheel);
}

/**
 * Returns the venv (creating it on first use): its `python`, its directory, and whether this call
 * made it, with how long it took. Two levels, each made atomically: `py-base-<hash>` holds the
 * pins (the slow part: pulumi, grpcio, mypy from PyPI), keyed by the interpreter's version and
 * the pins; `py-venv-<hash>` is a copy of it with the SDK's wheel installed, keyed by the base
 * and the SDK's files, so a regenerated SDK costs a copy and a wheel, not a new venv.
 * @returns {import("./python-env").PythonEnv}
 */
function ensurePythonEnv() {
  if (cached) return cached;
  const { python, version } = interpreter();
  const pins = readPins();
  const cache = process.env.PULUMI_PLATFORM_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-platform");
  const baseKey = crypto
    .createHash("sha256")
    .update(`python ${version}\n${pins.join("\n")}\n`)
    .digest("hex");
  const base = path.join(cache, `py-base-${baseKey.slice(0, 12)}`);
  const sdkHash = crypto.createHash("sha256").update(`${baseKey}\n`);
  for (const f of sdkFiles()) {
    sdkHash.update(`${f}\n`);
    sdkHash.update(fs.readFileSync(path.join(SDK_DIR, f)));
  }
  const venv = path.join(cache, `py-venv-${sdkHash.digest("hex").slice(0, 12)}`);
  const started = performance.now();
  const madeBase = atomically(base, (tmp) => {
    run(python, ["-m", "venv", tmp]);
    run(path.join(tmp, "bin", "python"), ["-m", "pip", "install", "--no-input", ...pins]);
    return `${pins.join("\n")}\n`;
  });
  const created = atomically(venv, (tmp) => {
    // A copy of the base (links kept as they are: bin/python names the interpreter).
    fs.cpSync(base, tmp, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (f) => path.basename(f) !== ".complete" && path.basename(f) !== ".mypy_cache",
    });
    const tmpPython = path.join(tmp, "bin", "python");
    const build = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-platform-wheel-"));
    try {
      const wheel = buildWheel(tmpPython, build);
      run(tmpPython, ["-m", "pip", "install", "--no-input", wheel]);
      return `${pins.join("\n")}\n${path.basename(wheel)}\n`;
    } finally {
      fs.rmSync(build, { recursive: true, force: true });
    }
  });
  cached = {
    python: path.join(venv, "bin", "python"),
    venv,
    created: madeBase || created,
    seconds: (performance.now() - started) / 1000,
    pins,
  };
  return cached;
}

module.exports = { ensurePythonEnv, REQUIREMENTS };
