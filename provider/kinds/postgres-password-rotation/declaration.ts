/**
 * `PostgresPasswordRotation` declared once (spec 4.1, 7).
 * @module
 */
import { inputChanged, recordedChanged } from "../../model/change-plan";
import {
  type ChangeContext,
  declareResource,
  type InputValues,
  input,
  output,
  type PropertyEffect,
} from "../../model/declaration";
import { inputFailures } from "../../model/input-check";
import { isUnknown, type ValidationFailure } from "../../model/validation/common";
import { optionalBoolean, optionalInteger, optionalStringMap } from "../../model/validation/fields";
import { alternateUsernameField, clusterIdField, usernameField } from "../../model/validation/postgres";
import { t } from "../../model/value-types";

/**
 * One rotation of a Postgres user's password; the new password is the secret output `password`.
 * Change `triggers` to rotate again (a change of an input that replaces it rotates again too), or
 * set `rotationDays` to rotate on a schedule.
 *
 * The platform has no endpoint to read a password back: `pulumi refresh` keeps this resource's
 * state as it is, and deleting the resource changes nothing at the platform (the password stays
 * the last one rotated).
 */
export const postgresPasswordRotationDeclaration = declareResource({
  type: "PostgresPasswordRotation",
  inputs: {
    /** Postgres cluster id. */
    clusterId: input(clusterIdField, { change: "replace", output: "stored" }),
    /**
     * User whose password is rotated. Reserved and system users are refused by the platform.
     * Changing it rotates again (replace; with `alternateUsername`, in place: the new user is
     * rotated and becomes current, the current credential stays valid as the previous one).
     */
    username: input(usernameField, {
      change: "special",
      output: "live",
      decide: (context) => (rotationReasons(context).username ? rotationEffect(context) : undefined),
    }),
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
    alternateUsername: input(alternateUsernameField, {
      change: "special",
      output: "stored",
      decide: ({ olds, news }) => (recordedChanged(olds, news, "alternateUsername") ? "record" : undefined),
    }),
    /** End the user's open sessions after each rotation (a changed value: from the next one). */
    killSessions: input(optionalBoolean("killSessions"), { change: "record", output: "stored" }),
    /**
     * Arbitrary values; any change rotates the password again, like the random provider's
     * `keepers`. For example `{ schedule: "2025-q3" }`. With one user the rotation is a replace (a
     * new rotation resource). With `alternateUsername` (before or after the change) it is an
     * in-place update: the user that is not current is rotated and becomes current, and the
     * current credential stays valid as the previous one, so apps keep working.
     */
    triggers: input(optionalStringMap("triggers"), {
      change: "special",
      output: "stored",
      exact: true,
      decide: (context) => (rotationReasons(context).triggers ? rotationEffect(context) : undefined),
    }),
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
      decide: (context) =>
        rotationReasons(context).schedule
          ? rotationEffect(context)
          : recordedChanged(context.olds, context.news, "rotationDays")
            ? "record"
            : undefined,
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
  // The schedule, computed at check (the runtime's computedInputs): recorded when it changes.
  computed: ["nextRotationAt", "scheduledRotations"],
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

/** Whether inputs (or recorded outputs) name a second user: rotations alternate. */
export const alternating = (values: { alternateUsername?: unknown }) =>
  typeof values.alternateUsername === "string";

/**
 * The program's `username` at the last create or update: recorded as `programUsername` (the
 * `username` output is the current user); before 0.4.0, and in the previous inputs, `username`.
 */
export function programUsernameOf(recorded: Record<string, unknown>): string {
  if (typeof recorded.programUsername === "string") return recorded.programUsername;
  return typeof recorded.username === "string" ? recorded.username : "";
}

/** What asks for a rotation: new triggers, a new program user, a due schedule. */
export function rotationReasons({ olds, news }: Pick<ChangeContext, "olds" | "news">) {
  const before = typeof olds.scheduledRotations === "number" ? olds.scheduledRotations : 0;
  return {
    triggers: inputChanged(olds, news, "triggers", true),
    username: isUnknown(news.username) || news.username !== programUsernameOf(olds),
    schedule: typeof news.scheduledRotations === "number" && news.scheduledRotations !== before,
  };
}

/**
 * What a rotation is: with one user, a replace (a new rotation resource); with two (before or
 * after this run), an update that knows which user is current. Only a new cluster replaces then.
 */
function rotationEffect({ olds, news }: Pick<ChangeContext, "olds" | "news">): PropertyEffect {
  return alternating(olds) || alternating(news) ? "update" : "replace";
}
