/**
 * Postgres user passwords (spec 4.1). Every error row of spec 7 surfaces as an ApiError with a
 * distinct `reason` (see ./postgres-errors).
 * @module
 */
import { AmbiguousRequestError } from "./errors";
import { apiPath } from "./paths";
import { postgresReason } from "./postgres-errors";
import { type PostgresCredentials, RotatePasswordResponseSchema } from "./schemas";
import type { CallOptions, Transport } from "./transport";

/** Options of {@link PostgresClient.rotatePassword}. */
export interface RotatePasswordOptions extends CallOptions {
  /** End the user's open sessions after the rotation. */
  killSessions?: boolean;
}

/** Postgres clusters the token can reach. Obtain it as `PlatformClient.postgres`. */
export class PostgresClient {
  /** @internal */
  constructor(private readonly transport: Transport) {}

  /**
   * Gives `username` a new password and returns it. Never repeated after an unknown outcome:
   * that throws AmbiguousRequestError, since the password may already have changed. A 500 is one
   * of those: the platform rotates first and ends the sessions after, and answers 500 when the
   * second step fails (`kill_sessions: true`), with the password already changed. A 503 is sent
   * again after `Retry-After`: the spec defines it as "not carried out" (`RETRY_POLICY`).
   */
  async rotatePassword(
    clusterId: string,
    username: string,
    opts?: RotatePasswordOptions,
  ): Promise<PostgresCredentials> {
    const path = apiPath`/v1/postgres/${clusterId}/users/${username}/rotate_password`;
    // killSessions goes as given: the platform owns the 422 for a non-boolean (spec 7).
    const body = opts?.killSessions === undefined ? {} : { kill_sessions: opts.killSessions };
    try {
      const res = await this.transport.request({
        method: "POST",
        path,
        body,
        schema: RotatePasswordResponseSchema,
        signal: opts?.signal,
        reasonOf: postgresReason,
      });
      return res.data;
    } catch (err) {
      if (!(err instanceof AmbiguousRequestError)) throw err;
      throw new AmbiguousRequestError(
        "POST",
        path,
        err.cause,
        `The password of user ${username} on cluster ${clusterId} may have changed and the new one is unknown. Rotate it again to get a known password (with killSessions: true to end sessions that may have connected with the unknown one).`,
      );
    }
  }
}
