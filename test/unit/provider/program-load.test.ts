import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What a Pulumi program loads when it imports the package (compiled, as a program does): every
// `pulumi up` and `preview` pays for it. The HTTP client and the sdk wait for the first lookup;
// the provider host loads them through `pulumi-platform/provider/runtime`.
const repoRoot = path.resolve(__dirname, "..", "..", "..");

/** Files in the require cache after `body` (an async function body) ran in a fresh Node. */
function loadedAfter(body: string): string[] {
  const script = `(async () => { ${body} })().then(() => console.log(JSON.stringify(Object.keys(require.cache))))`;
  const out = execFileSync(process.execPath, ["-e", script], { cwd: repoRoot, encoding: "utf8" });
  return (JSON.parse(out) as string[]).map((file) => path.relative(repoRoot, file));
}

const undici = (files: string[]) =>
  files.filter((f) => f.includes(`node_modules${path.sep}undici${path.sep}`));
/** Modules of the sdk that import nothing else of it: facts the declarations share with the sdk and the emulator. */
const SDK_CONSTANTS = [
  path.join("dist", "sdk", "schemas", "volume-constants.js"),
  path.join("dist", "sdk", "schemas", "postgres-users.js"),
  path.join("dist", "sdk", "schemas", "regions.js"),
  path.join("dist", "sdk", "field-path.js"),
  // The Node.js floor, checked at the package's import.
  path.join("dist", "sdk", "node-floor.js"),
  path.join("dist", "sdk", "node-floor-check.js"),
];
const sdk = (files: string[]) =>
  files.filter((f) => f.startsWith(path.join("dist", "sdk")) && !SDK_CONSTANTS.includes(f));

/** The provider host's runtime: its shared modules, and each kind's (`kinds/<kind>/runtime.js`, `runtimes.js`, …). */
const runtime = (files: string[]) =>
  files.filter(
    (f) =>
      f.startsWith(path.join("dist", "provider", "runtime")) ||
      (f.startsWith(path.join("dist", "provider", "kinds")) && /runtime/.test(path.basename(f))),
  );

describe("what a program loads", () => {
  it("declaring resources loads neither undici nor the sdk (only its import-free constants)", () => {
    const files = loadedAfter(
      `const p = require("./dist/provider"); if (!p.Volume) throw new Error("no Volume");`,
    );
    expect(files).toContain(path.join("dist", "provider", "dynamic", "classes.js"));
    expect(runtime(files)).toEqual([]);
    expect(undici(files)).toEqual([]);
    expect(sdk(files)).toEqual([]);
    // The kinds' definitions (the registry) reach their mocks only when called (pulumi-platform/testing).
    expect(files.filter((f) => /^mock\.js$/.test(path.basename(f)))).toEqual([]);
  });

  it("declaring the plugin door's resources loads no declaration, no zod and no runtime: only the kinds' names", () => {
    const files = loadedAfter(
      `const p = require("./dist/provider/plugin"); if (!p.Volume) throw new Error("no Volume");`,
    );
    expect(files).toContain(path.join("dist", "provider", "kinds", "kind-names.json"));
    expect(files.filter((f) => f.includes(`node_modules${path.sep}zod${path.sep}`))).toEqual([]);
    expect(files).not.toContain(path.join("dist", "provider", "model", "declaration.js"));
    expect(runtime(files)).toEqual([]);
    expect(undici(files)).toEqual([]);
  });

  it("the sdk modules it may load import nothing but each other", () => {
    for (const file of SDK_CONSTANTS) {
      const text = fs.readFileSync(path.join(repoRoot, file), "utf8");
      const imported = [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) =>
        path.join(path.dirname(file), `${m[1]}.js`),
      );
      expect(
        imported.filter((f) => !SDK_CONSTANTS.includes(f)),
        file,
      ).toEqual([]);
    }
  });

  it("a lookup loads them when it runs", () => {
    const files = loadedAfter(
      `await require("./dist/provider").listVolumes({ app: "a", apiUrl: "http://127.0.0.1:9", apiToken: "t" }).catch(() => {});`,
    );
    expect(undici(files).length).toBeGreaterThan(0);
    expect(sdk(files)).toContain(path.join("dist", "sdk", "client.js"));
  });

  it("a lookup loads no module of the provider host's runtime", () => {
    const files = loadedAfter(
      `await require("./dist/provider").listVolumes({ app: "a", apiUrl: "http://127.0.0.1:9", apiToken: "t" }).catch(() => {});`,
    );
    expect(runtime(files)).toEqual([]);
  });
});
