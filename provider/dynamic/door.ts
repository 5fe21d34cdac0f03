/**
 * The dynamic door: a kind's resource registered as `pulumi.dynamic.Resource` registers one
 * (type token `pulumi-nodejs:dynamic/platform:<type>`, the provider text in `__provider`), but
 * with the kind's hand-written text (../kinds/stubs) instead of a closure Pulumi serializes.
 * The child of a component (the snapshot request) is aliased to the plugin's type, so a stack
 * moves back from the plugin door with no alias in the program. The kind's day-2 warnings are
 * printed from the program (./lifetime-warnings).
 * @module
 */

import { pluginTypeToken, type ResourceKey, registry, typeToken } from "../kinds/registry";
import { stubTexts } from "../kinds/stubs";
import type { Door } from "../registration/door";
import { warnFromProgram, warnNewInputs } from "./lifetime-warnings";

/** The property the dynamic provider host reads a resource's provider text from. */
const PROVIDER_KEY = "__provider";

/** How the dynamic door registers a kind's resource. */
export const dynamicDoor: Door = {
  type: typeToken,
  // Every row is one of the registry's, so its key is a runtime key.
  props: (kind) => ({ [PROVIDER_KEY]: stubTexts[kind.key as ResourceKey] }),
  aliases: (kind) => (kind.component === undefined ? [] : [{ type: pluginTypeToken(kind) }]),
  registered: (resource, kind, args) => {
    const row = registry[kind.key as ResourceKey];
    warnFromProgram(resource, row.lifetime, args);
    warnNewInputs(resource, "inputWarnings" in row ? row.inputWarnings : [], args);
  },
};
