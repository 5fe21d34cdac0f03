/**
 * `pulumi-platform/plugin`: the plugin door. The same resources, args and outputs as the package
 * root's dynamic classes, registered as `platform:index:<Type>` and served by the provider plugin
 * `pulumi-resource-platform` (shipped in this package; `plugins.providers` in Pulumi.yaml names it). See
 * docs/plugin.md for how the CLI finds it, which door to choose and how to move a stack between them.
 * @module
 */
// An older Node stops here, at the program's import, with what to do (not at the first request).
import "../../sdk/node-floor";

// Each kind's class (generated).
export * from "./kind-exports";
