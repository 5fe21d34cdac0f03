// Loaded by the serialized stubs (./stubs.ts) as `require("pulumi-platform/provider/runtime")`:
// `configure` and every resource kind's provider under its runtime key (./registry.ts).
import "../compile-cache";

export { configure, resetCredentials, withClient } from "../runtime/credentials";
export * from "./runtimes";
