/**
 * PostgresPasswordRotation: one rotation of a user's password (spec 4.1). There is no endpoint to
 * read a password back, so `read` keeps the state as it is and `delete` leaves the platform
 * alone (the password stays what it is). A change of `triggers`, `clusterId` or `username`
 * rotates again through a replace, like the random provider's keepers.
 * @module
 */
import { AmbiguousRequestError, ApiError } from "../../sdk";
import {
  type PostgresPasswordRotationInputs,
  ROTATION_REPLACE_PROPERTIES,
  type ValidationFailure,
  validatePostgresPasswordRotationArgs,
} from "../validation";
import { credentialProblems, platformClient } from "./credentials";
import { type DiffOutcome, diffInputs } from "./diff";
import { explain } from "./errors";
import { clean, pick } from "./plain";

type Props = Record<string, unknown>;

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

/** Validates inputs at preview. */
export async function check(
  _olds: Props,
  news: Props,
): Promise<{ inputs: Props; failures: ValidationFailure[] }> {
  return { inputs: news, failures: [...validatePostgresPasswordRotationArgs(news), ...credentialProblems()] };
}

/** clusterId, username and triggers rotate again (replace); killSessions is only recorded. */
export async function diff(_id: string, olds: Props, news: Props): Promise<DiffOutcome> {
  return diffInputs(olds, news, {
    replaces: ROTATION_REPLACE_PROPERTIES,
    updates: ["killSessions"],
    exact: ["triggers"],
  });
}

/** Rotates the password; the new one is an output (secret). */
export async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const { clusterId, username, killSessions } = inputs as PostgresPasswordRotationInputs;
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
  return {
    id: `${clusterId}/${credentials.username}/${rotatedAt}`,
    outs: clean({
      ...pick(inputs, ["clusterId", "killSessions", "triggers"]),
      username: credentials.username,
      password: credentials.password,
      rotatedAt,
    }),
  };
}

/** How many rotations are sent while their answers keep getting lost. */
const LOST_ANSWER_ATTEMPTS = 3;

/**
 * Rotates and returns the new credentials. A lost answer leaves the password changed to a value
 * nobody knows; rotating again replaces it with one we learn, which is what this resource is
 * for, so the rotation is sent again (up to three times) rather than failing the create.
 */
async function rotateUntilKnown(
  clusterId: string,
  username: string,
  killSessions: boolean | undefined,
): Promise<{ username: string; password: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await platformClient().postgres.rotatePassword(
        clusterId,
        username,
        killSessions === undefined ? {} : { killSessions },
      );
    } catch (err) {
      if (!(err instanceof AmbiguousRequestError) || attempt >= LOST_ANSWER_ATTEMPTS) throw err;
    }
  }
}

/** No read endpoint exists: the state is kept as it is. */
export async function read(id: string, props: Props): Promise<{ id: string; props: Props; inputs: Props }> {
  const outs = clean({ ...props });
  return { id, props: outs, inputs: pick(outs, ["clusterId", "username", "killSessions", "triggers"]) };
}

/** Only `killSessions` changes in place: recorded for the next rotation, no call is made. */
export async function update(_id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const outs: Props = { ...olds, killSessions: news.killSessions };
  delete outs.__provider;
  return { outs: clean(outs) };
}

/** Nothing to undo at the platform: the password stays as rotated. */
export async function remove(_id: string, _props: Props): Promise<void> {}
