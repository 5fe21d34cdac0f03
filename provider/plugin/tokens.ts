/**
 * Names of the provider plugin: its package (`platform`, the `platform:` config keys) and the type
 * tokens it serves. Loaded by the program (plugin classes) and by the plugin.
 * @module
 */
import { TYPE_PACKAGE } from "../kinds/registry";

/** The plugin's package name: `pulumi-resource-platform`, config `platform:*`. */
export const PLUGIN_PACKAGE = TYPE_PACKAGE;

/** The plugin's token of a resource, type or function: `platform:index:<name>`. */
export function pluginToken(name: string): string {
  return `${PLUGIN_PACKAGE}:index:${name}`;
}

/** The name a plugin token ends with, or undefined when the token is not the plugin's. */
export function nameOfPluginToken(token: string): string | undefined {
  const prefix = `${PLUGIN_PACKAGE}:index:`;
  return token.startsWith(prefix) ? token.slice(prefix.length) : undefined;
}
