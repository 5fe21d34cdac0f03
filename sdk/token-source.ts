/**
 * Where a client's API token comes from, asked for every request (as fly-go's `tokens.Tokens`),
 * so that whoever owns the credentials decides what replaces a refused token, not the transport.
 * @module
 */
import { InvalidArgumentError } from "./errors";

/**
 * The API token of a {@link PlatformClient}, asked for every request. After every 401 the
 * transport calls `refused` with the token it sent; when that returns true the request is sent
 * once more (once per call), with `current()`: a 401 means the platform did nothing, so
 * repeating is safe for any method, and a paged listing repeats only the refused page.
 */
export interface TokenSource {
  /** The token to send now (non-empty, one line); never logged or put in errors. */
  current(): string;
  /**
   * Told that the platform refused `token` (401). Returns true when another token is current
   * now (the refused request is then repeated once with it), false to fail with the 401.
   * Concurrent requests may report the same token: answer true again once it was replaced.
   */
  refused(token: string): boolean;
}

/** A token that nothing replaces: what the `token` option of the clients means. */
export function fixedToken(token: string): TokenSource {
  return { current: () => token, refused: () => false };
}

/** Checks a token source's shape up front (the constructor's rule for its options). */
export function checkTokenSource(source: unknown): TokenSource {
  const s = source as Partial<TokenSource> | null;
  if (
    typeof s !== "object" ||
    s === null ||
    typeof s.current !== "function" ||
    typeof s.refused !== "function"
  ) {
    throw new InvalidArgumentError("tokenSource must be an object with current() and refused(token) methods");
  }
  return s as TokenSource;
}

/** The token `source` gives now; throws InvalidArgumentError, never showing it, when it is unusable. */
export function currentToken(source: TokenSource): string {
  const token = source.current();
  if (typeof token !== "string" || token.trim() === "" || /[\r\n]/.test(token)) {
    throw new InvalidArgumentError("tokenSource.current() must return a non-empty single-line string");
  }
  return token;
}
