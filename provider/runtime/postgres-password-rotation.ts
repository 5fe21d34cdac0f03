/**
 * PostgresPasswordRotation: one rotation of a user's password (spec 4.1). There is no endpoint to
 * read a password back, so `read` keeps the state as it is and `delete` leaves the platform
 * alone (the password stays what it is). A change of `triggers`, `clusterId` or `username`
 * rotates again through a replace, like the random provider's keepers; so does `rotationDays`
 * once that many days have passed since the last rotation (decided at check, see computedInputs).
 * @module
 */
import { AmbiguousRequestError, ApiError, sendLookingAfterLoss } from "../../sdk";
import { type OutputValues, storedInputs } from "../declaration";
import { postgresPasswordRotationDeclaration } from "../declarations/postgres-password-rotation";
import { clean, pick } from "../json-values";
import { DAY_MS } from "../lifetime";
import { isUnknown } from "../validation/common";
import { platformClient } from "./credentials";
import {
  type CheckedInputs,
  defineProvider,
  type EngineProps,
  type Outs,
  type RecordedOutputs,
} from "./define";
import type { DiffOutcome } from "./diff";
import { explain } from "./errors";

type Declaration = typeof postgresPasswordRotationDeclaration;
type Checked = CheckedInputs<Declaration>;
type Recorded = RecordedOutputs<Declaration>;

const STORED = storedInputs(postgresPasswordRotationDeclaration);

/** The schedule's inputs, computed at check (see computedInputs). */
const SCHEDULE = ["nextRotationAt", "scheduledRotations"] as const;

/** What to do about each error row of spec section 7 (a refused token's advice is `explain`'s). */
export function rotationAdvice(err: unknown, clusterId: string, username: string): string | undefined {
  if (err instanceof AmbiguousRequestError) {
    return `The password of ${username} may have changed without the new one being known. Nothing was recorded, so the next \`pulumi up\` rotates again and learns the new one`;
  }
  if (!(err instanceof ApiError)) return undefined;
  switch (err.status) {
    case 400:
      return `The platform refuses to rotate "${username}": reserved and system users cannot be rotated and the name must be well formed; choose an application user`;
    case 404:
      return err.reason === "user_not_found"
        ? `User "${username}" does not exist in cluster ${clusterId}; create the user first or fix username`
        : `Cluster ${clusterId} was not found; fix clusterId`;
    case 410:
      return `Cluster ${clusterId} has been deleted or is being deleted; point clusterId at a live cluster or remove this resource`;
    case 422:
      return "killSessions must be true or false";
    case 503:
      return `The cluster's admin component is unavailable${
        err.retryAfterSeconds !== undefined
          ? `; the platform asks to retry after ${err.retryAfterSeconds} s`
          : ""
      }; run \`pulumi up\` again later`;
    default:
      return undefined;
  }
}

/** Rotates the password; the new one is an output (secret). */
async function create(inputs: Checked): Promise<{ id: string; outs: Outs<Declaration> }> {
  const { clusterId, username, killSessions } = inputs;
  let credentials: { username: string; password: string };
  try {
    credentials = await rotateUntilKnown(clusterId, username, killSessions);
  } catch (err) {
    throw explain(
      err,
      `rotating the password of ${username} in Postgres cluster ${clusterId}`,
      rotationAdvice(err, clusterId, username),
    );
  }
  const rotatedAt = new Date().toISOString();
  const outs: OutputValues<Declaration> = {
    ...pick(inputs, STORED),
    username: credentials.username,
    password: credentials.password,
    rotatedAt,
    nextRotationAt: typeof inputs.nextRotationAt === "string" ? inputs.nextRotationAt : null,
  };
  const schedule = pick(inputs, ["scheduledRotations"]);
  return { id: `${clusterId}/${credentials.username}/${rotatedAt}`, outs: clean({ ...outs, ...schedule }) };
}

/**
 * Rotates and returns the new credentials. A lost answer leaves the password changed to a value
 * nobody knows; rotating again replaces it with one we learn, which is what this resource is
 * for, so the rotation is sent again by the sdk's lost-answer rule (`sendLookingAfterLoss`, with
 * nothing to look at) rather than failing the create.
 */
function rotateUntilKnown(
  clusterId: string,
  username: string,
  killSessions: boolean | undefined,
): Promise<{ username: string; password: string }> {
  return sendLookingAfterLoss(
    () =>
      platformClient().postgres.rotatePassword(
        clusterId,
        username,
        killSessions === undefined ? {} : { killSessions },
      ),
    async () => undefined,
  );
}

/** The inputs a refresh hands back: the program's and the schedule computed at check. */
const RECORDED_INPUTS = [...Object.keys(postgresPasswordRotationDeclaration.inputs), ...SCHEDULE];

/** No read endpoint exists: the state is kept as it is (a refresh never rotates). */
async function read(
  id: string,
  props: Recorded,
): Promise<{ id: string; props: EngineProps; inputs: EngineProps }> {
  const outs = clean({ ...props });
  return { id, props: outs, inputs: pick<EngineProps, string>(outs, RECORDED_INPUTS) };
}

/**
 * The schedule, as inputs `check` computes and the state records: `nextRotationAt`, and
 * `scheduledRotations`, the count of rotations the schedule has asked for. Once `nextRotationAt`
 * has passed at a run's time, that run's check counts one more, which `diff` plans as a replace
 * (a new rotation). Kept in the inputs, not decided by `diff` from the clock: `pulumi refresh`
 * diffs the recorded inputs against the refreshed outputs, and must never report a rotation.
 */
function computedInputs(olds: Recorded, news: EngineProps): EngineProps {
  const days = news.rotationDays;
  if (typeof days !== "number" || isUnknown(days)) return {};
  const period = days * DAY_MS;
  const count = typeof olds.scheduledRotations === "number" ? olds.scheduledRotations : 0;
  const previous = typeof olds.nextRotationAt === "string" ? Date.parse(olds.nextRotationAt) : Number.NaN;
  const now = Date.now();
  // First period: from this run (the rotation is created now, or the schedule starts now).
  if (Number.isNaN(previous))
    return { nextRotationAt: new Date(now + period).toISOString(), scheduledRotations: count };
  const lastRotation = previous - (olds.rotationDays !== undefined ? olds.rotationDays * DAY_MS : period);
  const due = lastRotation + period;
  if (due <= now)
    return { nextRotationAt: new Date(now + period).toISOString(), scheduledRotations: count + 1 };
  return { nextRotationAt: new Date(due).toISOString(), scheduledRotations: count };
}

/**
 * A new count of scheduled rotations rotates (a replace); a changed schedule that is not due, or
 * one removed, is only recorded.
 */
function diff(_id: string, olds: Recorded, news: EngineProps, declared: DiffOutcome): DiffOutcome {
  const before = typeof olds.scheduledRotations === "number" ? olds.scheduledRotations : 0;
  if (typeof news.scheduledRotations === "number" && news.scheduledRotations !== before) {
    return { ...declared, changes: true, replaces: [...declared.replaces, "rotationDays"] };
  }
  if (isUnknown(news.rotationDays)) return { ...declared, changes: true };
  const changed = ["rotationDays", ...SCHEDULE].some((k) => (news[k] ?? null) !== (olds[k] ?? null));
  return changed ? { ...declared, changes: true } : declared;
}

/**
 * Only `killSessions` and the schedule change in place: recorded (the schedule applies to the next
 * rotation), no call is made.
 */
async function update(_id: string, olds: Recorded, news: Checked): Promise<{ outs: Outs<Declaration> }> {
  const outs: EngineProps = {
    ...olds,
    killSessions: news.killSessions,
    rotationDays: news.rotationDays,
    nextRotationAt: news.nextRotationAt ?? null,
    scheduledRotations: news.scheduledRotations,
  };
  delete outs.__provider;
  return { outs: clean(outs) as Outs<Declaration> };
}

/** Nothing to undo at the platform: the password stays as rotated. */
async function remove(_id: string, _props: Recorded): Promise<void> {}

/** The provider methods of `PostgresPasswordRotation`. */
export const postgresPasswordRotation = defineProvider(postgresPasswordRotationDeclaration, {
  /** Nothing to normalise: every release recorded the same outputs. */
  state: (recorded) => recorded,
  create,
  read,
  update,
  delete: remove,
  diff,
  computedInputs,
});
