/**
 * The wire modules the plugin takes from `@pulumi/pulumi`'s directory: grpc-js, google-protobuf and
 * the generated protos, the same copies the protos themselves require. Every one the plugin uses
 * is named in {@link PULUMI_MODULES}, so the one-file build (scripts/build-plugin.js) can put the
 * very same files in the bundle: there this module is replaced by static requires of them.
 * @module
 */
import { createRequire } from "node:module";

/** What the plugin loads from `@pulumi/pulumi`'s directory (the module names, as there). */
export const PULUMI_MODULES = [
  "@grpc/grpc-js",
  "google-protobuf",
  "google-protobuf/google/protobuf/empty_pb",
  "google-protobuf/google/protobuf/struct_pb",
  "google-protobuf/google/protobuf/any_pb",
  "./proto/plugin_pb",
  "./proto/provider_grpc_pb",
  "./proto/provider_pb",
  "./proto/status_pb",
  "./proto/engine_grpc_pb",
  "./proto/engine_pb",
] as const;

export type PulumiModule = (typeof PULUMI_MODULES)[number];

let fromPulumiDir: NodeRequire | undefined;

/** Loads `name` as `@pulumi/pulumi` would (never `@pulumi/pulumi` itself: half a second). */
export function fromPulumi(name: PulumiModule): unknown {
  if (!PULUMI_MODULES.includes(name)) throw new Error(`not a wire module of the plugin: ${name}`);
  fromPulumiDir ??= createRequire(require.resolve("@pulumi/pulumi/package.json"));
  return fromPulumiDir(name);
}
