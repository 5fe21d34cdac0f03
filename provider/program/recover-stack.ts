/**
 * `recoverStack` at the package root, kept for programs written against 0.3.0: it lives in
 * `pulumi-platform/ops` now, which stands on this package's provider, not under it. So this shim
 * reaches it through the package's public subpath when it is called, and restates its option and
 * result types (test/unit/package/recover-stack-shim.test.ts holds them equal to ops').
 * @module
 */
import type { Stack } from "@pulumi/pulumi/automation";

/** Options of `recoverStack`: those of `pulumi-platform recover` (see `pulumi-platform/ops`). */
export interface RecoverStackOptions {
  /** Delete what the interrupted update made instead of importing it (and delete sweep orphans). */
  delete?: boolean;
  /** Remove the lock unconditionally. */
  unlock?: boolean;
  /** Remove the lock when it is stale. */
  unlockIfStale?: boolean;
  /** For `unlockIfStale`: a lock taken on another machine is stale after this long (default 6 h). */
  staleAfterMs?: number;
  /** Also look for orphans whose pending creates are gone. */
  sweep?: boolean;
  /** For `sweep` (default 24 h). */
  windowMs?: number;
  /** Credentials when the stack config and the environment should not be read. */
  apiUrl?: string;
  apiToken?: string;
}

/** What `recoverStack` did (see `pulumi-platform/ops`). */
export interface RecoverStackResult {
  /** `recovered`, or `not-applied`: a live lock was kept, or ambiguous pending creates were left. */
  outcome: "recovered" | "not-applied";
  /** The report `pulumi-platform recover` prints. */
  report: string;
}

/** The part of `pulumi-platform/ops` this shim calls. */
interface Ops {
  recoverStack(stack: Stack, options?: RecoverStackOptions): Promise<RecoverStackResult>;
}

/**
 * `recoverStack` of `pulumi-platform/ops` (see there).
 * @deprecated Import it from `pulumi-platform/ops`; this re-export is removed in 1.0.
 */
export async function recoverStack(stack: Stack, options?: RecoverStackOptions): Promise<RecoverStackResult> {
  // The package's own name resolves to itself (Node's self-reference through `exports`).
  const ops = require("pulumi-platform/ops") as Ops;
  return ops.recoverStack(stack, options);
}
