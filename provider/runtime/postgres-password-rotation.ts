/**
 * PostgresPasswordRotation: one rotation of a user's password (spec 4.1). There is no endpoint to
 * read a password back, so `read` keeps the state as it is and `delete` leaves the platform
 * alone (the password stays what it is). A change of `triggers`, `clusterId` or `username`
 * rotates again through a replace, like the random provider's keepers.
 * @module
 */
import { AmbiguousRequestError, ApiError } from "../../sdk";
import { type OutputValues, storedInputs } from "../declaration";
import {
  type PostgresPasswordRotationInputs,
  postgresPasswordRotationDeclaration,
} from "../declarations/postgres-password-rotation";
import { clean, pick } from "../json-values";
import { platformClient } from "./credentials";
import { defineProvider } from "./define";
import { explain } from "./errors";

type Props = Record<string, unknown>;

const STORED = storedInputs(postgresPasswordRotationDeclaration);

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
async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
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
  const outs: OutputValues<typeof postgresPasswordRotationDeclaration> = {
    ...pick(inputs, STORED),
    username: credentials.username,
    password: credentials.password,
    rotatedAt,
  };
  return { id: `${clusterId}/${credentials.username}/${rotatedAt}`, outs: clean(outs) };
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
async function read(id: string, props: Props): Promise<{ id: string; props: Props; inputs: Props }> {
  const outs = clean({ ...props });
  return { id, props: outs, inputs: pick(outs, Object.keys(postgresPasswordRotationDeclaration.inputs)) };
}

/** Only `killSessions` changes in place: recorded for the next rotation, no call is made. */
async function update(_id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const outs: Props = { ...olds, killSessions: news.killSessions };
  delete outs.__provider;
  return { outs: clean(outs) };
}

/** Nothing to undo at the platform: the password stays as rotated. */
async function remove(_id: string, _props: Props): Promise<void> {}

/** The provider methods of `PostgresPasswordRotation`. */
export const postgresPasswordRotation = defineProvider(postgresPasswordRotationDeclaration, {
  create,
  read,
  update,
  delete: remove,
});
