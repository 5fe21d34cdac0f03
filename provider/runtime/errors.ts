/**
 * Turns sdk errors into messages a Pulumi user can act on: what was being done, the HTTP status
 * and the platform's message (already in the sdk's ApiError message), and what to do.
 * @module
 */
import { AmbiguousRequestError, ApiError, isGone, isNotFound, TimeoutError } from "../../sdk";
import { clean } from "../model/json-values";
import { refusedTokenAdvice } from "./credentials";

/**
 * Wraps `err` into an Error whose message starts with `action` and ends with `advice`. A refused
 * token (401) gets one piece of advice, fitted to the command and where the token came from,
 * instead of the sdk's generic hint and `advice`.
 */
export function explain(err: unknown, action: string, advice?: string): Error {
  if (err instanceof ApiError && err.status === 401) {
    const id = err.requestId ? ` (request id ${err.requestId})` : "";
    const refused = `${err.method} ${err.path} failed with 401: ${err.platformMessage || "(no message)"}${id}`;
    return new Error(`${action} failed: ${refused}. ${refusedTokenAdvice()}`, { cause: err });
  }
  const base = err instanceof Error ? err.message : String(err);
  let message = `${action} failed: ${base}`;
  if (err instanceof AmbiguousRequestError && !advice) {
    advice =
      "The request may have taken effect; run `pulumi refresh` to see what exists before running `pulumi up` again";
  }
  if (advice) message = `${message.replace(/[.\s]+$/, "")}. ${advice}`;
  const wrapped = new Error(message, { cause: err });
  return wrapped;
}

/** True when an sdk error says the thing is not there any more (404 or 410). */
export function isMissing(err: unknown): boolean {
  return isNotFound(err) || isGone(err);
}

/**
 * Pulumi's `ResourceInitError`, recognised by its name: the resource WAS created but is not ready
 * (a wait timed out). The engine records it with `id` and `properties`, so it is not leaked and the
 * next `up` retries; `properties` must include `__provider` so later operations can run
 * (./kept-in-stack makes them).
 */
export class ResourceInitError extends Error {
  override readonly name = "ResourceInitError";
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];
  constructor(id: string, properties: Record<string, unknown>, message: string) {
    super(message);
    this.id = id;
    this.properties = clean(properties);
    this.reasons = [message];
  }
}

export { STACK_TOKEN_ADVICE, withTokenAdvice } from "../model/token-advice";
export { ApiError, TimeoutError };
