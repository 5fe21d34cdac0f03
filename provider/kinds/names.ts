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
// Through `unknown`: a kind new in the registry compiles before `npm run gen-sdks` has written its
// names (which needs a compiled tree); test/unit/provider/kind-names.test.ts fails until it has.
export const KIND_NAMES = names as unknown as {
  readonly [K in ResourceKey]: KindNames & { readonly key: K };
};
