// Loaded by the serialized stubs (./stubs.ts) as `require("pulumi-platform/provider/runtime")`:
// `configure` and every resource kind's provider under its runtime key (./registry.ts; each
// kind's definition's `runtime()`, gathered in ./runtimes). A registry key missing below fails
// test/unit/provider/declarations.test.ts ("every registry row has a stub, a runtime provider…").
import "../compile-cache";
import { providers } from "./runtimes";

export { configure, resetCredentials, withClient } from "../runtime/credentials";
export { providers };

/** Each kind's provider, under the runtime key the recorded stubs name. */
export const { volume, acmeCertificate, customCertificate, postgresPasswordRotation, volumeSnapshot } =
  providers;
