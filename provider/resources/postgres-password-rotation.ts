/**
 * `PostgresPasswordRotation`: rotates the password of a user of a managed Postgres cluster
 * (spec 4.1).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { postgresPasswordRotationProvider } from "../stubs";

/** Inputs of a {@link PostgresPasswordRotation}. */
export interface PostgresPasswordRotationArgs {
  /** Postgres cluster id. Changing it rotates again (replace). */
  clusterId: pulumi.Input<string>;
  /**
   * User whose password is rotated. Reserved and system users are refused by the platform.
   * Changing it rotates again (replace).
   */
  username: pulumi.Input<string>;
  /**
   * End the user's open sessions after the rotation. Changing it alone does not rotate: it is
   * recorded for the next rotation.
   */
  killSessions?: pulumi.Input<boolean>;
  /**
   * Arbitrary values; any change rotates the password again (through a replace), like the
   * random provider's `keepers`. For example `{ schedule: "2025-q3" }`.
   */
  triggers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * One rotation of a Postgres user's password; the new password is the secret output `password`.
 *
 * The platform has no endpoint to read a password back: `pulumi refresh` keeps this resource's
 * state as it is, and deleting the resource changes nothing at the platform (the password stays
 * the last one rotated). Change `triggers` to rotate again.
 */
export class PostgresPasswordRotation extends pulumi.dynamic.Resource {
  /** Postgres cluster id. */
  declare public readonly clusterId: pulumi.Output<string>;
  /** User whose password was rotated, as the platform returned it. */
  declare public readonly username: pulumi.Output<string>;
  /** The new password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** When the rotation happened (ISO 8601). */
  declare public readonly rotatedAt: pulumi.Output<string>;
  /** `killSessions` as given. */
  declare public readonly killSessions: pulumi.Output<boolean | undefined>;
  /** `triggers` as given. */
  declare public readonly triggers: pulumi.Output<Record<string, string> | undefined>;

  /** Declares a password rotation named `name` in the stack. */
  constructor(name: string, args: PostgresPasswordRotationArgs, opts?: pulumi.CustomResourceOptions) {
    const secretOutputs = ["password", ...(opts?.additionalSecretOutputs ?? [])];
    super(
      postgresPasswordRotationProvider,
      name,
      { password: undefined, rotatedAt: undefined, killSessions: undefined, triggers: undefined, ...args },
      { ...opts, additionalSecretOutputs: secretOutputs },
      "platform",
      "PostgresPasswordRotation",
    );
  }
}
