/**
 * Which row of the Postgres error table (spec section 7) a rotate-password failure is (the
 * `reason` of its ApiError, decided from the status and the platform's message), and the hints
 * of ApiError's message that only hold for Postgres.
 * @module
 */
import { notFoundSubject, unquoted } from "./error-messages";

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

/**
 * What to do about a failed Postgres call, where it differs from other families' (a 410 while
 * the cluster is deleted, a 503 from the admin component); undefined otherwise.
 */
export function postgresHint(status: number, message: string, path: string): string | undefined {
  if (status === 410 && /deleting|being deleted/i.test(message))
    return "The Postgres cluster is being deleted; nothing can be changed on it";
  if (status === 503 && path.startsWith("/v1/postgres/"))
    return "The Postgres admin component is unavailable; try again later";
  return undefined;
}
