/**
 * The package schema of the `platform` provider plugin, derived from the declarations (the input
 * rules give the types and which inputs are required; an output takes its input's type, else any)
 * and the lookup table (./functions). Never written by hand: a unit test checks that every
 * declared input and output, and nothing else, is in it.
 * @module
 */
import { z } from "zod";
import { inputSchema, outputNames, type ResourceDeclaration, secretNames } from "../model/declaration";
import { registry } from "../model/registry";
import { PACKAGE_VERSION } from "../runtime/version";
import { LOOKUPS } from "./functions";
import { PLUGIN_PACKAGE, pluginToken } from "./tokens";

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
/** An object whose members a program reads by name (a lookup's answer). */
const ANY_OBJECT: SchemaProperty = { type: "object", additionalProperties: ANY };

/** Object types named by the resources' properties (`platform:index:VolumeCompute`). */
type NamedTypes = Record<string, ObjectType>;

function capitalized(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The schema property of a JSON schema; an object with members becomes a named type. */
function propertyOf(json: JsonSchema, typeName: string, types: NamedTypes): SchemaProperty {
  const variants = json.anyOf?.filter((v) => v.type !== "null");
  if (variants && variants.length === 1 && variants[0]) return propertyOf(variants[0], typeName, types);
  switch (json.type) {
    case "string":
      return { type: "string" };
    case "integer":
    case "number":
    case "boolean":
      return { type: json.type };
    case "array":
      return { type: "array", items: json.items ? propertyOf(json.items, `${typeName}Item`, types) : ANY };
    case "object": {
      if (json.properties && Object.keys(json.properties).length > 0) {
        types[pluginToken(typeName)] = objectType(json, typeName, types);
        return { $ref: `#/types/${pluginToken(typeName)}` };
      }
      const values = typeof json.additionalProperties === "object" ? json.additionalProperties : undefined;
      return { type: "object", additionalProperties: values ? propertyOf(values, typeName, types) : ANY };
    }
    default:
      return ANY;
  }
}

function objectType(json: JsonSchema, typeName: string, types: NamedTypes): ObjectType {
  const properties: Record<string, SchemaProperty> = {};
  for (const [name, member] of Object.entries(json.properties ?? {})) {
    properties[name] = propertyOf(member, `${typeName}${capitalized(name)}`, types);
  }
  return { type: "object", properties, ...(json.required?.length ? { required: json.required } : {}) };
}

/** The resource's inputs as a JSON object schema (zod's, of the checked input shape). */
function inputJson(declaration: ResourceDeclaration): JsonSchema {
  return z.toJSONSchema(inputSchema(declaration), { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** One resource's entry: its inputs, required inputs, outputs and secrets. */
export function resourceSchema(declaration: ResourceDeclaration, types: NamedTypes) {
  const json = inputJson(declaration);
  const inputs = objectType(json, declaration.type, types);
  const secrets = new Set(secretNames(declaration));
  for (const name of secrets) {
    const property = inputs.properties[name];
    if (property) property.secret = true;
  }
  const properties: Record<string, SchemaProperty> = {};
  for (const name of outputNames(declaration)) {
    properties[name] = {
      ...(inputs.properties[name] ?? ANY),
      ...(secrets.has(name) ? { secret: true } : {}),
    };
  }
  return {
    inputProperties: inputs.properties,
    requiredInputs: inputs.required ?? [],
    properties,
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

/** The package schema the plugin serves (`pulumi package get-schema`). */
export function packageSchema(version: string = PACKAGE_VERSION) {
  const types: NamedTypes = {};
  const resources: Record<string, ReturnType<typeof resourceSchema>> = {};
  for (const row of Object.values(registry)) {
    const declaration: ResourceDeclaration = row.declaration;
    resources[pluginToken(declaration.type)] = resourceSchema(declaration, types);
  }
  const functions: Record<string, unknown> = {};
  for (const [name, lookup] of Object.entries(LOOKUPS)) {
    const args = Object.fromEntries(lookup.args.map((a) => [a, { type: "string" }]));
    functions[pluginToken(name)] = {
      inputs: { type: "object", properties: args, required: lookup.required },
      outputs: {
        type: "object",
        properties: lookup.list ? { items: { type: "array", items: ANY } } : { result: ANY_OBJECT },
        required: lookup.list ? ["items"] : ["result"],
      },
    };
  }
  return {
    name: PLUGIN_PACKAGE,
    version,
    displayName: "Platform",
    description: "Volumes, certificates, Postgres password rotations and snapshots of the platform.",
    license: "Apache-2.0",
    config: { variables: CONFIG },
    provider: { inputProperties: CONFIG, properties: CONFIG, type: "object" },
    resources,
    functions,
    types,
    language: { nodejs: { packageName: "pulumi-platform-plugin-sdk", respectSchemaVersion: true } },
  };
}
