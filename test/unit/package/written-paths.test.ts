import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Paths written in prose go stale silently when a file moves: every relative path in a comment of
// the code (`./stubs`, `../kinds/registry`) and every repository path in the docs (a link, or a
// `provider/…` in backticks) must name a file or folder that exists.

const ROOT = path.resolve(__dirname, "../../..");
const CODE_DIRS = ["provider", "ops", "sdk", "emulator", "scripts", "bench"];
const TOP = ["provider", "ops", "sdk", "emulator", "scripts", "test", "bench", "examples", "docs", "sdk-gen"];
/** Paths a documented command writes (not in git): `npm run docs`, `npm run gen-sdks` with the .NET and Java hosts. */
const WRITTEN_BY_COMMANDS = ["docs/api", "sdk-gen/dotnet", "sdk-gen/java"];
const EXTENSIONS = ["", ".ts", ".js", ".mjs", ".cjs", ".md", ".json", ".go", "/index.ts"];

function walk(dir: string, keep: (file: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "api" ? [] : walk(full, keep);
    return keep(full) ? [full] : [];
  });
}

/** Whether `target` (a path without a placeholder) names something; a glob's folder must exist. */
function exists(target: string): boolean {
  const star = target.indexOf("*");
  if (star >= 0) return fs.existsSync(path.dirname(target.slice(0, star + 1)));
  return EXTENSIONS.some((ext) => fs.existsSync(target + ext));
}

/** A path as written, without the punctuation of the sentence around it and without an anchor. */
function bare(written: string): string {
  return written.replace(/[#:].*$/, "").replace(/[.,;)'`]+$/, "");
}

/** The comments of a source file (line and block comments), as text. */
function comments(source: string): string[] {
  return [...source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\\])\/\/[^\n]*/g)].map((m) => m[0]);
}

function stale(found: { file: string; written: string; target: string | string[] }[]): string[] {
  const generated = (t: string) => WRITTEN_BY_COMMANDS.some((g) => t.startsWith(path.join(ROOT, g)));
  return found
    .filter(({ target }) => {
      const targets = Array.isArray(target) ? target : [target];
      return targets.every((t) => !/[<>{}$]/.test(t) && !exists(t) && !generated(t));
    })
    .map(({ file, written }) => `${path.relative(ROOT, file)}: ${written}`);
}

describe("paths written in comments and docs", () => {
  it("every relative path in a comment of the code names a file or folder that exists", () => {
    const files = CODE_DIRS.flatMap((d) => walk(path.join(ROOT, d), (f) => /\.(ts|js|mjs|cjs)$/.test(f)));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      comments(fs.readFileSync(file, "utf8")).flatMap((text) =>
        [...text.matchAll(/(?<![\w./@-])\.\.?\/[\w./*<>{}$-]*/g)].map((m) => ({
          file,
          written: m[0],
          target: path.resolve(path.dirname(file), bare(m[0])),
        })),
      ),
    );
    expect(found.length).toBeGreaterThan(50);
    expect(stale(found)).toEqual([]);
  });

  it("every link and repository path in the docs names a file or folder that exists", () => {
    const docs = [
      ...["README.md", "CONTRIBUTING.md"].map((f) => path.join(ROOT, f)),
      ...walk(path.join(ROOT, "docs"), (f) => f.endsWith(".md")),
      ...walk(path.join(ROOT, "examples"), (f) => f.endsWith(".md")),
    ];
    const found = docs.flatMap((file) => {
      const text = fs.readFileSync(file, "utf8");
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] ?? "")
        .filter((link) => !/^[a-z]+:/.test(link) && !link.startsWith("#"))
        .map((written) => ({ file, written, target: path.resolve(path.dirname(file), bare(written)) }));
      const repoPaths = [...text.matchAll(/`((?:\.\.?\/)?([\w-]+)\/[\w./*-]*)`/g)]
        .filter((m) => TOP.includes(m[2] ?? "") || (m[1] ?? "").startsWith("."))
        .map((m) => m[1] ?? "")
        .map((written) => ({
          file,
          written,
          // `../shared/…` in prose may be written from the repository's root or from the doc's folder.
          target: written.startsWith(".")
            ? [path.resolve(path.dirname(file), bare(written)), path.resolve(ROOT, bare(written))]
            : path.resolve(ROOT, bare(written)),
        }));
      return [...links, ...repoPaths];
    });
    expect(found.length).toBeGreaterThan(50);
    expect(stale(found)).toEqual([]);
  });
});
