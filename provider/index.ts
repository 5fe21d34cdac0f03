/**
 * pulumi-platform: Pulumi resources for the platform's volumes, certificates, Postgres passwords
 * and snapshots, plus lookups. Credentials: stack config `platform:apiToken` (secret) and
 * `platform:apiUrl`, else PLATFORM_API_TOKEN / PLATFORM_API_URL.
 * @module
 */
// An older Node stops here, at the program's import, with what to do (not at the first request).
import "../sdk/node-floor";
import "./compile-cache";

export * from "./dynamic";
