import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/policy.md's recipe for the ready pack, as a user types it: `npm init -y` writes
// `"main": "index.js"`, a file a TypeScript pack does not have, and Node then prints "[DEP0128]
// DeprecationWarning: Invalid 'main' field" each time the CLI loads the pack (at every preview).
// The recipe's own package.json lines are run here, and the pack's folder is loaded the way
// @pulumi/pulumi's policy runner loads it (`require(<folder>)` with ts-node registered).

const ROOT = path.resolve(__dirname, "../../..");
const recipe = (() => {
  const doc = fs.readFileSync(path.join(ROOT, "docs", "policy.md"), "utf8");
  const block = [...doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1] ?? "")
    .find((b) => b.includes("PulumiPolicy.yaml"));
  return (block ?? "").split("\n").map((l) => l.replace(/\s+#.*$/, "").trim());
})();

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "policy-recipe-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A pack folder made by `lines` (sh), with an index.ts; what loading it prints. */
function loadPack(name: string, lines: string[]) {
  const pack = path.join(dir, name);
  fs.mkdirSync(pack);
  for (const line of lines) {
    execFileSync("sh", ["-c", line], {
      cwd: pack,
      stdio: "ignore",
      env: { ...process.env, npm_config_loglevel: "error" },
    });
  }
  fs.writeFileSync(path.join(pack, "index.ts"), 'console.log("pack loaded");\n');
  const script = [
    `require(${JSON.stringify(require.resolve("ts-node", { paths: [ROOT] }))}).register({`,
    `  transpileOnly: true, compilerOptions: { module: "commonjs", moduleResolution: "node" } });`,
    `require(${JSON.stringify(pack)});`,
  ].join("\n");
  const run = spawnSync(process.execPath, ["-e", script], { cwd: pack, encoding: "utf8" });
  const manifest = JSON.parse(fs.readFileSync(path.join(pack, "package.json"), "utf8")) as Record<
    string,
    unknown
  >;
  return { ...run, manifest };
}

describe("docs/policy.md's recipe makes a pack that loads without a warning", () => {
  it("its package.json lines leave a `main` the pack has, and the `version` the CLI needs", () => {
    const setup = recipe.filter((l) => l.startsWith("npm init"));
    expect(setup).toHaveLength(1);
    const run = loadPack("recipe", setup);
    expect(run.stdout.trim()).toBe("pack loaded");
    expect(run.stderr).not.toContain("DeprecationWarning");
    expect(run.manifest.version).toEqual(expect.any(String));
    expect(fs.existsSync(path.join(dir, "recipe", String(run.manifest.main ?? "index.ts")))).toBe(true);
  });

  it("`npm init -y` alone would warn at every load", () => {
    const run = loadPack("bare", ["npm init -y"]);
    expect(run.stdout.trim()).toBe("pack loaded");
    expect(run.stderr).toContain("Invalid 'main' field");
  });
});
