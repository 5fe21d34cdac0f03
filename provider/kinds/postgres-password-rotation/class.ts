/**
 * The `PostgresPasswordRotation` class both doors extend (../../dynamic/classes,
 * ../../plugin/classes): its `Args` and outputs' types (from ./declaration).
 * @module
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ArgsOf, OutputsOf } from "../../model/declaration";
import type { Door } from "../../registration/door";
import { KindResource } from "../../registration/kind-resource";
import { KIND_NAMES } from "../names";
import type { postgresPasswordRotationDeclaration } from "./declaration";

/** Inputs of a `PostgresPasswordRotation`. */
export type PostgresPasswordRotationArgs = ArgsOf<typeof postgresPasswordRotationDeclaration>;

/** The outputs of a password rotation, as its declaration names them. */
export interface PostgresPasswordRotationResource
  extends OutputsOf<typeof postgresPasswordRotationDeclaration> {}
/** A rotation of a Postgres user's password (the password a secret output), through either door. */
export abstract class PostgresPasswordRotationResource extends KindResource {
  protected constructor(
    door: Door,
    name: string,
    args: PostgresPasswordRotationArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(door, KIND_NAMES.postgresPasswordRotation, name, args, opts);
  }
}
