/**
 * The one list of the resource kinds, one row each. Its keys are the runtime keys the serialized
 * stubs name (`pulumi-platform/provider/runtime` exports each kind's provider under its key), so
 * recorded state keeps working: a key and a type never change. Each row is the kind's home
 * (`./<kind>/kind.ts`: declaration, day-2 warnings, import rule); the stubs (./stubs),
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
import { pluginTypeToken, type ResourceRow, typeToken } from "../model/kind";
import { acmeCertificateKind, customCertificateKind } from "./certificates/kinds";
import { postgresPasswordRotationKind } from "./postgres-password-rotation/kind";
import { volumeKind } from "./volume/kind";
import { volumeSnapshotKind } from "./volume-snapshot/kind";

export {
  componentTypeToken,
  pluginTypeToken,
  type ResourceRow,
  TYPE_PACKAGE,
  typeToken,
} from "../model/kind";

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
