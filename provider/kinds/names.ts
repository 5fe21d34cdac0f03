/**
 * Each kind's names (../model/kind's `KindNames`), which the classes register with: written from
 * the registry into ./kind-names.json by `npm run gen-sdks` (a unit test holds the two equal), so
 * that a class registers without loading the declarations' rules.
 * @module
 */
import type { KindNames } from "../model/kind";
import names from "./kind-names.json";
import type { ResourceKey } from "./registry";

/** Each kind's names, under its runtime key. */
export const KIND_NAMES = names as { readonly [K in ResourceKey]: KindNames & { readonly key: K } };
