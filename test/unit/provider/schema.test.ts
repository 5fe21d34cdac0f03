import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RESOURCE_KEYS, registry } from "../../../provider/kinds/registry";
import type { ResourceDeclaration } from "../../../provider/model/declaration";
import { LOOKUPS } from "../../../provider/plugin/functions";
import {
  CHANGE_SENTENCES,
  packageSchema,
  SCHEMA_DOCS,
  type SchemaProperty,
} from "../../../provider/plugin/schema";

const root = path.resolve(__dirname, "..", "..", "..");
const schema = packageSchema("1.2.3");
const ANY = "pulumi.json#/Any";

interface Described {
  description?: string;
  properties?: Record<string, SchemaProperty>;
  inputProperties?: Record<string, SchemaProperty>;
}

/** Every place of the schema that must say something, by a name that finds it. */
function describedPlaces(): [string, Described | SchemaProperty][] {
  const places: [string, Described | SchemaProperty][] = [];
  const members = (owner: string, props: Record<string, SchemaProperty> | undefined) => {
    for (const [name, p] of Object.entries(props ?? {})) places.push([`${owner}.${name}`, p]);
  };
  for (const [token, r] of Object.entries(schema.resources)) {
    places.push([token, r]);
    members(`${token} input`, r.inputProperties);
    members(`${token} output`, r.properties);
  }
  for (const [token, t] of Object.entries(schema.types)) {
    places.push([token, t]);
    members(token, t.properties);
  }
  for (const [token, f] of Object.entries(schema.functions) as [string, Record<string, Described>][]) {
    places.push([token, f as Described]);
    members(`${token} argument`, f.inputs?.properties);
    members(`${token} answer`, f.outputs?.properties);
  }
  members("config", schema.config.variables);
  return places;
}

describe("the schema says what everything is", () => {
  it("describes every resource, input, output, type, member, function, argument and config key", () => {
    const undocumented = describedPlaces()
      .filter(([, p]) => !p.description?.trim())
      .map(([name]) => name);
    expect(undocumented).toEqual([]);
  });

  it.each(RESOURCE_KEYS)("%s: every output typed (no Any), the ones always there required", (key) => {
    const declaration: ResourceDeclaration = registry[key].declaration;
    const resource = schema.resources[`platform:index:${declaration.type}`];
    const untyped = Object.entries(resource?.properties ?? {})
      .filter(([, p]) => p.$ref === ANY || (!p.type && !p.$ref))
      .map(([name]) => name);
    expect(untyped).toEqual([]);
    for (const [name, output] of Object.entries(declaration.outputs)) {
      expect(resource?.required.includes(name), `${name} required`).toBe(
        output.valueType.type !== "nullable",
      );
    }
  });

  it("types each lookup's answer, and every object member except a free-form list's entries", () => {
    for (const name of Object.keys(LOOKUPS)) {
      const outputs = (schema.functions[`platform:index:${name}`] as { outputs: Described }).outputs;
      const { validationErrors, ...typed } = outputs.properties ?? {};
      expect(JSON.stringify(typed), name).not.toContain(ANY);
      if (validationErrors) expect(validationErrors).toMatchObject({ type: "array", items: { $ref: ANY } });
    }
    // The one value of no known shape: a certificate's validation problems, as the platform words them.
    const anyPlaces = JSON.stringify(schema).match(/"items":\{"\$ref":"pulumi\.json#\/Any"/g) ?? [];
    const validationErrors =
      JSON.stringify(schema).match(/"validationErrors":\{[^}]*"items":\{"\$ref/g) ?? [];
    expect(anyPlaces.length).toBe(validationErrors.length);
  });

  it("a single lookup's outputs are its answer's fields, as Pulumi's providers answer; a list's are under items", () => {
    const outputsOf = (name: string) =>
      (schema.functions[`platform:index:${name}`] as { outputs: Described & { required?: string[] } })
        .outputs;
    const volume = outputsOf("getVolume");
    expect(Object.keys(volume.properties ?? {})).toEqual(
      expect.arrayContaining(["name", "volumeId", "sizeGb", "state"]),
    );
    expect(volume.properties).not.toHaveProperty("result");
    expect(volume.required).toEqual(expect.arrayContaining(["name", "volumeId"]));
    expect(volume.required).not.toContain("attachedMachineId");
    expect(Object.keys(outputsOf("listVolumes").properties ?? {})).toEqual(["items"]);
  });

  it("names real packages in every language, and where the package lives", () => {
    expect(schema.language.go.importBasePath).toBe(
      "github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform",
    );
    expect(schema.language.python.packageName).toBe("pulumi_platform");
    expect(schema.language.csharp.rootNamespace).toBe("Pulumi");
    expect(schema.language.java.basePackage).toBe("com.pulumiplatform");
    // Not this npm package's name: a generated SDK of that name would replace it (docs/plugin.md).
    expect(schema.language.nodejs.packageName).toBe("@pulumi-platform/platform");
    expect(schema).toMatchObject({ license: "Apache-2.0", publisher: "pulumi-platform" });
    expect(schema.keywords).toEqual(expect.arrayContaining(["category/cloud", "kind/native"]));
    expect(schema.repository).toBe(schema.homepage);
  });
});

describe("the schema's texts are the TSDoc's, and the committed schema is the plugin's", () => {
  it("provider/plugin/schema-docs.json is what the TSDoc says (else: npm run gen-sdks)", () => {
    const { extractSchemaDocs } = createRequire(__filename)("../../../scripts/lib/schema-docs.js");
    expect(extractSchemaDocs(root)).toEqual(SCHEMA_DOCS);
  }, 120_000);

  it("sdk-gen/schema.json is the schema the plugin serves (else: npm run gen-sdks)", () => {
    const committed = JSON.parse(fs.readFileSync(path.join(root, "sdk-gen", "schema.json"), "utf8"));
    expect(committed).toEqual(packageSchema(committed.version));
  });
});

// What a change of an input does is its declared `change`: docs/resources.md shows it in a column,
// the schema says it in one generated sentence per tag; the input's TSDoc never restates it
// (a `special` input's own rule stays its TSDoc's).
describe("an input's change is said once, from its tag", () => {
  const RESTATED = /Changing it (replaces|updates|is only recorded)|Changes in place|Only recorded\./;
  it.each(RESOURCE_KEYS)("%s: the schema's input descriptions end with their tag's sentence", (key) => {
    const declaration: ResourceDeclaration = registry[key].declaration;
    const resource = schema.resources[`platform:index:${declaration.type}`];
    for (const [name, input] of Object.entries(declaration.inputs)) {
      const doc = SCHEMA_DOCS.resources[key]?.inputs[name]?.description ?? "";
      const sentence = CHANGE_SENTENCES[input.change];
      expect(resource?.inputProperties[name]?.description, name).toBe(sentence ? `${doc} ${sentence}` : doc);
      if (input.change !== "special")
        expect(doc, `${key}.${name}'s TSDoc restates its change`).not.toMatch(RESTATED);
    }
  });
});

describe("the schema's examples", () => {
  it("every resource's description ends with its example in TypeScript, Python, Go and YAML, as examples/schema/<kind>/ holds it", () => {
    const resources = packageSchema().resources as Record<string, { description?: string }>;
    expect(Object.keys(resources)).toHaveLength(RESOURCE_KEYS.length);
    for (const key of RESOURCE_KEYS) {
      const token = Object.keys(resources).find(
        (t) => t.toLowerCase() === `platform:index:${key.toLowerCase()}`,
      );
      const description = resources[token ?? ""]?.description ?? "";
      expect(description, key).toMatch(
        /\{\{% examples %\}\}\n## Example Usage\n\n\{\{% example %\}\}\n### .+\n/,
      );
      expect(description, key).toMatch(/\{\{% \/example %\}\}\n\{\{% \/examples %\}\}$/);
      const go = fs.readFileSync(path.join(root, "examples", "schema", key, "main.go"), "utf8").trimEnd();
      for (const fence of ["typescript", "python", "go", "yaml"])
        expect(description, key).toContain(`\`\`\`${fence}\n`);
      expect(description, key).toContain(`\`\`\`go\n${go}\n\`\`\``);
    }
  });
});
