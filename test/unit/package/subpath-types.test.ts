import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A program made from `pulumi new typescript` compiles with `"moduleResolution": "node"` (node10),
// which ignores `exports`: without `typesVersions` every subpath import (`pulumi-platform/plugin`,
// `/policy`, `/testing`, …) failed Pulumi's type check with TS2307. Each subpath of `exports` is
// compiled here against the package as npm installs it (its package.json and dist/).

const ROOT = path.resolve(__dirname, "../../..");
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
};
const subpaths = Object.keys(manifest.exports)
  .filter((k) => k !== "./package.json")
  .map((k) => (k === "." ? "pulumi-platform" : `pulumi-platform/${k.slice(2)}`));

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "subpath-types-"));
  const modules = path.join(dir, "node_modules");
  const installed = path.join(modules, "pulumi-platform");
  fs.mkdirSync(installed, { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(installed, "package.json"));
  fs.symlinkSync(path.join(ROOT, "dist"), path.join(installed, "dist"));
  for (const entry of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if (entry !== "pulumi-platform" && !entry.startsWith(".")) {
      fs.symlinkSync(path.join(ROOT, "node_modules", entry), path.join(modules, entry));
    }
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The diagnostics of a program importing every subpath, under `options`. */
function compile(options: ts.CompilerOptions): string[] {
  const file = path.join(dir, "index.ts");
  const lines = subpaths.map((s, i) => `import * as m${i} from "${s}";`);
  fs.writeFileSync(
    file,
    `${lines.join("\n")}\nexport const all = [${subpaths.map((_, i) => `m${i}`).join(", ")}];\n`,
  );
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, ...options });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("every subpath of the package has types", () => {
  it("under `pulumi new typescript`'s settings (module commonjs, moduleResolution node)", () => {
    expect(subpaths).toContain("pulumi-platform/plugin");
    expect(
      compile({ module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }),
    ).toEqual([]);
  });
  it("under node16 (exports)", () => {
    expect(
      compile({ module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 }),
    ).toEqual([]);
  });
});
