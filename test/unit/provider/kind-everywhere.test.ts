import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as root from "../../../provider/dynamic";
import * as declarations from "../../../provider/kinds/declarations";
import { RESOURCE_KEYS, type ResourceKey, registry } from "../../../provider/kinds/registry";
import * as plugin from "../../../provider/plugin";
import { mockers } from "../../../provider/testing/outputs";
import { PlatformClient } from "../../../sdk";

// A new kind is one definition (its home's kind.ts) and one line of provider/kinds/registry.ts;
// the compiler names the tables typed by the registry. This test names every other place a kind
// must be, so that a registry kind missing from any of them fails here (CONTRIBUTING.md, "A new
// resource kind"). Its creation at the emulator (the emulator's route and store, the sdk's call)
// is test/integration/provider/declared-outputs.test.ts.

const repoRoot = path.resolve(__dirname, "..", "..", "..");
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), "utf8");

/** The class a program constructs: the declaration's type (a component's, for the snapshot). */
const classOf = (key: ResourceKey) => registry[key].declaration.type;

/**
 * The prose lists of the kinds: each names every kind by its definition's `noun`. Where a list
 * names only some on purpose, the kinds it leaves out are listed here with why.
 */
const PROSE: {
  file: string;
  text: (file: string) => string;
  leavesOut?: Partial<Record<ResourceKey, string>>;
}[] = [
  { file: "README.md", text: (f) => read(f).split("\n\n")[1] ?? "" },
  { file: "provider/index.ts", text: (f) => read(f).slice(0, read(f).indexOf("@module")) },
  {
    file: "provider/plugin/schema.ts",
    text: (f) => /description: "([^"]*of the platform\.)"/.exec(read(f))?.[1] ?? "",
  },
  { file: "package.json", text: (f) => JSON.parse(read(f)).description },
  {
    file: "provider/policy/index.ts",
    text: (f) => /description: "(Guardrails[^"]*)"/.exec(read(f))?.[1] ?? "",
    // The ready pack's description names what its rules guard.
    leavesOut: { volumeSnapshot: "the pack has no rule of a snapshot request" },
  },
];

describe.each(RESOURCE_KEYS)("the kind %s is everywhere a kind must be", (key) => {
  const definition = registry[key];

  it("its definition: runtime, mock, recover's rule and the client families its runtime calls", () => {
    const provider = definition.runtime();
    for (const method of ["check", "diff", "create", "read", "update", "delete", "about"] as const) {
      expect(typeof provider[method], `runtime().${method}`).toBe("function");
    }
    expect(typeof definition.mock(), "mock()").toBe("function");
    expect(mockers[key]).toBe(definition.mock());
    expect(typeof definition.recovery.owned).toBe("function");
    expect(typeof definition.recovery.find).toBe("function");
    const client = new PlatformClient({ baseUrl: "http://127.0.0.1:9", token: "t" });
    expect(definition.clients.length).toBeGreaterThan(0);
    for (const family of definition.clients) expect(typeof client[family], family).toBe("object");
  });

  it("the package root exports its class and validate…Args; kinds/declarations its declaration", () => {
    const name = classOf(key);
    expect(typeof (root as Record<string, unknown>)[name], `pulumi-platform's ${name}`).toBe("function");
    expect(typeof (root as Record<string, unknown>)[`validate${name}Args`], `validate${name}Args`).toBe(
      "function",
    );
    expect((declarations as Record<string, unknown>)[`${key}Declaration`]).toBe(definition.declaration);
    expect(typeof (plugin as Record<string, unknown>)[name], `pulumi-platform/plugin's ${name}`).toBe(
      "function",
    );
  });

  it("its schema example in every language (examples/schema/<key>/)", () => {
    for (const file of ["index.ts", "__main__.py", "main.go", "Pulumi.yaml"]) {
      expect(fs.existsSync(path.join(repoRoot, "examples", "schema", key, file)), `${key}/${file}`).toBe(
        true,
      );
    }
  });

  it("its reference block in docs/resources.md and its line in the README", () => {
    expect(read("docs/resources.md")).toContain(`<!-- generated: ${key} `);
    const readme = read("README.md");
    const parts = readme.split("\n").find((line) => line.startsWith("| Provider |")) ?? "";
    expect(parts, "README's table of parts").toContain(`\`${classOf(key)}\``);
    // What a change of each resource does, one item each.
    expect(readme).toMatch(new RegExp(`^- \\*\\*[^\\n]*\`${classOf(key)}\``, "m"));
  });

  it.each(PROSE)("the prose list of kinds in $file names it", ({ file, text, leavesOut }) => {
    const prose = text(file);
    expect(prose, file).not.toBe("");
    if (leavesOut?.[key]) {
      expect(prose.toLowerCase(), `${file} leaves ${key} out`).not.toContain(definition.noun.toLowerCase());
      return;
    }
    expect(prose.toLowerCase(), `${file} names ${definition.noun}`).toContain(definition.noun.toLowerCase());
  });
});
