/**
 * Rules of PostgresPasswordRotation inputs. Which user names the platform reserves is its own
 * business (spec 7, 400): only names that cannot be sent at all are rejected here.
 * @module
 */
import { z } from "zod";
import { failuresOf, type ValidationFailure } from "./common";
import { optionalBoolean, optionalStringMap, requiredString } from "./fields";

/** Inputs that rotate the password again (through a replace) when changed. */
export const ROTATION_REPLACE_PROPERTIES = ["clusterId", "username", "triggers"] as const;

const noSpaceOrSlash = (property: string) =>
  requiredString(
    property,
    property === "clusterId" ? "the Postgres cluster id" : "the Postgres user name",
  ).refine((value) => !/[\s/]/.test(value), { error: `${property} must not contain spaces or slashes` });

/** Shape of every PostgresPasswordRotation input. */
export const PostgresPasswordRotationInputsSchema = z.object({
  clusterId: noSpaceOrSlash("clusterId"),
  username: noSpaceOrSlash("username"),
  killSessions: optionalBoolean("killSessions"),
  triggers: optionalStringMap("triggers"),
});
/** PostgresPasswordRotation inputs as the provider receives them. */
export type PostgresPasswordRotationInputs = z.infer<typeof PostgresPasswordRotationInputsSchema>;

/** Validates PostgresPasswordRotation inputs. */
export function validatePostgresPasswordRotationArgs(news: Record<string, unknown>): ValidationFailure[] {
  return failuresOf(PostgresPasswordRotationInputsSchema, news);
}
