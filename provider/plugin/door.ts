/**
 * The plugin door: a kind's resource registered as the custom resource `platform:index:<Type>`,
 * served by `pulumi-resource-platform`, and aliased to the kind's dynamic type (under the same
 * parent: the `VolumeSnapshot` component for a snapshot), so moving a stack from one door to the
 * other is a type change the engine carries over (no replace, no platform request). The plugin
 * prints the kind's day-2 warnings from its `diff`, so the program prints none.
 * @module
 */

import { pluginTypeToken, typeToken } from "../model/kind";
import type { Door } from "../registration/door";

/** How the plugin door registers a kind's resource. */
export const pluginDoor: Door = {
  type: pluginTypeToken,
  props: () => ({}),
  aliases: (kind) => [{ type: typeToken(kind) }],
  registered: () => {},
};
