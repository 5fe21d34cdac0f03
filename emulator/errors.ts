/** Domain error kinds the store raises; the HTTP layer maps each to a status code. */
export type EmulatorErrorKind =
  | "invalid"
  | "unauthorized"
  | "not_found"
  | "conflict"
  | "gone"
  | "unprocessable"
  | "unavailable";

export const STATUS_OF_KIND: Record<EmulatorErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  gone: 410,
  unprocessable: 422,
  unavailable: 503,
};

/** An error whose message is safe to show to the caller as `{ error }`. */
export class EmulatorError extends Error {
  override readonly name = "EmulatorError";
  constructor(
    readonly kind: EmulatorErrorKind,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new EmulatorError("invalid", message);
export const notFound = (message: string) => new EmulatorError("not_found", message);
export const conflict = (message: string) => new EmulatorError("conflict", message);
export const gone = (message: string) => new EmulatorError("gone", message);
export const unprocessable = (message: string) => new EmulatorError("unprocessable", message);
export const unavailable = (message: string, retryAfterSeconds: number) =>
  new EmulatorError("unavailable", message, retryAfterSeconds);
