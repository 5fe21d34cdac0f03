/**
 * One provider object per resource kind, under its runtime key, as the serialized stubs load them
 * (see ./stubs.ts and ./registry.ts): each kind's definition's `runtime()`, so loading this
 * module loads every kind's runtime.
 * @module
 */

import type { RuntimeProvider } from "../runtime/define";
import { perKind, type ResourceKey, registry } from "./registry";

/** Every registry kind's provider, under its runtime key. */
export const providers = perKind<{ readonly [K in ResourceKey]: RuntimeProvider }>((key) =>
  registry[key].runtime(),
);
