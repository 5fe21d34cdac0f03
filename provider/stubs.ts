/**
 * The provider objects Pulumi serializes into every resource's state (`__provider`, kept twice:
 * in inputs and in outputs). The engine rewrites the whole checkpoint after every step, so this
 * text is most of what a resource costs it: it holds a single method, `configure`, and stays a
 * few hundred bytes. The dynamic provider host calls `configure` once, right after evaluating
 * the text and before any other method; it loads the real implementation from the installed
 * package and puts that resource's check/diff/create/read/update/delete onto the provider
 * object. So the text captures nothing but the resource's name (no token, no module graph), and
 * refresh/destroy always run the installed code. The host evaluates this text with a `require`
 * that resolves from the Pulumi program's directory, where `pulumi-platform` is installed.
 *
 * The contract with state written by every release: `pulumi-platform/provider/runtime` exports
 * `configure(req)` and, under each resource's runtime key (../registry), its six methods.
 *
 * Do not reference imports or module-level values from the method body: anything referenced
 * is captured by value into the state. The `resource` parameter is a short string, captured as is.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import { RESOURCE_KEYS, type ResourceKey } from "./registry";

// `resource` is a runtime key: `runtime[resource]` below does not compile when the runtime
// lacks a registry row's provider.
function runtimeProvider(resource: ResourceKey): pulumi.dynamic.ResourceProvider {
  // When the runtime cannot be loaded, every method fails with that error: a provider without
  // `delete` would make the host skip deletes silently. (Comments in the body would be serialized.)
  const provider = {
    async configure(req: pulumi.dynamic.ConfigureRequest) {
      let runtime: typeof import("./runtime");
      try {
        runtime = require("pulumi-platform/provider/runtime");
        if (!runtime[resource]) throw new Error(`pulumi-platform/provider/runtime has no ${resource}`);
      } catch (err) {
        const fail = () => Promise.reject(err);
        for (const m of ["check", "diff", "create", "read", "update", "delete"])
          Object.assign(this, { [m]: fail });
        throw err;
      }
      Object.assign(this, runtime[resource]);
      return runtime.configure(req);
    },
  };
  // The other methods are put onto the object by configure (see the module comment).
  return provider as unknown as pulumi.dynamic.ResourceProvider;
}

/** Each resource kind's provider object, under its runtime key (see ../registry). */
export const stubs = Object.fromEntries(RESOURCE_KEYS.map((key) => [key, runtimeProvider(key)])) as Record<
  ResourceKey,
  pulumi.dynamic.ResourceProvider
>;
