import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RESOURCE_KEYS, registry } from "../../../provider/kinds/registry";
import { SCHEMA_DOCS } from "../../../provider/plugin/schema";

const root = path.resolve(__dirname, "..", "..", "..");
const { RESOURCES_DOC, resourcesDoc } = createRequire(__filename)("../../../scripts/lib/resources-doc.js");

describe("docs/resources.md", () => {
  const page = fs.readFileSync(path.join(root, RESOURCES_DOC), "utf8");

  it("holds the reference the declarations and their TSDoc make (else: npm run gen-sdks)", () => {
    expect(resourcesDoc(registry, SCHEMA_DOCS, page)).toBe(page);
  });

  it.each(RESOURCE_KEYS)("%s: every input and output has a row of the reference", (key) => {
    const { inputs, outputs } = registry[key].declaration;
    const block = page.slice(
      page.indexOf(`<!-- generated: ${key} `),
      page.indexOf(`<!-- end generated: ${key} -->`),
    );
    for (const name of [...Object.keys(inputs), ...Object.keys(outputs)]) {
      expect(block, `${key}.${name}`).toMatch(new RegExp(`^\\| \`${name}\``, "m"));
    }
  });

  it("refuses a page that lacks a kind's block", () => {
    const without = page.replace(/<!-- generated: volume [\s\S]*?<!-- end generated: volume -->/, "");
    expect(() => resourcesDoc(registry, SCHEMA_DOCS, without)).toThrow(/missing: volume/);
  });
});
