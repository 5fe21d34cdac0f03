/**
 * The package schema of the `platform` provider plugin, derived from the declarations (the input
 * rules give the input types and which inputs are required; the outputs' type tags give the
 * output types and which outputs are always there) and the lookup table (./functions). The
 * descriptions are the TSDoc of the declarations and the lookups, read by the TypeScript compiler
 * (scripts/lib/schema-docs.js) into ./schema-docs.json, since the plugin has no compiler. Never
 * written by hand: unit tests check that every declared input and output, and nothing else, is in
 * it, typed and described, and that ./schema-docs.json is the TSDoc's.
 * @module
 */
import { z } from "zod";
import { registry } from "../kinds/registry";
import {
  type InputChange,
  inputSchema,
  outputNames,
  type ResourceDeclaration,
  secretNames,
  storedInputs,
} from "../model/declaration";
import type { ValueType } from "../model/value-types";
import { PACKAGE_VERSION } from "../runtime/version";
import { LOOKUPS } from "./functions";
import schemaDocs from "./schema-docs.json";
import { PLUGIN_PACKAGE, pluginToken } from "./tokens";

/** A property's description and, for an object (or a list of objects), its type's and members'. */
export interface DocNode {
  readonly description?: string;
  readonly type?: string;
  readonly members?: Readonly<Record<string, DocNode>>;
}

/** The descriptions of the schema, from the TSDoc (scripts/lib/schema-docs.js). */
export interface SchemaDocs {
  /** By registry key: the declaration's comment, its inputs' and outputs'. */
  readonly resources: Readonly<
    Record<
      string,
      {
        readonly description?: string;
        readonly inputs: Readonly<Record<string, DocNode>>;
        readonly outputs: Readonly<Record<string, DocNode>>;
      }
    >
  >;
  /** By lookup: its comment, its arguments', its answer's type's and members'. */
  readonly functions: Readonly<
    Record<
      string,
      {
        readonly description?: string;
        readonly args: Readonly<Record<string, DocNode>>;
        readonly type?: string;
        readonly result: Readonly<Record<string, DocNode>>;
      }
    >
  >;
}

/** The descriptions the plugin serves (written by `npm run gen-sdks`). */
export const SCHEMA_DOCS: SchemaDocs = schemaDocs;

/** A property of the Pulumi package schema (the subset this package uses). */
export interface SchemaProperty {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: SchemaProperty;
  additionalProperties?: SchemaProperty;
  enum?: { value: string }[];
  secret?: boolean;
  description?: string;
}

interface ObjectType {
  type: "object";
  description?: string;
  properties: Record<string, SchemaProperty>;
  required?: string[];
}

/** The JSON schema zod produces for a rule (the subset the rules use). */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  anyOf?: JsonSchema[];
}

const ANY: SchemaProperty = { $ref: "pulumi.json#/Any" };

/** Object types named by the resources' properties (`platform:index:VolumeCompute`). */
type NamedTypes = Record<string, ObjectType>;

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `property` with `doc`'s description, when it has one. */
function described(property: SchemaProperty, doc: DocNode | undefined): SchemaProperty {
  return doc?.description ? { ...property, description: doc.description } : property;
}

/** Records the named type `typeName`; the first description and members' descriptions win. */
function named(
  types: NamedTypes,
  typeName: string,
  type: ObjectType,
  doc: DocNode | undefined,
): SchemaProperty {
  const token = pluginToken(typeName);
  types[token] ??= doc?.type ? { ...type, description: doc.type } : type;
  return { $ref: `#/types/${token}` };
}

/** The schema property of a JSON schema; an object with members becomes a named type. */
function propertyOf(json: JsonSchema, typeName: string, types: NamedTypes, doc?: DocNode): SchemaProperty {
  const variants = json.anyOf?.filter((v) => v.type !== "null");
  if (variants && variants.length === 1 && variants[0]) return propertyOf(variants[0], typeName, types, doc);
  switch (json.type) {
    case "string":
      return { type: "string" };
    case "integer":
    case "number":
    case "boolean":
      return { type: json.type };
    case "array":
      return {
        type: "array",
        items: json.items ? propertyOf(json.items, `${typeName}Item`, types, doc) : ANY,
      };
    case "object": {
      if (json.properties && Object.keys(json.properties).length > 0) {
        return named(types, typeName, objectType(json, typeName, types, doc), doc);
      }
      const values = typeof json.additionalProperties === "object" ? json.additionalProperties : undefined;
      return { type: "object", additionalProperties: values ? propertyOf(values, typeName, types) : ANY };
    }
    default:
      return ANY;
  }
}

function objectType(json: JsonSchema, typeName: string, types: NamedTypes, doc?: DocNode): ObjectType {
  const properties: Record<string, SchemaProperty> = {};
  for (const [name, member] of Object.entries(json.properties ?? {})) {
    const memberDoc = doc?.members?.[name];
    properties[name] = described(
      propertyOf(member, `${typeName}${capitalized(name)}`, types, memberDoc),
      memberDoc,
    );
  }
  return { type: "object", properties, ...(json.required?.length ? { required: json.required } : {}) };
}

/** The schema property of an output's type tag; an object becomes the named type of its tag. */
function propertyOfTag(tag: ValueType, types: NamedTypes, doc?: DocNode): SchemaProperty {
  switch (tag.type) {
    case "nullable":
      return propertyOfTag(tag.of, types, doc);
    case "any":
      return ANY;
    case "array":
      return { type: "array", items: propertyOfTag(tag.items, types, doc) };
    case "object": {
      const properties: Record<string, SchemaProperty> = {};
      for (const [name, member] of Object.entries(tag.properties)) {
        const memberDoc = doc?.members?.[name];
        properties[name] = described(propertyOfTag(member, types, memberDoc), memberDoc);
      }
      const required = alwaysThere(tag.properties);
      return named(
        types,
        tag.name,
        { type: "object", properties, ...(required.length ? { required } : {}) },
        doc,
      );
    }
    default:
      return { type: tag.type };
  }
}

/** The members whose tag is not nullable: they are always there. */
function alwaysThere(members: Readonly<Record<string, ValueType>>): string[] {
  return Object.keys(members).filter((name) => members[name]?.type !== "nullable");
}

/** The resource's inputs as a JSON object schema (zod's, of the checked input shape). */
function inputJson(declaration: ResourceDeclaration): JsonSchema {
  return z.toJSONSchema(inputSchema(declaration), { io: "input", unrepresentable: "any" }) as JsonSchema;
}

const NO_DOCS: SchemaDocs["resources"][string] = { inputs: {}, outputs: {} };

/**
 * What a change of an input does, said once per declared `change` at the end of the input's
 * description in the schema (so in the Python docstrings and the Go docs too): an input's TSDoc
 * never restates its tag (docs/resources.md shows it in its "A change" column). A `special`
 * input's own TSDoc says what its change does (the kind's own rule).
 */
export const CHANGE_SENTENCES: { readonly [C in InputChange]: string | undefined } = {
  replace: "Changing it replaces the resource.",
  update: "Changing it updates the resource in place.",
  record: "Changing it is only recorded in the stack.",
  special: undefined,
};

/** An input's schema property with the sentence of its declared `change` appended. */
function withChange(property: SchemaProperty, change: InputChange | undefined): SchemaProperty {
  const sentence = change && CHANGE_SENTENCES[change];
  // An undocumented input stays undocumented (a unit test names it).
  if (!sentence || !property.description) return property;
  return { ...property, description: `${property.description} ${sentence}` };
}

/**
 * One resource's entry: its inputs, required inputs, outputs, the outputs always there, secrets
 * and descriptions (`docs`: the declaration's, by name). An output is typed by its tag, a stored
 * input's output by the input's rule; it is always there when its tag is not nullable, or when it
 * is a required input stored as given.
 */
export function resourceSchema(
  declaration: ResourceDeclaration,
  types: NamedTypes,
  docs: SchemaDocs["resources"][string] = NO_DOCS,
) {
  const json = inputJson(declaration);
  const inputs = objectType(json, declaration.type, types, { members: docs.inputs });
  const requiredInputs = inputs.required ?? [];
  const secrets = new Set(secretNames(declaration));
  for (const name of secrets) {
    const property = inputs.properties[name];
    if (property) property.secret = true;
  }
  const stored = new Set<string>(storedInputs(declaration));
  const properties: Record<string, SchemaProperty> = {};
  const required: string[] = [];
  for (const name of outputNames(declaration)) {
    const declared = declaration.outputs[name];
    const doc = docs.outputs[name] ?? docs.inputs[name];
    const typed = declared ? propertyOfTag(declared.valueType, types, doc) : (inputs.properties[name] ?? ANY);
    properties[name] = {
      ...described(typed, doc),
      ...(secrets.has(name) ? { secret: true } : {}),
    };
    const always = declared
      ? declared.valueType.type !== "nullable"
      : stored.has(name) && requiredInputs.includes(name);
    if (always) required.push(name);
  }
  const inputProperties = Object.fromEntries(
    Object.entries(inputs.properties).map(([name, p]) => [
      name,
      withChange(p, declaration.inputs[name]?.change),
    ]),
  );
  return {
    ...(docs.description ? { description: docs.description } : {}),
    inputProperties,
    requiredInputs,
    properties,
    required,
    type: "object" as const,
  };
}

const CONFIG = {
  apiUrl: { type: "string", description: "Base URL of the platform API (else PLATFORM_API_URL)." },
  apiToken: {
    type: "string",
    secret: true,
    description: "API token of the platform (else PLATFORM_API_TOKEN); kept secret.",
  },
} satisfies Record<string, SchemaProperty>;

/** Where the package lives: the owner of the Go import path, the homepage and the repository. */
export const REPOSITORY = "https://github.com/pulumi-platform/pulumi-platform";
/**
 * Where the CLI downloads the plugin when it is not installed: the GitHub releases of
 * pulumi-platform/pulumi-platform (the CLI adds `pulumi-<name>` to the owner), asset
 * `pulumi-resource-platform-v<version>-<os>-<arch>.tar.gz` (scripts/plugin-archive.js). The
 * generated SDKs' `pulumi-plugin.json` carries it as `server`.
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-platform";
/** The Go SDK's import path (`sdk-gen/go/platform` of the repository). */
export const GO_IMPORT_PATH = "github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform";

/**
 * The package name of each language's SDK. Node.js names a package of its own,
 * `@pulumi-platform/platform`, not this npm package (`pulumi-platform`): TypeScript programs use
 * this package's classes (`pulumi-platform/plugin`), and a generated SDK named like it replaced it
 * in the program's `package.json` (the plugin's binary with it) at `pulumi package add`
 * (docs/plugin.md).
 */
const LANGUAGE = {
  go: { importBasePath: GO_IMPORT_PATH, generateResourceContainerTypes: true, respectSchemaVersion: true },
  python: { packageName: "pulumi_platform", pyproject: { enabled: true }, respectSchemaVersion: true },
  csharp: { rootNamespace: "Pulumi", respectSchemaVersion: true },
  java: { basePackage: "com.pulumiplatform", buildFiles: "gradle" },
  nodejs: { packageName: "@pulumi-platform/platform", respectSchemaVersion: true },
};

// An invoke answers an object: a single answer's fields are its members, a list is one member.
const ITEMS = "The entries found, in the platform's order.";

/** A single lookup's answer as the function's outputs: its fields, each typed and described. */
function answerFields(tag: ValueType, types: NamedTypes, doc: DocNode) {
  if (tag.type !== "object") throw new Error(`a single lookup answers an object, not ${tag.type}`);
  const properties: Record<string, SchemaProperty> = {};
  for (const [name, member] of Object.entries(tag.properties)) {
    const memberDoc = doc.members?.[name];
    properties[name] = described(propertyOfTag(member, types, memberDoc), memberDoc);
  }
  const required = alwaysThere(tag.properties);
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

/** The schema's functions: the lookups, their arguments and their answers, typed and described. */
function functionsSchema(types: NamedTypes, docs: SchemaDocs["functions"]) {
  const functions: Record<string, unknown> = {};
  for (const [name, lookup] of Object.entries(LOOKUPS)) {
    const doc = docs[name];
    const args = Object.fromEntries(lookup.args.map((a) => [a, described({ type: "string" }, doc?.args[a])]));
    const answerDoc = { ...(doc?.type ? { type: doc.type } : {}), members: doc?.result ?? {} };
    const outputs = lookup.list
      ? {
          type: "object",
          properties: {
            items: {
              type: "array",
              items: propertyOfTag(lookup.result, types, answerDoc),
              description: ITEMS,
            },
          },
          required: ["items"],
        }
      : answerFields(lookup.result, types, answerDoc);
    functions[pluginToken(name)] = {
      ...(doc?.description ? { description: doc.description } : {}),
      inputs: { type: "object", properties: args, required: lookup.required },
      outputs,
    };
  }
  return functions;
}

/** The package schema the plugin serves (`pulumi package get-schema`). */
export function packageSchema(version: string = PACKAGE_VERSION, docs: SchemaDocs = SCHEMA_DOCS) {
  const types: NamedTypes = {};
  const resources: Record<string, ReturnType<typeof resourceSchema>> = {};
  for (const [key, row] of Object.entries(registry)) {
    const declaration: ResourceDeclaration = row.declaration;
    resources[pluginToken(declaration.type)] = resourceSchema(declaration, types, docs.resources[key]);
  }
  const functions = functionsSchema(types, docs.functions);
  return {
    name: PLUGIN_PACKAGE,
    version,
    displayName: "Platform",
    description: "Volumes, certificates, Postgres password rotations and snapshots of the platform.",
    keywords: ["pulumi", "platform", "category/cloud", "kind/native"],
    homepage: REPOSITORY,
    repository: REPOSITORY,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    publisher: "pulumi-platform",
    license: "Apache-2.0",
    config: { variables: CONFIG },
    provider: {
      description: "The provider of the platform's resources: its API's URL and token.",
      inputProperties: CONFIG,
      properties: CONFIG,
      type: "object",
    },
    resources,
    functions,
    types,
    language: LANGUAGE,
  };
}
