/**
 * `PostgresPasswordRotation`: its row in the registry. What a rotation is (./declaration) and the
 * rules both doors apply; what it does at the platform is ./runtime.
 * @module
 */
import { type ImportRule, NO_LIFETIME_WARNINGS } from "../../model/kind-rules";
import { leavesNothing } from "../../model/recovery";
import type { RuntimeProvider } from "../../runtime/define";
import { postgresPasswordRotationDeclaration } from "./declaration";

/** Refused: a rotation is an action, not a platform object. */
const importing: ImportRule = {
  refusal: () =>
    "a PostgresPasswordRotation cannot be imported: it is an action, not a platform object. Declare it in the program; its first `pulumi up` rotates the password.",
};

/** The rotation kind: a due rotation is planned by its diff, so time passing needs no warning. */
export const postgresPasswordRotationKind = {
  key: "postgresPasswordRotation",
  type: "PostgresPasswordRotation",
  noun: "Postgres password",
  declaration: postgresPasswordRotationDeclaration,
  lifetime: NO_LIFETIME_WARNINGS,
  importing,
  recovery: leavesNothing(
    "a rotation leaves nothing to own; the next `pulumi up` rotates again and records the password",
  ),
  clients: ["postgres"],
  runtime: (): RuntimeProvider =>
    (require("./runtime") as typeof import("./runtime")).postgresPasswordRotation,
  mock: () => (require("./mock") as typeof import("./mock")).postgresPasswordRotationMock,
} as const;
