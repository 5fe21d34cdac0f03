/**
 * Facts about Postgres user names that the provider (a program's `check`) and the emulator share
 * (spec 7: a 400 for a malformed, reserved or system user). Imports nothing: a Pulumi program
 * loads it and must not load the sdk's clients.
 * @module
 */

/**
 * A user name the platform accepts: an unquoted Postgres identifier of at most 63 bytes, lowercase
 * (the platform's pattern, `^[a-z_][a-z0-9_$]{0,62}$`).
 */
export const POSTGRES_USERNAME_PATTERN = /^[a-z_][a-z0-9_$]{0,62}$/;

/**
 * Users whose password the platform manages itself (400 "reserved"): `postgres`, the operator
 * user of every managed cluster.
 */
export const RESERVED_POSTGRES_USERS: readonly string[] = ["postgres"];

/**
 * Roles the platform's clusters and Postgres keep for themselves (400 "system user"): every
 * `pg_*` role, the cluster's superuser (`flypgadmin`), replication (`repmgr`, `replicator`,
 * `replication`) and the platform's other admin roles.
 */
export const SYSTEM_POSTGRES_USERS: readonly string[] = [
  "flypgadmin",
  "repmgr",
  "replicator",
  "replication",
  "platformadmin",
  "postgres_exporter",
  "rdsadmin",
  "rdsrepladmin",
  "cloudsqladmin",
  "azure_superuser",
  "supabase_admin",
];

/** Whether `username` is a system role (`pg_*` or one of {@link SYSTEM_POSTGRES_USERS}). */
export function isSystemPostgresUser(username: string): boolean {
  return username.startsWith("pg_") || SYSTEM_POSTGRES_USERS.includes(username);
}
