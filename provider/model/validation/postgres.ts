/**
 * Rules of PostgresPasswordRotation inputs. The user names the platform refuses with a 400 for
 * any cluster (spec 7: malformed, reserved, system users) are refused at preview with the
 * platform's own message; whether a user exists stays the platform's call.
 * @module
 */
import {
  isSystemPostgresUser,
  POSTGRES_USERNAME_PATTERN,
  RESERVED_POSTGRES_USERS,
} from "../../../sdk/schemas/postgres-users";
import { isUnknown } from "./common";
import { optionalString, requiredString } from "./fields";

/**
 * Why the platform refuses to rotate `username` whatever the cluster, in the platform's words,
 * or undefined when only the platform can tell (the user may or may not exist).
 */
export function postgresUsernameProblem(username: string): string | undefined {
  if (!POSTGRES_USERNAME_PATTERN.test(username)) {
    return `username "${username}" is malformed: use 1 to 63 lowercase letters, digits, "_" or "$", not starting with a digit`;
  }
  if (RESERVED_POSTGRES_USERS.includes(username)) {
    return `user "${username}" is reserved: its password is managed by the platform`;
  }
  if (isSystemPostgresUser(username)) {
    return `user "${username}" is a system user and cannot be rotated`;
  }
  return undefined;
}

/** A required cluster id: no spaces or slashes (it goes into a URL path). */
export const clusterIdField = requiredString("clusterId", "the Postgres cluster id").refine(
  (value) => !/[\s/]/.test(value),
  { error: "clusterId must not contain spaces or slashes" },
);

/** A required user name the platform does not refuse whatever the cluster. */
export const usernameField = requiredString("username", "the Postgres user name").refine(
  (value) => isUnknown(value) || postgresUsernameProblem(value) === undefined,
  { error: (iss) => postgresUsernameProblem(String(iss.input)) ?? "username is refused by the platform" },
);

/** An optional second user of the same cluster, under the same rule as `username`. */
export const alternateUsernameField = optionalString(
  "alternateUsername",
  "a second Postgres user of the same cluster",
).refine((value) => value === undefined || isUnknown(value) || postgresUsernameProblem(value) === undefined, {
  error: (iss) =>
    `alternateUsername: ${postgresUsernameProblem(String(iss.input)) ?? "the user is refused by the platform"}`,
});
