/**
 * The one list of the resource kinds, one row each. Its keys are the runtime keys the serialized
 * stubs name (`pulumi-platform/provider/runtime` exports each kind's provider under its key), so
 * recorded state keeps working: a key and a type never change. Each row is the kind's home
 * (`./<kind>/kind.ts`: declaration, day-2 warnings, import rule); the stubs (../classes/stubs),
 * the runtime's providers (./runtimes, exhaustive over these keys), both doors' classes and
 * warnings, the plugin's schema and import, `recover`'s kinds and the mocks come from here, and
 * the tests iterate it.
 *
 * One name per kind: the key is the camelCase of the class a program constructs (the
 * declaration's `type`), the runtime module exports the provider under the key, the declaration
 * is `<key>Declaration`. The type is the class's own name, except for a component (see
 * `volumeSnapshot`).
 *
 * Loaded by the program (for the classes): it holds names and declarations, never the runtime.
 * @module
 */
import type { ResourceDeclaration } from "../model/declaration";
import type { ImportRule, LifetimeRule } from "../model/kind-rules";
import { acmeCertificateKind, customCertificateKind } from "./certificates/kinds";
import { postgresPasswordRotationKind } from "./postgres-password-rotation/kind";
import { volumeKind } from "./volume/kind";
import { volumeSnapshotKind } from "./volume-snapshot/kind";

/** One resource kind. */
export interface ResourceRow<K extends string = string> {
  /**
   * The name under which the runtime exports the kind's provider; recorded stubs name it, so it
   * never changes.
   */
  readonly key: K;
  /**
   * The dynamic resource's type: the type token is `pulumi-nodejs:dynamic/platform:<type>`
   * ({@link typeToken}). Recorded in every resource's URN, so it never changes.
   */
  readonly type: string;
  /** Inputs and outputs; its `type` is the class a program constructs. */
  readonly declaration: ResourceDeclaration;
  /** The component a program constructs around the dynamic resource, when there is one. */
  readonly component?: string;
  /** Its day-2 warnings, which both doors print. */
  readonly lifetime: LifetimeRule;
  /** What an import id means to it, or why it cannot be imported. */
  readonly importing: ImportRule;
}

/** Rows whose `key` is the key they are listed under. */
type Rows<T> = { readonly [K in keyof T]: ResourceRow<K & string> };

function rows<const T extends Rows<T>>(r: T): T {
  return r;
}

/** Every resource kind, under its runtime key: each row is the kind's home (./<kind>/kind.ts). */
export const registry = rows({
  volume: volumeKind,
  acmeCertificate: acmeCertificateKind,
  customCertificate: customCertificateKind,
  postgresPasswordRotation: postgresPasswordRotationKind,
  volumeSnapshot: volumeSnapshotKind,
});

/** A runtime key: the name of one resource kind. */
export type ResourceKey = keyof typeof registry;

/** Every runtime key, in the registry's order. */
export const RESOURCE_KEYS = Object.keys(registry) as ResourceKey[];

/** The package name of the dynamic resources' types (`new dynamic.Resource(…, "platform", type)`). */
export const TYPE_PACKAGE = "platform";

/** The type token the engine records for a kind: `pulumi-nodejs:dynamic/platform:<type>`. */
export function typeToken(row: ResourceRow): string {
  return `pulumi-nodejs:dynamic/${TYPE_PACKAGE}:${row.type}`;
}

/** The type token of a kind's component (`platform:index:<component>`), when it has one. */
export function componentTypeToken(row: ResourceRow & { component: string }): string {
  return `${TYPE_PACKAGE}:index:${row.component}`;
}

/**
 * The type token the provider plugin (`pulumi-resource-platform`) serves a kind under, as one
 * custom resource: `platform:index:<class>`. For `volumeSnapshot` it is also the dynamic door's
 * component token ({@link componentTypeToken}); only a custom resource of it is the plugin's.
 */
export function pluginTypeToken(row: ResourceRow): string {
  return `${TYPE_PACKAGE}:index:${row.declaration.type}`;
}

const BY_TOKEN = new Map<string, ResourceKey>(RESOURCE_KEYS.map((key) => [typeToken(registry[key]), key]));
const BY_PLUGIN_TOKEN = new Map<string, ResourceKey>(
  RESOURCE_KEYS.map((key) => [pluginTypeToken(registry[key]), key]),
);

/** The kind whose type token a recorded resource has, or undefined when it is not one of ours. */
export function keyOfTypeToken(token: string): ResourceKey | undefined {
  return BY_TOKEN.get(token);
}

/** The kind the plugin serves under `token` (`platform:index:<class>`), or undefined. */
export function keyOfPluginToken(token: string): ResourceKey | undefined {
  return BY_PLUGIN_TOKEN.get(token);
}
