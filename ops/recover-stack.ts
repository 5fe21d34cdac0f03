/**
 * `recoverStack`: `pulumi-platform recover` for Automation API programs (a fleet of stacks, a
 * deploy service). Run it before every `up`: with nothing pending it costs one stack export.
 * The recover code (and the HTTP client) loads only when it is called.
 * @module
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { RecoverOptions } from "./recover";

/** Options of {@link recoverStack}: those of `pulumi-platform recover`. */
export type RecoverStackOptions = Omit<RecoverOptions, "write" | "yes" | "environment">;

/** What {@link recoverStack} did. */
export interface RecoverStackResult {
  /**
   * `recovered`: pending creates were imported or deleted, orphans deleted, or a stale lock
   * removed (or there was nothing to do). `not-applied`: a live lock was kept, or ambiguous
   * pending creates were left for a person; the next `up` may fail or create them again.
   */
  outcome: "recovered" | "not-applied";
  /** The report `pulumi-platform recover` prints. */
  report: string;
}

/**
 * After an interrupted `pulumi up` of `stack`, imports into the stack (or with `delete`, deletes)
 * what its pending creates made at the platform, so that the next `up` creates nothing twice;
 * `unlockIfStale` removes the lock the interrupted update left once it is stale, never a live
 * update's. Credentials: `apiUrl`/`apiToken`, else the stack config, else PLATFORM_API_URL and
 * PLATFORM_API_TOKEN of the workspace's environment.
 * Throws when pulumi or the platform fails.
 *
 * @example
 * ```ts
 * await recoverStack(stack, { unlockIfStale: true });
 * await stack.up();
 * ```
 */
export async function recoverStack(
  stack: Stack,
  options: RecoverStackOptions = {},
): Promise<RecoverStackResult> {
  const [{ recoverWith, RECOVER_EXIT }, { automationStackAccess }] = await Promise.all([
    import("./recover"),
    import("./stack-access"),
  ]);
  let report = "";
  const code = await recoverWith(automationStackAccess(stack), {
    ...options,
    // The workspace's environment is the one its `pulumi` commands and the provider see.
    environment: { ...process.env, ...stack.workspace.envVars },
    yes: true,
    write: (text) => {
      report += text;
    },
  });
  return { outcome: code === RECOVER_EXIT.ok ? "recovered" : "not-applied", report };
}
