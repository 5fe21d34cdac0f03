/**
 * What to do about a refused token outside the runtime's credentials (lookups, `recover`): they
 * read the stack config or the environment, so the advice names both. Loads the sdk's errors
 * only, never a runtime module.
 * @module
 */
import { ApiError } from "../../sdk/errors";

/** Where to set a valid token, for a refusal outside the runtime's credentials (lookups, `recover`). */
export const STACK_TOKEN_ADVICE =
  "Set a valid API token with `pulumi config set --secret platform:apiToken <token>` or the environment variable PLATFORM_API_TOKEN";

/** `err` with {@link STACK_TOKEN_ADVICE} added when it is a refused token (401); else `err`. */
export function withTokenAdvice(err: unknown): unknown {
  if (!(err instanceof ApiError && err.status === 401)) return err;
  return new Error(`${err.message.replace(/[.\s]+$/, "")}. ${STACK_TOKEN_ADVICE}`, { cause: err });
}
