import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

// The README and the docs are read inside the installed package (node_modules/pulumi-platform, the
// registry's page) as much as in a checkout: every relative link of a Markdown file the package
// ships must name a file the package ships (`npm pack --dry-run`'s list, what `files` selects), and
// an anchor must name a heading of the file it points into. written-paths.test.ts checks the same
// links against the checkout, where everything exists.

const ROOT = path.resolve(__dirname, "../../..");

let shipped: Set<string>;
/** Every folder holding a shipped file (a link may name a folder, e.g. `examples/quickstart`). */
let shippedDirs: Set<string>;

beforeAll(() => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, npm_config_loglevel: "error" },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 32 * 1024 * 1024,
  });
  const [{ files }] = JSON.parse(out) as [{ files: { path: string }[] }];
  shipped = new Set(files.map((f) => f.path));
  shippedDirs = new Set();
  for (const file of shipped) {
    for (let dir = path.posix.dirname(file); dir !== "."; dir = path.posix.dirname(dir)) shippedDirs.add(dir);
  }
}, 120_000);

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a Markdown text's headings (outside code blocks), numbered as GitHub does repeats. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links of a Markdown text (`[text](target)`), outside code blocks and inline code. */
function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
}

/** What is wrong with `link` written in the shipped file `from`, or undefined. */
function broken(from: string, link: string): string | undefined {
  const [target = "", anchor] = link.split("#");
  const file = target === "" ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), target));
  const bare = file.replace(/\/$/, "");
  if (!shipped.has(bare) && !shippedDirs.has(bare)) return "not in the package";
  if (anchor === undefined || !bare.endsWith(".md")) return undefined;
  return anchors(fs.readFileSync(path.join(ROOT, bare), "utf8")).has(anchor) ? undefined : "no such heading";
}

/**
 * Shipped Markdown files written for a checkout of the repository, which say so at their top: they
 * may name its tests, scripts and benches. Every other shipped text names only what the installed
 * package has.
 */
const FOR_A_CHECKOUT = new Set([
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  "docs/development.md",
  "docs/plugin-performance.md",
]);

/** The repository's own paths and commands that the package does not ship, named in `text`. */
function repositoryOnly(text: string): string[] {
  const visible = text.replace(/<!--[\s\S]*?-->/g, "");
  const paths = [...visible.matchAll(/(?<![\w/.-])((?:test|scripts|bench|\.ci)\/[\w./-]*)/g)]
    .map((m) => (m[1] ?? "").replace(/[.]+$/, ""))
    .filter((p) => !shipped.has(p) && !shippedDirs.has(p.replace(/\/$/, "")));
  const commands = [
    ...visible.matchAll(/npm run (gen-sdks|bench|record-upgrade-fixture|typecheck|lint)\b/g),
  ].map((m) => m[0]);
  return [...paths, ...commands];
}

describe("what the shipped texts name", () => {
  it("no shipped text but those for a checkout names a test, script or bench the package leaves out", () => {
    const markdown = [...shipped].filter((f) => f.endsWith(".md") && !FOR_A_CHECKOUT.has(f));
    expect(markdown.length).toBeGreaterThan(20);
    const problems = markdown.flatMap((file) =>
      repositoryOnly(fs.readFileSync(path.join(ROOT, file), "utf8")).map((name) => `${file}: ${name}`),
    );
    expect(problems).toEqual([]);
  });

  it("the texts for a checkout say so at their top", () => {
    for (const file of FOR_A_CHECKOUT) {
      if (file === "CHANGELOG.md") continue; // a history: it names what each release changed
      const top = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n").slice(0, 6).join("\n");
      expect(top, file).toMatch(/checkout/);
    }
  });

  it("a repository-only path or command is found, a shipped one is not", () => {
    expect(repositoryOnly("see `test/e2e/first-hour.test.ts` and scripts/ensure-pulumi")).toEqual([
      "test/e2e/first-hour.test.ts",
      "scripts/ensure-pulumi",
    ]);
    expect(repositoryOnly("run `npm run gen-sdks -- --check`")).toEqual(["npm run gen-sdks"]);
    expect(repositoryOnly("<!-- generated by npm run gen-sdks --> the sdk's sdk/README.md")).toEqual([]);
  });
});

describe("links inside the installed package", () => {
  it("the package ships the README and the docs it links first", () => {
    expect(shipped).toContain("README.md");
    expect(shipped).toContain("docs/plugin.md");
    expect(shipped).toContain("docs/resources.md");
  });

  it("every relative link of every shipped Markdown file names a shipped file and an existing heading", () => {
    const markdown = [...shipped].filter((f) => f.endsWith(".md"));
    const found = markdown.flatMap((from) =>
      links(fs.readFileSync(path.join(ROOT, from), "utf8")).map((link) => ({ from, link })),
    );
    // The README alone links a dozen files; a parser that finds nothing must not pass.
    expect(found.filter((f) => f.from === "README.md").length).toBeGreaterThan(20);
    const problems = found.flatMap(({ from, link }) => {
      const problem = broken(from, link);
      return problem ? [`${from}: (${link}) ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("a link to a file the package leaves out, or to a missing heading, is found", () => {
    expect(broken("README.md", "test/e2e/consumer.test.ts")).toBe("not in the package");
    expect(broken("README.md", "docs/plugin.md#no-such-heading")).toBe("no such heading");
    expect(broken("docs/adopt.md", "plugin.md#pulumi-import")).toBeUndefined();
  });
});
