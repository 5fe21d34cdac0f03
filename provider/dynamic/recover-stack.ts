/**
 * `recoverStack` at the package root, kept for programs written against 0.3.0: it lives in
 * `pulumi-platform/ops` now (../../ops), and loads from there only when it is called.
 * @module
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { RecoverStackOptions, RecoverStackResult } from "../../ops/recover-stack";

export type { RecoverStackOptions, RecoverStackResult };

/**
 * `recoverStack` of `pulumi-platform/ops` (see there).
 * @deprecated Import it from `pulumi-platform/ops`; this re-export is removed in 1.0.
 */
export async function recoverStack(stack: Stack, options?: RecoverStackOptions): Promise<RecoverStackResult> {
  return (await import("../../ops/recover-stack")).recoverStack(stack, options);
}
