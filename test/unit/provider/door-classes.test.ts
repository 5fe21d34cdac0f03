import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import * as root from "../../../provider/dynamic";
import { dynamicClasses } from "../../../provider/dynamic/classes";
import { pluginTypeToken, RESOURCE_KEYS, registry } from "../../../provider/kinds/registry";
import { SnapshotComponent } from "../../../provider/kinds/volume-snapshot/component";
import * as plugin from "../../../provider/plugin";
import { pluginClasses } from "../../../provider/plugin/classes";
import { packageSchema } from "../../../provider/plugin/schema";
import { KindResource } from "../../../provider/registration/kind-resource";

// Both doors serve every kind of the registry, each under the class name a program constructs,
// and export it.
describe("the doors' classes", () => {
  for (const [door, classes, exported] of [
    ["dynamic", dynamicClasses, root],
    ["plugin", pluginClasses, plugin],
  ] as const) {
    it(`the ${door} door has a class of every kind, exported under its name`, () => {
      expect(Object.keys(classes).sort()).toEqual([...RESOURCE_KEYS].sort());
      for (const key of RESOURCE_KEYS) {
        const row = registry[key];
        const cls = classes[key];
        const name = "component" in row ? row.component : row.declaration.type;
        expect(cls.name).toBe(name);
        expect((exported as Record<string, unknown>)[name]).toBe(cls);
        const base = "component" in row ? SnapshotComponent : KindResource;
        expect(cls.prototype).toBeInstanceOf(base);
      }
    });
  }
});

// A program in TypeScript reads the same outputs as one in another language reads from the schema:
// each class (the snapshot's component included) has an output of every property the plugin's
// schema gives its kind, set once constructed.
describe("the doors' classes have every output of the schema", () => {
  const schema = packageSchema().resources;
  // A component's last registrations (its outputs) end before the next kind's mocks start,
  // whatever the registry's order.
  afterEach(() => pulumi.runtime.disconnect());
  for (const [door, classes] of [
    ["dynamic", dynamicClasses],
    ["plugin", pluginClasses],
  ] as const) {
    it.each(RESOURCE_KEYS)(`the ${door} door's %s`, async (key) => {
      await pulumi.runtime.setMocks(
        { newResource: (args) => ({ id: `${args.name}_id`, state: {} }), call: (args) => args.inputs },
        "project",
        "test",
        false,
      );
      const properties = Object.keys(schema[pluginTypeToken(registry[key])]?.properties ?? {});
      expect(properties).toEqual(expect.arrayContaining(Object.keys(registry[key].declaration.outputs)));
      const Class = classes[key] as unknown as new (name: string, args: object) => Record<string, unknown>;
      const resource = new Class("r", {});
      const missing = properties.filter((name) => !pulumi.Output.isInstance(resource[name]));
      expect(missing).toEqual([]);
    });
  }
});

// Both doors' classes are generated (scripts/lib/door-classes.js, by `npm run gen-sdks`) from the
// registry, each kind's class.ts and its declaration's TSDoc.
describe("the doors' classes are generated", () => {
  const root = path.resolve(__dirname, "..", "..", "..");
  const { doorClasses } = createRequire(__filename)("../../../scripts/lib/door-classes.js") as {
    doorClasses: (root: string) => Record<string, string>;
  };

  it("provider/{dynamic,plugin}/{classes,kind-exports}.ts and provider/kinds/{declarations,runtime-entry}.ts are what gen-sdks writes (else: npm run gen-sdks)", () => {
    const generated = doorClasses(root);
    expect(Object.keys(generated).sort()).toEqual(
      ["classes.ts", "kind-exports.ts"]
        .flatMap((f) => [`provider/plugin/${f}`, `provider/dynamic/${f}`])
        .concat(["provider/kinds/declarations.ts", "provider/kinds/runtime-entry.ts"])
        .sort(),
    );
    for (const [file, text] of Object.entries(generated)) {
      expect(fs.readFileSync(path.join(root, file), "utf8"), file).toBe(text);
    }
  }, 120_000);

  // One text per resource: what a Python docstring, a Go doc and docs/resources.md say (the
  // schema's description, the declaration's TSDoc) is what a TypeScript hover on either door's
  // class says first; then one line of the door's, then the schema's TypeScript example.
  it.each(RESOURCE_KEYS)("%s: both doors' class and the schema say the same text", (key) => {
    const row = registry[key];
    const className = "component" in row ? row.component : row.declaration.type;
    const described = packageSchema().resources[pluginTypeToken(registry[key])]?.description ?? "";
    const text = described.replace(/\n*\{\{% examples %\}\}[\s\S]*$/, "");
    expect(text).not.toBe("");
    const example = fs.readFileSync(path.join(root, "examples", "schema", key, "index.ts"), "utf8").trimEnd();
    for (const [door, imported] of [
      ["dynamic", '"pulumi-platform"'],
      ["plugin", '"pulumi-platform/plugin"'],
    ] as const) {
      const doc = classDoc(path.join(root, "provider", door, "classes.ts"), className);
      expect(doc.text.startsWith(`${text}\n\n`), `${door}: ${doc.text}`).toBe(true);
      // One door line after the text, no more.
      expect(doc.text.slice(text.length + 2).split("\n\n"), door).toHaveLength(1);
      expect(doc.example, door).toBe(
        `\`\`\`ts\n${example.replaceAll('"pulumi-platform"', imported)}\n\`\`\``,
      );
    }
  });
});

/** A class's TSDoc in `file`: its text (one line per paragraph, as the schema's) and its example. */
function classDoc(file: string, name: string): { text: string; example: string } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const cls = source.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === name,
  );
  const [doc] = cls ? ts.getJSDocCommentsAndTags(cls).filter(ts.isJSDoc) : [];
  if (!doc) throw new Error(`${file}: no TSDoc on class ${name}`);
  const text = (ts.getTextOfJSDocComment(doc.comment) ?? "")
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " "))
    .join("\n\n");
  const example = doc.tags?.find((t) => t.tagName.text === "example");
  return { text, example: (ts.getTextOfJSDocComment(example?.comment) ?? "").trim() };
}
