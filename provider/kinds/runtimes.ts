/**
 * One provider object per resource kind, under its runtime key, as the serialized stubs load them
 * (see ./stubs.ts and ./registry.ts).
 * @module
 */

import type { RuntimeProvider } from "../runtime/define";
import { acmeCertificate, customCertificate } from "./certificates/runtime";
import { postgresPasswordRotation } from "./postgres-password-rotation/runtime";
import type { ResourceKey } from "./registry";
import { volume } from "./volume/runtime";
import { volumeSnapshot } from "./volume-snapshot/runtime";

export { acmeCertificate, customCertificate, postgresPasswordRotation, volume, volumeSnapshot };

/** Every registry row's provider: a row without one (or one without a row) does not compile. */
export const providers = {
  volume,
  acmeCertificate,
  customCertificate,
  postgresPasswordRotation,
  volumeSnapshot,
} satisfies Record<ResourceKey, RuntimeProvider>;
