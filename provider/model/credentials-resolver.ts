/**
 * Where the platform's API URL and token come from, decided in one place for the provider's
 * runtime, the lookups, `recover` and `adopt`: the caller's arguments, else the stack config
 * (`platform:apiUrl`, `platform:apiToken`), else the environment (`PLATFORM_API_URL`,
 * `PLATFORM_API_TOKEN`), each value on its own. Pure: the caller hands in what it can read, so the
 * program side loads nothing for it. No message it writes contains the token.
 * @module
 */

/** Stack config keys of the credentials. */
export const CONFIG_KEYS = { apiToken: "platform:apiToken", apiUrl: "platform:apiUrl" } as const;
/** Environment variables of the credentials. */
export const ENV_KEYS = { apiToken: "PLATFORM_API_TOKEN", apiUrl: "PLATFORM_API_URL" } as const;

/** Where a resolved value came from. */
export type CredentialSource = "argument" | "config" | "env";

/** What a caller can read credentials from; a source it does not have is left out. */
export interface CredentialSources {
  /** Values the caller was given (options, flags, a lookup's arguments); they win. */
  args?: { apiUrl?: string | undefined; apiToken?: string | undefined } | undefined;
  /** How the caller's arguments are named in messages (`--api-token`), when users pass them. */
  argNames?: { apiUrl: string; apiToken: string };
  /** The stack config; absent where there is no stack (`adopt`). */
  config?: (key: string) => string | undefined;
  /** The environment (e.g. `process.env`). */
  env?: Record<string, string | undefined>;
}

/** Credentials found, and where the token came from. */
export interface ResolvedCredentials {
  apiUrl: string;
  apiToken: string;
  tokenSource: CredentialSource;
  /**
   * The environment's token (PLATFORM_API_TOKEN) when a source that wins over it gave another
   * token: what a refused stack-config token may fall back to (../runtime/credentials), and what
   * the token gate's message says goes unused.
   */
  unusedEnvToken?: string;
}

/** The credentials, or what is missing or wrong (each a sentence saying how to fix it). */
export type CredentialsResolution =
  | ({ ok: true } & ResolvedCredentials)
  | { ok: false; problems: string[]; tokenSource?: CredentialSource };

/** The one trimming rule: a value is given when it is a string with more than whitespace; it is trimmed. */
export function given(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The first given value among the sources, in order of precedence. */
function pick(
  sources: CredentialSources,
  key: keyof typeof CONFIG_KEYS,
): { value: string; source: CredentialSource } | undefined {
  const candidates: [CredentialSource, () => unknown][] = [
    ["argument", () => sources.args?.[key]],
    ["config", () => sources.config?.(CONFIG_KEYS[key])],
    ["env", () => sources.env?.[ENV_KEYS[key]]],
  ];
  for (const [source, read] of candidates) {
    const value = given(read());
    if (value !== undefined) return { value, source };
  }
  return undefined;
}

/** Resolves the API URL and token; never throws. */
export function resolveCredentials(sources: CredentialSources): CredentialsResolution {
  const url = pick(sources, "apiUrl");
  const token = pick(sources, "apiToken");
  const problems: string[] = [];
  if (!token) problems.push(`no platform API token: ${howToSet(sources, "apiToken")}`);
  else if (/[\r\n]/.test(token.value))
    problems.push(
      `the platform API token from ${origin(sources, "apiToken", token.source)} contains a line break`,
    );
  if (!url) problems.push(`no platform API URL: ${howToSet(sources, "apiUrl")}`);
  else {
    const wrong = urlProblem(url.value);
    if (wrong) problems.push(`the platform API URL from ${origin(sources, "apiUrl", url.source)} ${wrong}`);
  }
  if (url && token && problems.length === 0) {
    const env = given(sources.env?.[ENV_KEYS.apiToken]);
    const unused =
      token.source !== "env" && env !== undefined && env !== token.value ? { unusedEnvToken: env } : {};
    return { ok: true, apiUrl: url.value, apiToken: token.value, tokenSource: token.source, ...unused };
  }
  return { ok: false, problems, ...(token ? { tokenSource: token.source } : {}) };
}

/** Every way the caller offers to set `key`, in order of precedence. */
function howToSet(sources: CredentialSources, key: keyof typeof CONFIG_KEYS): string {
  const ways: string[] = [];
  if (sources.argNames) ways.push(`pass ${sources.argNames[key]}`);
  if (sources.config) {
    ways.push(
      key === "apiToken"
        ? `run \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\``
        : `run \`pulumi config set ${CONFIG_KEYS.apiUrl} https://...\``,
    );
  }
  ways.push(`set the environment variable ${ENV_KEYS[key]}`);
  return ways.length === 1 ? (ways[0] ?? "") : `${ways.slice(0, -1).join(", ")} or ${ways.at(-1)}`;
}

/** Names where a value came from, for a message. */
function origin(sources: CredentialSources, key: keyof typeof CONFIG_KEYS, source: CredentialSource): string {
  if (source === "config") return `the stack config (${CONFIG_KEYS[key]})`;
  if (source === "env") return ENV_KEYS[key];
  return sources.argNames?.[key] ?? `the ${key} argument`;
}

/** What is wrong with an API URL, or undefined. User info is never echoed (it may be a secret). */
function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be an http:// or https:// URL (got ${JSON.stringify(value)})`;
  }
  if (url.username || url.password) return "must not contain a user name or password";
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `must be an http:// or https:// URL (got ${JSON.stringify(value)})`;
  return undefined;
}
