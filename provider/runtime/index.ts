// Loaded by the serialized stubs (../stubs.ts) as `require("pulumi-platform/provider/runtime")`.
import "../compile-cache";

export { configure, resetCredentials } from "./credentials";
export {
  acmeCertificate,
  customCertificate,
  postgresPasswordRotation,
  volume,
  volumeSnapshot,
} from "./providers";
