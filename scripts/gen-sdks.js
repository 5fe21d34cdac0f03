// @ts-check
// `npm run gen-sdks`: the package schema and the SDKs generated from it, in one command.
//
//   1. the descriptions: the TSDoc of the declarations and lookups → provider/plugin/schema-docs.json
//      (scripts/lib/schema-docs.js), both doors' classes (provider/dynamic/classes.ts,
//      provider/plugin/classes.ts and each door's kind-exports.ts, from the registry, each kind's
//      class.ts and its declaration's TSDoc: scripts/lib/door-classes.js), then `tsc` (dist/, which
//      the plugin runs), then the generated
//      kinds' names the classes register with (provider/kinds/kind-names.json) and the generated
//      blocks of docs/resources.md from the built registry and those descriptions
//      (scripts/lib/resources-doc.js);
//   2. sdk-gen/schema.json: the schema the plugin serves (`pulumi package get-schema`), written
//      from the built schema module at the package's version;
//   3. sdk-gen/go, sdk-gen/python: Pulumi's Go and Python code generators at the CLI's version
//      (scripts/sdk-codegen, the code `pulumi package gen-sdk` runs in the language hosts), plus
//      the Go SDK's go.mod/go.sum, and the hand-written files of scripts/sdk-extras/<language>/ (the
//      SDKs' unit-test mocks) copied in;
//   4. sdk-gen/dotnet, sdk-gen/java: `pulumi package gen-sdk --language dotnet|java` when the
//      CLI finds pulumi-language-dotnet / pulumi-language-java (an official CLI install has them;
//      the machines this repo is tested on do not, and their generators are not Go modules the
//      proxy serves): skipped with a note otherwise, and the committed ones are left as they are.
//
// `--check` writes everything into a temporary directory instead, fails when it differs from the
// committed files, docs/resources.md and the doors' classes included (a declaration changed
// without `npm run gen-sdks`), then builds and vets the Go SDK and the Go quickstart (examples/go-quickstart: its program,
// which must compile without a cast, main.go and the Automation API driver) and the schema's Go
// examples (examples/schema) and byte-compiles
// the Python SDK (test/e2e/python-quickstart.test.ts installs it from a wheel and type-checks the
// Python quickstart on it). CI runs it (.ci/run).
// Needs `go` and `python3`.
const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const check = process.argv.includes("--check");
const SDK_DIR = "sdk-gen";
/** The Pulumi Go SDK the generated Go SDK builds against: the CLI's version. */
const PULUMI_GO_SDK = "github.com/pulumi/pulumi/sdk/v3 v3.259.0";

const log = (/** @type {string} */ m) => process.stderr.write(`gen-sdks: ${m}\n`);
const run = (/** @type {string} */ cmd, /** @type {string[]} */ args, /** @type {string} */ cwd = root) =>
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
/**
 * Downloads the modules `dir`'s packages need before a build: Go fetches as many at once as it has
 * GOMAXPROCS, two on CI's machine, and a cold module cache waits on the network far more than on
 * the CPU (the Pulumi SDK's modules: about 3x faster at 16, measured).
 */
const fetchModules = (/** @type {string} */ dir) =>
  execFileSync("go", ["list", "-deps", "./..."], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, GOMAXPROCS: "16" },
  });
const timed = (/** @type {string} */ what, /** @type {() => void} */ fn) => {
  const start = Date.now();
  fn();
  log(`${what}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
};

/** Writes `content` to `file` when it differs (keeps mtimes, and the tree, quiet). */
function write(/** @type {string} */ file, /** @type {string} */ content) {
  if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === content) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** The code generator, built once per source version into the cache (as scripts/ensure-pulumi). */
function codegen() {
  const dir = path.join(root, "scripts", "sdk-codegen");
  const hash = crypto.createHash("sha256");
  for (const f of ["go.mod", "go.sum", "main.go"]) hash.update(fs.readFileSync(path.join(dir, f)));
  const cache = process.env.PULUMI_PLATFORM_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-platform");
  const bin = path.join(cache, `sdk-codegen-${hash.digest("hex").slice(0, 12)}`, "sdk-codegen");
  if (!fs.existsSync(bin)) {
    timed("built scripts/sdk-codegen", () => {
      fetchModules(dir);
      run("go", ["build", "-o", `${bin}.tmp`, "."], dir);
    });
    fs.renameSync(`${bin}.tmp`, bin);
  }
  return bin;
}

/**
 * The directory holding `pulumi` (and any language hosts beside it), when there is one: the
 * tests' CLI, else one on PATH. Never a build (scripts/ensure-pulumi): the only hosts a private
 * build has are nodejs and YAML, and the .NET and Java SDKs need theirs (an official install).
 */
function cliDir() {
  if (process.env.PULUMI_PLATFORM_CLI_DIR) return process.env.PULUMI_PLATFORM_CLI_DIR;
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .find((d) => d && fs.existsSync(path.join(d, "pulumi")));
}

function hasExecutable(/** @type {string} */ name, /** @type {string[]} */ dirs) {
  return dirs.some((d) => fs.existsSync(path.join(d, name)));
}

/**
 * The Python package's README.md, beside its pyproject.toml (whose `readme` names it: Pulumi's
 * generator writes its README into the package directory, which the wheel's description would
 * otherwise miss): what the package is and how to install it.
 * @param {{ description: string, version: string, language: { python: { packageName: string } } }} schema
 */
function pythonReadme(schema) {
  const name = schema.language.python.packageName;
  return `# ${name}

${schema.description}

The Python SDK of the Platform provider, generated from the plugin's schema by Pulumi's Python code
generator (never by hand). Typed (\`py.typed\`): \`mypy --strict\` checks programs written on it.

## Install

Beside the Pulumi SDK, into the program's virtualenv, from a checkout of the repository:

\`\`\`sh
python3 -m venv venv
venv/bin/python -m pip install ./sdk-gen/python "pulumi>=3.259.0,<4"
\`\`\`

or as a wheel (to install elsewhere, e.g. from a \`requirements.txt\`):

\`\`\`sh
python3 -m pip wheel --no-deps --wheel-dir dist ./sdk-gen/python   # dist/${name}-${schema.version}-py3-none-any.whl
\`\`\`

The resources run in the provider plugin \`pulumi-resource-platform\` (the npm package
\`pulumi-platform\`, Node.js 22.19 or later): the Pulumi CLI finds it on \`PATH\`, through
\`plugins.providers\` in \`Pulumi.yaml\`, or in its plugin cache (docs/overview.md). A whole program,
run as a \`runtime: python\` project or through the Automation API: examples/python-quickstart.
`;
}

/**
 * The hand-written files an SDK ships beside the generated ones (scripts/sdk-extras/<language>/,
 * at the same paths): the unit-test mocks (`pulumi_platform.testing`, `platform/platformtest`).
 */
function copyExtras(/** @type {string} */ language, /** @type {string} */ target) {
  const extras = path.join(__dirname, "sdk-extras", language);
  if (fs.existsSync(extras)) fs.cpSync(extras, target, { recursive: true });
}

/** Generates schema.json and the SDKs under `out`; returns the languages generated. */
function generate(/** @type {string} */ out) {
  const { packageSchema } = require(path.join(root, "dist", "provider", "plugin", "schema.js"));
  const schemaFile = path.join(out, "schema.json");
  write(schemaFile, `${JSON.stringify(packageSchema(), null, 2)}\n`);

  const bin = codegen();
  for (const language of ["go", "python"]) {
    const target = path.join(out, language);
    timed(`${SDK_DIR}/${language}`, () => {
      const fresh = fs.mkdtempSync(path.join(os.tmpdir(), `sdk-${language}-`));
      run(bin, [schemaFile, language, fresh]);
      copyExtras(language, fresh);
      if (language === "go") {
        write(
          path.join(fresh, "go.mod"),
          `module ${path.posix.dirname(packageSchema().language.go.importBasePath)}\n\ngo 1.25\n\nrequire ${PULUMI_GO_SDK}\n`,
        );
        const committed = path.join(root, SDK_DIR, "go", "go.sum");
        if (fs.existsSync(committed)) fs.copyFileSync(committed, path.join(fresh, "go.sum"));
        execFileSync("go", ["mod", "tidy"], {
          cwd: fresh,
          stdio: ["ignore", "pipe", "inherit"],
          env: { ...process.env, GOMAXPROCS: "16" }, // downloads: see fetchModules
        });
      }
      if (language === "python") write(path.join(fresh, "README.md"), pythonReadme(packageSchema()));
      fs.rmSync(target, { recursive: true, force: true });
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.cpSync(fresh, target, { recursive: true });
      fs.rmSync(fresh, { recursive: true, force: true });
    });
  }

  const cli = cliDir();
  const dirs = [...(cli ? [cli] : []), ...(process.env.PATH ?? "").split(path.delimiter)];
  const generated = ["go", "python"];
  for (const language of ["dotnet", "java"]) {
    if (!cli || !hasExecutable(`pulumi-language-${language}`, dirs)) {
      log(`${SDK_DIR}/${language}: skipped (no pulumi-language-${language} beside the CLI or on PATH)`);
      continue;
    }
    const target = path.join(out, language);
    timed(`${SDK_DIR}/${language}`, () => {
      const fresh = fs.mkdtempSync(path.join(os.tmpdir(), `sdk-${language}-`));
      execFileSync(
        path.join(cli, "pulumi"),
        ["package", "gen-sdk", schemaFile, "--language", language, "--out", fresh],
        { stdio: "inherit", env: { ...process.env, PATH: dirs.join(path.delimiter) } },
      );
      fs.rmSync(target, { recursive: true, force: true });
      fs.cpSync(path.join(fresh, language), target, { recursive: true });
      fs.rmSync(fresh, { recursive: true, force: true });
    });
    generated.push(language);
  }
  return generated;
}

/**
 * What a build or a check leaves in an SDK's directory, not generated (sdk-gen/python/.gitignore):
 * a `pip install` of sdk-gen/python builds in place (build/, *.egg-info), mypy keeps a cache.
 */
const NOT_GENERATED = /(^|\/)(__pycache__|build|dist|\.mypy_cache|[^/]*\.egg-info)(\/|$)/;

/** The files under `dir`, relative, sorted. */
function files(/** @type {string} */ dir) {
  if (!fs.existsSync(dir)) return [];
  return /** @type {string[]} */ (fs.readdirSync(dir, { recursive: true, encoding: "utf8" }))
    .filter((f) => fs.statSync(path.join(dir, f)).isFile() && !NOT_GENERATED.test(f))
    .sort();
}

/** The files that differ between the committed `sdk-gen/<part>` and `fresh/<part>`. */
function differences(/** @type {string} */ fresh, /** @type {string[]} */ parts) {
  const out = [];
  for (const part of parts) {
    const a = path.join(root, SDK_DIR, part);
    const b = path.join(fresh, part);
    const names = [...new Set([...files(a), ...files(b)])].sort();
    for (const name of names) {
      const x = path.join(a, name);
      const y = path.join(b, name);
      if (!fs.existsSync(x)) out.push(`new: ${SDK_DIR}/${part}/${name}`);
      else if (!fs.existsSync(y)) out.push(`gone: ${SDK_DIR}/${part}/${name}`);
      else if (!fs.readFileSync(x).equals(fs.readFileSync(y)))
        out.push(`changed: ${SDK_DIR}/${part}/${name}`);
    }
  }
  return out;
}

function main() {
  timed("schema docs from the TSDoc", () => {
    const { extractSchemaDocs } = require("./lib/schema-docs");
    const docs = `${JSON.stringify(extractSchemaDocs(root), null, 2)}\n`;
    const file = path.join(root, "provider", "plugin", "schema-docs.json");
    if (check) {
      if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== docs) {
        throw new Error("provider/plugin/schema-docs.json is not the TSDoc's: run npm run gen-sdks");
      }
    } else write(file, docs);
  });
  timed("both doors' classes from the registry and the declarations", () => {
    // provider/{dynamic,plugin}/{classes,kind-exports}.ts and provider/kinds/{declarations,runtime-entry}.ts
    // (scripts/lib/door-classes.js), before
    // tsc compiles them.
    const { doorClasses } = require("./lib/door-classes");
    const stale = [];
    for (const [file, text] of Object.entries(doorClasses(root))) {
      const at = path.join(root, file);
      if (!check) write(at, text);
      else if (!fs.existsSync(at) || fs.readFileSync(at, "utf8") !== text) stale.push(file);
    }
    if (stale.length > 0)
      throw new Error(`${stale.join(", ")}: not the generated classes: run npm run gen-sdks`);
  });
  timed("tsc", () =>
    run(process.execPath, [
      path.join(root, "node_modules", "typescript", "bin", "tsc"),
      "-p",
      "tsconfig.json",
    ]),
  );
  timed("provider/kinds/kind-names.json from the registry", () => {
    // What the classes register with (provider/kinds/names.ts), so that they load no declaration.
    const { registry, RESOURCE_KEYS } = require(path.join(root, "dist", "provider", "kinds", "registry.js"));
    const { kindNames } = require(path.join(root, "dist", "provider", "model", "kind-names.js"));
    const names = Object.fromEntries(
      RESOURCE_KEYS.map((/** @type {string} */ k) => [k, kindNames(registry[k])]),
    );
    const text = `${JSON.stringify(names, null, 2)}\n`;
    const file = path.join(root, "provider", "kinds", "kind-names.json");
    if (check) {
      if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) {
        throw new Error("provider/kinds/kind-names.json is not the registry's: run npm run gen-sdks");
      }
    } else {
      write(file, text);
      // The copy tsc made before this run wrote the file.
      write(path.join(root, "dist", "provider", "kinds", "kind-names.json"), text);
    }
  });
  timed("docs/resources.md from the declarations", () => {
    const { RESOURCES_DOC, resourcesDocFromDist } = require("./lib/resources-doc");
    const page = resourcesDocFromDist(root);
    const file = path.join(root, RESOURCES_DOC);
    if (check) {
      if (fs.readFileSync(file, "utf8") !== page) {
        throw new Error(`${RESOURCES_DOC} is not the declarations': run npm run gen-sdks`);
      }
    } else write(file, page);
  });

  if (!check) {
    const generated = generate(path.join(root, SDK_DIR));
    log(`wrote ${SDK_DIR}/schema.json and ${generated.map((l) => `${SDK_DIR}/${l}`).join(", ")}`);
    return;
  }

  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-gen-check-"));
  try {
    const generated = generate(fresh);
    const diff = differences(fresh, generated);
    const schema = path.join(root, SDK_DIR, "schema.json");
    if (
      !fs.existsSync(schema) ||
      !fs.readFileSync(schema).equals(fs.readFileSync(path.join(fresh, "schema.json")))
    ) {
      diff.unshift(`changed: ${SDK_DIR}/schema.json`);
    }
    if (diff.length > 0) {
      throw new Error(
        `the committed SDKs are not the schema's (run npm run gen-sdks):\n  ${diff.join("\n  ")}`,
      );
    }
    log(`${SDK_DIR}: schema.json and ${generated.join(", ")} match the declarations`);
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  timed("go build && go vet (sdk-gen/go)", () => {
    fetchModules(path.join(root, SDK_DIR, "go"));
    run("go", ["build", "./..."], path.join(root, SDK_DIR, "go"));
    run("go", ["vet", "./..."], path.join(root, SDK_DIR, "go"));
  });
  timed("go build && go vet (examples/go-quickstart: its program, main.go and the automation driver)", () => {
    // Several packages: built, the binaries discarded.
    fetchModules(path.join(root, "examples", "go-quickstart"));
    run("go", ["build", "./..."], path.join(root, "examples", "go-quickstart"));
    run("go", ["vet", "./..."], path.join(root, "examples", "go-quickstart"));
  });
  timed("go build && go vet (examples/schema: each resource's example of the schema)", () => {
    fetchModules(path.join(root, "examples", "schema"));
    run("go", ["build", "./..."], path.join(root, "examples", "schema"));
    run("go", ["vet", "./..."], path.join(root, "examples", "schema"));
  });
  timed("python3 -m compileall (sdk-gen/python)", () => {
    const pycache = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-gen-pycache-"));
    try {
      execFileSync("python3", ["-m", "compileall", "-q", path.join(SDK_DIR, "python")], {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, PYTHONPYCACHEPREFIX: pycache },
      });
    } finally {
      fs.rmSync(pycache, { recursive: true, force: true });
    }
  });
}

try {
  main();
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
