/**
 * `PostgresPasswordRotation` declared once (spec 4.1, 7).
 * @module
 */
import { declareResource, type InputValues, input, inputFailures, output } from "../declaration";
import type { ValidationFailure } from "../validation/common";
import { optionalBoolean, optionalInteger, optionalStringMap } from "../validation/fields";
import { clusterIdField, usernameField } from "../validation/postgres";

/** One rotation of a Postgres user's password; the new password is the secret output `password`. */
export const postgresPasswordRotationDeclaration = declareResource({
  type: "PostgresPasswordRotation",
  inputs: {
    /** Postgres cluster id. Changing it rotates again (replace). */
    clusterId: input(clusterIdField, { change: "replace", output: "stored" }),
    /**
     * User whose password is rotated. Reserved and system users are refused by the platform.
     * Changing it rotates again (replace).
     */
    username: input(usernameField, { change: "replace", output: "live" }),
    /**
     * End the user's open sessions after the rotation. Changing it alone does not rotate: it is
     * recorded for the next rotation.
     */
    killSessions: input(optionalBoolean("killSessions"), { change: "record", output: "stored" }),
    /**
     * Arbitrary values; any change rotates the password again (through a replace), like the
     * random provider's `keepers`. For example `{ schedule: "2025-q3" }`.
     */
    triggers: input(optionalStringMap("triggers"), { change: "replace", output: "stored", exact: true }),
    /**
     * Rotate on a schedule: once this many days have passed since the last rotation, `pulumi
     * preview` shows the rotation as a replace and `pulumi up` rotates (run it from a scheduled
     * pipeline); `nextRotationAt` says when. Added to an existing rotation, the first period starts
     * at that `up`; a changed value counts from the last rotation. `pulumi refresh` never rotates.
     * Without it the password rotates only when an input changes.
     */
    rotationDays: input(optionalInteger("rotationDays", 1, 3650, "days"), {
      change: "special",
      output: "stored",
    }),
  },
  outputs: {
    /** User whose password was rotated, as the platform returned it. */
    username: output<string>(),
    /** The new password (secret). */
    password: output<string>({ secret: true }),
    /** When the rotation happened (ISO 8601). */
    rotatedAt: output<string>(),
    /** When the next scheduled rotation is due (about `rotatedAt` + `rotationDays`); null without `rotationDays`. */
    nextRotationAt: output<string | null>(),
  },
  // How many scheduled rotations this resource's line has had (a computed input; see the runtime).
  internalOutputs: ["scheduledRotations"],
});

/** PostgresPasswordRotation inputs as the runtime receives them. */
export type PostgresPasswordRotationInputs = InputValues<typeof postgresPasswordRotationDeclaration>;

/** Validates PostgresPasswordRotation inputs. */
export function validatePostgresPasswordRotationArgs(news: Record<string, unknown>): ValidationFailure[] {
  return inputFailures(postgresPasswordRotationDeclaration, news);
}
