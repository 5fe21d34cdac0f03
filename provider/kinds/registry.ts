/**
 * The one list of the resource kinds, one line each. Its keys are the runtime keys the serialized
 * stubs name (`pulumi-platform/provider/runtime` exports each kind's provider under its key), so
 * recorded state keeps working: a key and a type never change. Each line is the kind's definition
 * from its home (`./<kind>/kind.ts`, a ./definition `KindDefinition`: declaration, day-2
 * warnings, import rule, runtime, mock, `recover`'s rule, the client families it calls); the stubs
 * (./stubs), the runtime's providers (./runtimes), the mocks (../testing/outputs), `recover`'s
 * rules, the runtime's client (`ProviderClient`), both doors' classes and warnings, the plugin's
 * schema and import, policy's helpers come from here, and the tests iterate it.
 *
 * One name per kind: the key is the camelCase of the class a program constructs (the
 * declaration's `type`), the runtime module exports the provider under the key, the declaration
 * is `<key>Declaration`. The type is the class's own name, except for a component (see
 * `volumeSnapshot`).
 *
 * Loaded by the program (for the classes): it holds names and declarations, never the runtime.
 * @module
 */
import { pluginTypeToken, typeToken } from "../model/kind";
import { acmeCertificateKind, customCertificateKind } from "./certificates/kinds";
import type { ClientFamily, DeclarationOf, KindDefinition } from "./definition";
import { postgresPasswordRotationKind } from "./postgres-password-rotation/kind";
import { volumeKind } from "./volume/kind";
import { volumeSnapshotKind } from "./volume-snapshot/kind";

export {
  componentTypeToken,
  type KindModel,
  pluginTypeToken,
  TYPE_PACKAGE,
  typeToken,
} from "../model/kind";

/** Definitions whose `key` is the key they are listed under. */
type Rows<T> = { readonly [K in keyof T]: KindDefinition<K & string, DeclarationOf<T[K]>> };

function rows<const T extends Rows<T>>(r: T): T {
  return r;
}

/** Every resource kind, under its runtime key: each is the kind's definition (./<kind>/kind.ts). */
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

/** The platform client's families the kinds' runtimes call (../runtime/credentials' `ProviderClient`). */
export type KindClientFamily = (typeof registry)[ResourceKey]["clients"][number] & ClientFamily;

/**
 * A table with one value per kind, made from each kind's definition. `T` types each kind's value;
 * `value` is checked against their union only (the registry's rows tie each to its kind).
 */
export function perKind<T extends { readonly [K in ResourceKey]: unknown }>(
  value: (key: ResourceKey) => T[ResourceKey],
): T {
  return Object.fromEntries(RESOURCE_KEYS.map((key) => [key, value(key)])) as T;
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
