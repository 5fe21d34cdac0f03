/**
 * Which row of the Postgres error table (spec section 7) a rotate-password failure is: the
 * `reason` of its ApiError, decided from the status and the platform's message.
 * @module
 */
import { notFoundSubject, unquoted } from "./errors";

/** Why a Postgres rotate-password call failed (spec section 7), one value per error row. */
export type PostgresErrorReason =
  | "reserved_user"
  | "system_user"
  | "malformed_user"
  | "unauthorized"
  | "cluster_not_found"
  | "user_not_found"
  | "cluster_deleted"
  | "cluster_deleting"
  | "invalid_kill_sessions"
  | "admin_unavailable";

/** The error row of a rotate-password answer with `status` and the platform's `message`. */
export function postgresReason(status: number, message: string): PostgresErrorReason | undefined {
  const lower = unquoted(message);
  switch (status) {
    case 400:
      if (lower.includes("malformed")) return "malformed_user";
      if (lower.includes("reserved")) return "reserved_user";
      if (lower.includes("system")) return "system_user";
      return "malformed_user";
    case 401:
      return "unauthorized";
    case 404:
      return notFoundSubject(message) === "cluster" ? "cluster_not_found" : "user_not_found";
    case 410:
      return /deleting|being deleted/.test(lower) ? "cluster_deleting" : "cluster_deleted";
    case 422:
      return "invalid_kill_sessions";
    case 503:
      return "admin_unavailable";
    default:
      return undefined;
  }
}
