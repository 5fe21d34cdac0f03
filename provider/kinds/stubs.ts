/**
 * The text Pulumi keeps as `__provider` in every resource's state (twice: in inputs and in
 * outputs) and evaluates in the dynamic provider host to get the resource's provider. The engine
 * rewrites the whole checkpoint after every step, so this text is much of what a resource costs
 * it: it is written here by hand, a few hundred bytes, instead of being produced by Pulumi's
 * closure serialization (whose wrapping tripled it, and which cost the program about 0.25 s at
 * its first resource of every command).
 *
 * The host evaluates the text as a CommonJS module whose `require` resolves from the Pulumi
 * program's directory (where `pulumi-platform` is installed), calls `handler()` once per distinct
 * text, then `configure(req)` before any other method. `configure` loads the installed runtime
 * and puts the kind's check/diff/create/read/update/delete onto the provider object, so the text
 * holds nothing but the kind's runtime key (no token, no module graph) and every command runs
 * the installed code. When the runtime cannot be loaded, every method fails with that error: a
 * provider without `delete` would make the host skip deletes silently.
 *
 * The contract with state written by every release: `pulumi-platform/provider/runtime` exports
 * `configure(req)` and, under each resource's runtime key (../kinds/registry), its six methods. Texts
 * recorded by earlier releases (Pulumi-serialized closures) call exactly the same.
 * @module
 */
import { RESOURCE_KEYS, type ResourceKey } from "./registry";

const RUNTIME = "pulumi-platform/provider/runtime";
const METHODS = ["check", "diff", "create", "read", "update", "delete"];

/** The `__provider` text of one resource kind. */
export function stubText(resource: ResourceKey): string {
  return (
    `exports.handler=()=>{const k=${JSON.stringify(resource)},p={async configure(q){let r;` +
    `try{r=require(${JSON.stringify(RUNTIME)});if(!r[k])throw new Error(${JSON.stringify(`${RUNTIME} has no `)}+k)}` +
    `catch(e){for(const m of ${JSON.stringify(METHODS)})p[m]=()=>Promise.reject(e);throw e}` +
    `Object.assign(p,r[k]);return r.configure(q)}};return p};\n`
  );
}

/** Each resource kind's `__provider` text, under its runtime key (see ../kinds/registry). */
export const stubTexts = Object.fromEntries(RESOURCE_KEYS.map((key) => [key, stubText(key)])) as Record<
  ResourceKey,
  string
>;
