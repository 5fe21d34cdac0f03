/**
 * `PostgresPasswordRotation`: rotates the password of a user of a managed Postgres cluster
 * (spec 4.1). Inputs and outputs are declared in ../declarations/postgres-password-rotation.
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { postgresPasswordRotationDeclaration } from "../../kinds/postgres-password-rotation/declaration";
import { registry } from "../../kinds/registry";
import { PlatformResource } from "../../classes/registration";

/** Inputs of a {@link PostgresPasswordRotation}. */
export type PostgresPasswordRotationArgs = ArgsOf<typeof postgresPasswordRotationDeclaration>;

/** The outputs of a {@link PostgresPasswordRotation}, as its declaration names them. */
export interface PostgresPasswordRotation extends OutputsOf<typeof postgresPasswordRotationDeclaration> {}

/**
 * One rotation of a Postgres user's password; the new password is the secret output `password`.
 *
 * The platform has no endpoint to read a password back: `pulumi refresh` keeps this resource's
 * state as it is, and deleting the resource changes nothing at the platform (the password stays
 * the last one rotated). Change `triggers` to rotate again.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only adds the declared outputs' types; the engine sets them
export class PostgresPasswordRotation extends PlatformResource {
  /** Declares a password rotation named `name` in the stack. */
  constructor(name: string, args: PostgresPasswordRotationArgs, opts?: pulumi.CustomResourceOptions) {
    super(registry.postgresPasswordRotation, name, args, opts);
  }
}
