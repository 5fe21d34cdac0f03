/**
 * PostgresPasswordRotation: rotations of a user's password (spec 4.1). There is no endpoint to
 * read a password back, so `read` keeps the state as it is and `delete` leaves the platform
 * alone (the password stays what it is).
 *
 * With one user, a change of `triggers`, `clusterId` or `username` rotates again through a
 * replace, like the random provider's keepers; so does `rotationDays` once that many days have
 * passed since the last rotation (decided at check, see computedInputs). With `alternateUsername`,
 * a rotation must know which user is current (the state does), so it is an in-place update that
 * rotates the other user; only a new `clusterId` replaces.
 * @module
 */
import { AmbiguousRequestError, ApiError, sendLookingAfterLoss } from "../../../sdk";
import { type OutputValues, storedInputs } from "../../model/declaration";
import { clean, pick } from "../../model/json-values";
import { DAY_MS } from "../../model/lifetime";
import { isUnknown } from "../../model/validation/common";
import { platformClient } from "../../runtime/credentials";
import {
  type CheckedInputs,
  defineProvider,
  type EngineProps,
  type Outs,
  type RecordedOutputs,
} from "../../runtime/define";
import { explain } from "../../runtime/errors";
import {
  alternating,
  postgresPasswordRotationDeclaration,
  programUsernameOf,
  rotationReasons,
} from "./declaration";

type Declaration = typeof postgresPasswordRotationDeclaration;
type Checked = CheckedInputs<Declaration>;
type Recorded = RecordedOutputs<Declaration>;

/** The previous outputs, with what releases before 0.4.0 did not record filled in. */
interface RotationState extends Recorded {
  /** The program's `username` at the last create or update (the `username` output is the current user). */
  programUsername: string;
  previousUsername: string | null;
  previousPassword: string | null;
}

/** Releases before 0.4.0 had one user, always the one the program named and the one rotated. */
function rotationState(recorded: Recorded): RotationState {
  return {
    ...recorded,
    programUsername: programUsernameOf(recorded),
    previousUsername: recorded.previousUsername ?? null,
    previousPassword: recorded.previousPassword ?? null,
  };
}

const STORED = storedInputs(postgresPasswordRotationDeclaration);

/** The schedule's inputs, computed at check (see computedInputs). */
const SCHEDULE = ["nextRotationAt", "scheduledRotations"] as const;

/** What to do about each error row of spec section 7 (a refused token's advice is `explain`'s). */
export function rotationAdvice(err: unknown, clusterId: string, username: string): string | undefined {
  if (err instanceof AmbiguousRequestError) {
    return `The password of ${username} may have changed without the new one being known (a lost answer, or a 500 after the rotation). Nothing was recorded, so the next \`pulumi up\` rotates again and learns the new one`;
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

/** Rotates `username`'s password; with `alternateUsername` too, `username` becomes current. */
async function create(inputs: Checked): Promise<{ id: string; outs: Outs<Declaration> }> {
  const credentials = await rotate(inputs, inputs.username);
  const rotatedAt = new Date().toISOString();
  const outs: OutputValues<Declaration> = {
    ...pick(inputs, STORED),
    username: credentials.username,
    password: credentials.password,
    previousUsername: null,
    previousPassword: null,
    rotatedAt,
    nextRotationAt: typeof inputs.nextRotationAt === "string" ? inputs.nextRotationAt : null,
  };
  const record = { programUsername: inputs.username, ...pick(inputs, ["scheduledRotations"]) };
  return {
    id: `${inputs.clusterId}/${credentials.username}/${rotatedAt}`,
    outs: clean({ ...outs, ...record }),
  };
}

/**
 * Rotates `target`'s password in the inputs' cluster; errors say what happened and what to do,
 * and that the `current` credential, when it is another user's, was not touched.
 */
async function rotate(
  inputs: Checked,
  target: string,
  current?: string,
): Promise<{ username: string; password: string }> {
  const { clusterId, killSessions } = inputs;
  try {
    return await rotateUntilKnown(clusterId, target, killSessions);
  } catch (err) {
    const untouched =
      current !== undefined && current !== target
        ? `; the current credential (user ${current}) was not touched, apps using it keep working`
        : "";
    throw explain(
      err,
      `rotating the password of ${target} in Postgres cluster ${clusterId}${untouched}`,
      rotationAdvice(err, clusterId, target),
    );
  }
}

/**
 * Rotates and returns the new credentials. A lost answer (or a 500 after the rotation, which the
 * sdk reports the same way) leaves the password changed to a value nobody knows; rotating again
 * replaces it with one we learn, which is what this resource is for, so the rotation is sent again
 * by the sdk's lost-answer rule (`sendLookingAfterLoss`, with nothing to look at) rather than
 * failing the create or update.
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
  state: RotationState,
): Promise<{ id: string; props: EngineProps; inputs: EngineProps }> {
  const outs = clean({ ...state });
  const inputs = pick<EngineProps, string>(outs, RECORDED_INPUTS);
  return { id, props: outs, inputs: { ...inputs, username: state.programUsername } };
}

/**
 * The schedule, as inputs `check` computes and the state records: `nextRotationAt`, and
 * `scheduledRotations`, the count of rotations the schedule has asked for. Once `nextRotationAt`
 * has passed at a run's time, that run's check counts one more, which `diff` plans as a rotation.
 * Kept in the inputs, not decided by `diff` from the clock: `pulumi refresh` diffs the recorded
 * inputs against the refreshed outputs, and must never report a rotation.
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

/** Whether the inputs ask for a rotation. */
function rotationAsked(olds: RotationState, news: EngineProps): boolean {
  const reasons = rotationReasons({ olds, news });
  return reasons.triggers || reasons.username || reasons.schedule;
}

/**
 * The user a rotation rotates: with two users, the one of the pair that is not current (the
 * program's `username` first, when neither is); with one, `username`.
 */
function rotationTarget(news: Checked, current: string | undefined): string {
  const alternate = news.alternateUsername;
  if (alternate === undefined) return news.username;
  return news.username !== current ? news.username : alternate;
}

/**
 * In place: the recorded inputs always; with two users (before or after this run), the rotation
 * the inputs ask for. Going back to one user rotates `username` when the alternate is current, so
 * the outputs name the program's user again (the alternate's credential stays valid, unchanged).
 */
async function update(_id: string, olds: RotationState, news: Checked): Promise<{ outs: Outs<Declaration> }> {
  const { __provider: _, ...previous } = olds;
  const recorded: EngineProps = {
    ...previous,
    ...pick(news, STORED),
    alternateUsername: news.alternateUsername,
    programUsername: news.username,
    nextRotationAt: news.nextRotationAt ?? null,
    scheduledRotations: news.scheduledRotations,
  };
  const twoUsers = alternating(news);
  const backToOne = !twoUsers && alternating(olds);
  const rotates =
    (twoUsers || backToOne) && (rotationAsked(olds, news) || (backToOne && olds.username !== news.username));
  if (!rotates) {
    const single = twoUsers ? {} : { previousUsername: null, previousPassword: null };
    return { outs: clean({ ...recorded, ...single }) as Outs<Declaration> };
  }
  const current = olds.username;
  const target = rotationTarget(news, current);
  const credentials = await rotate(news, target, current);
  // The credential apps hold now stays valid: it becomes the previous one.
  const keepsPrevious =
    twoUsers && current !== undefined && current !== target && olds.password !== undefined;
  const outs: EngineProps = {
    ...recorded,
    username: credentials.username,
    password: credentials.password,
    previousUsername: keepsPrevious ? current : null,
    previousPassword: keepsPrevious ? olds.password : null,
    rotatedAt: new Date().toISOString(),
  };
  return { outs: clean(outs) as Outs<Declaration> };
}

/** Nothing to undo at the platform: the password stays as rotated. */
async function remove(_id: string, _state: RotationState): Promise<void> {}

/** The provider methods of `PostgresPasswordRotation`. */
export const postgresPasswordRotation = defineProvider(postgresPasswordRotationDeclaration, {
  state: rotationState,
  create,
  read,
  update,
  delete: remove,
  computedInputs,
});
