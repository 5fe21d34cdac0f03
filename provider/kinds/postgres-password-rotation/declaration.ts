/**
 * `PostgresPasswordRotation` declared once (spec 4.1, 7).
 * @module
 */
import { declareResource, type InputValues, input, inputFailures, output } from "../../model/declaration";
import { isUnknown, type ValidationFailure } from "../../model/validation/common";
import { optionalBoolean, optionalInteger, optionalStringMap } from "../../model/validation/fields";
import { alternateUsernameField, clusterIdField, usernameField } from "../../model/validation/postgres";
import { t } from "../../model/value-types";

/** One rotation of a Postgres user's password; the new password is the secret output `password`. */
export const postgresPasswordRotationDeclaration = declareResource({
  type: "PostgresPasswordRotation",
  inputs: {
    /** Postgres cluster id. Changing it rotates again (replace). */
    clusterId: input(clusterIdField, { change: "replace", output: "stored" }),
    /**
     * User whose password is rotated. Reserved and system users are refused by the platform.
     * Changing it rotates again (replace; with `alternateUsername`, in place: the new user is
     * rotated and becomes current, the current credential stays valid as the previous one).
     */
    username: input(usernameField, { change: "special", output: "live" }),
    /**
     * A second existing user of the same cluster: rotations then alternate between the two, so
     * that two credentials are valid at any time. Each rotation rotates the user that is not
     * current and makes it current (`username`/`password`); the other stays valid, unchanged,
     * as `previousUsername`/`previousPassword` until the next rotation. Apps that have not yet
     * picked up the new credential keep working. With it, rotations (`triggers`, `rotationDays`,
     * `username`) are in-place updates. Added to an existing rotation it is only recorded: the
     * next rotation rotates it. Changed, it is only recorded too (the next rotation picks the
     * member of the new pair that is not current). Removed, the rotation goes back to one user:
     * recorded when `username` is current, otherwise `username` is rotated and made current
     * (the alternate's credential stays valid, unchanged).
     */
    alternateUsername: input(alternateUsernameField, { change: "special", output: "stored" }),
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
    /**
     * The current credential's user: the user whose password was rotated last, as the platform
     * returned it (with `alternateUsername`, either of the two).
     */
    username: output<string>(t.string),
    /** The current credential's password, the last one rotated (secret). */
    password: output<string>(t.string, { secret: true }),
    /**
     * With `alternateUsername`: the user of the previous credential, still valid until the next
     * rotation. Null until there is one (the first rotation), and always without `alternateUsername`.
     */
    previousUsername: output<string | null>(t.nullable(t.string)),
    /** The previous credential's password (secret); null when `previousUsername` is. */
    previousPassword: output<string | null>(t.nullable(t.string), { secret: true }),
    /** When the rotation happened (ISO 8601). */
    rotatedAt: output<string>(t.string),
    /** When the next scheduled rotation is due (about `rotatedAt` + `rotationDays`); null without `rotationDays`. */
    nextRotationAt: output<string | null>(t.nullable(t.string)),
  },
  // How many scheduled rotations this resource's line has had (a computed input), and the
  // program's `username` (the `username` output is the current user; see the runtime).
  internalOutputs: ["scheduledRotations", "programUsername"],
  rules: rotationRules,
});

/** Rules across PostgresPasswordRotation inputs: the two users of an alternating rotation differ. */
function rotationRules(news: Record<string, unknown>): ValidationFailure[] {
  const { username, alternateUsername } = news;
  if (
    typeof alternateUsername !== "string" ||
    isUnknown(alternateUsername) ||
    alternateUsername !== username
  ) {
    return [];
  }
  return [
    {
      property: "alternateUsername",
      reason: `alternateUsername must be a different user than username ("${alternateUsername}"): rotations alternate between two users so that one credential stays valid while the other is rotated`,
    },
  ];
}

/** PostgresPasswordRotation inputs as the runtime receives them. */
export type PostgresPasswordRotationInputs = InputValues<typeof postgresPasswordRotationDeclaration>;

/** Validates PostgresPasswordRotation inputs. */
export function validatePostgresPasswordRotationArgs(news: Record<string, unknown>): ValidationFailure[] {
  return inputFailures(postgresPasswordRotationDeclaration, news);
}
