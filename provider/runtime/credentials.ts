/**
 * Credentials of the provider process: stack config handed to `configure` (platform:apiToken,
 * platform:apiUrl), else PLATFORM_API_TOKEN / PLATFORM_API_URL. They live in this module only:
 * never in the serialized provider, never in inputs, outputs, state or messages.
 *
 * What `configure` receives depends on the command (observed through the engine): `up` and
 * `preview` run the program and pass the current stack config; `refresh`, `destroy` and the
 * refresh step of `up --refresh` pass the config recorded in the state by the last `up` (the
 * default provider's inputs), so after `pulumi config set --secret platform:apiToken <new>` they
 * still hold the old token. The provider process cannot read the current stack config there (it
 * gets no stack name, and `PULUMI_CONFIG` is empty), but it sees the CLI's environment: when the
 * configured token is refused (401) and PLATFORM_API_TOKEN holds another one, every call is
 * repeated once with that one (a 401 means the platform did nothing) and the process keeps it.
 * @module
 */
import { ApiError, PlatformClient } from "../../sdk";

/** Stack config keys read by `configure`. */
export const CONFIG_KEYS = { apiToken: "platform:apiToken", apiUrl: "platform:apiUrl" } as const;
/** Environment variables used when the stack config has no value. */
export const ENV_KEYS = { apiToken: "PLATFORM_API_TOKEN", apiUrl: "PLATFORM_API_URL" } as const;

/** The part of Pulumi's dynamic `ConfigureRequest` the provider uses. */
export interface ConfigureRequestLike {
  config: { get(key: string): string | undefined };
}

/** Resolved credentials. */
export interface Credentials {
  apiUrl: string;
  apiToken: string;
}

let fromConfig: Partial<Credentials> = {};
const clients = new Map<string, PlatformClient>();
/** Set after the configured token was refused and PLATFORM_API_TOKEN took over. */
let usingEnvToken = false;
/** Which tokens the platform refused (401) in this process. */
const refused = new Set<TokenSource>();
/** Whether check/create/update ran in this process: then `configure` got the current stack config. */
let programChecked = false;

/** Where the token in use comes from. */
type TokenSource = "config" | "env";

/**
 * Called by the engine once per provider in the provider process, before any other method,
 * with the stack's configuration (secrets decrypted).
 */
export async function configure(req: ConfigureRequestLike): Promise<void> {
  const apiToken = nonEmpty(req?.config?.get(CONFIG_KEYS.apiToken));
  const apiUrl = nonEmpty(req?.config?.get(CONFIG_KEYS.apiUrl));
  fromConfig = { ...(apiToken ? { apiToken } : {}), ...(apiUrl ? { apiUrl } : {}) };
}

/** Forgets configured credentials, cached clients and refused tokens (tests). */
export function resetCredentials(): void {
  fromConfig = {};
  usingEnvToken = false;
  programChecked = false;
  refused.clear();
  const old = [...clients.values()];
  clients.clear();
  for (const client of old) void client.close();
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * Records that the engine called `check`, `create` or `update` in this process: those only run
 * when the program ran, so `configure` got the current stack config (see the module notes).
 */
export function noteProgramOperation(): void {
  programChecked = true;
}

/**
 * What is missing or wrong in the credentials; the token's value is never shown. No problem
 * names a property (the engine would print that property's value, and these are not inputs).
 */
export function credentialProblems(): { property: string; reason: string }[] {
  const problems: { property: string; reason: string }[] = [];
  const { apiUrl, apiToken } = resolve();
  if (!apiToken) {
    problems.push({
      property: "",
      reason: `no platform API token: run \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\` or set the environment variable ${ENV_KEYS.apiToken}`,
    });
  }
  if (!apiUrl) {
    problems.push({
      property: "",
      reason: `no platform API URL: run \`pulumi config set ${CONFIG_KEYS.apiUrl} https://...\` or set the environment variable ${ENV_KEYS.apiUrl}`,
    });
  } else if (!isHttpUrl(apiUrl)) {
    problems.push({
      property: "",
      reason: `the platform API URL must be an http:// or https:// URL (got ${JSON.stringify(apiUrl)}); set ${CONFIG_KEYS.apiUrl} or ${ENV_KEYS.apiUrl}`,
    });
  }
  return problems;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function envToken(): string | undefined {
  return nonEmpty(process.env[ENV_KEYS.apiToken]);
}

function resolve(): Partial<Credentials> & { source?: TokenSource } {
  const apiUrl = fromConfig.apiUrl ?? nonEmpty(process.env[ENV_KEYS.apiUrl]);
  if (fromConfig.apiToken && !usingEnvToken)
    return { apiUrl, apiToken: fromConfig.apiToken, source: "config" };
  const apiToken = envToken();
  return apiToken ? { apiUrl, apiToken, source: "env" } : { apiUrl };
}

function clientFor(apiUrl: string, apiToken: string): PlatformClient {
  const key = `${apiUrl}\n${apiToken}`;
  let client = clients.get(key);
  if (!client) {
    client = new PlatformClient({ baseUrl: apiUrl, token: apiToken, userAgent: "pulumi-platform-provider" });
    clients.set(key, client);
  }
  return client;
}

/** The families of the platform client the provider calls. */
export type ProviderClient = Pick<PlatformClient, "volumes" | "certificates" | "postgres">;
type Family = keyof ProviderClient;

function current(): { client: PlatformClient; source: TokenSource } {
  const problems = credentialProblems();
  if (problems.length > 0) throw new Error(problems.map((p) => p.reason).join("; "));
  const { apiUrl, apiToken, source } = resolve() as Credentials & { source: TokenSource };
  return { client: clientFor(apiUrl, apiToken), source };
}

/**
 * After `err` from a call made with the token of `source`: records a refusal, and answers
 * whether the call should be repeated with PLATFORM_API_TOKEN (set, different, not yet tried).
 */
function switchedToEnvToken(err: unknown, source: TokenSource): boolean {
  if (!(err instanceof ApiError) || err.status !== 401) return false;
  refused.add(source);
  const env = envToken();
  if (source !== "config" || usingEnvToken || !env || env === fromConfig.apiToken) return false;
  usingEnvToken = true;
  return true;
}

function callFamily(family: Family, method: PropertyKey, args: unknown[]): unknown {
  const invoke = () => {
    const { client, source } = current();
    const fn = (client[family] as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[method];
    return { result: fn?.apply(client[family], args), source };
  };
  const first = invoke();
  if (isAsyncIterable(first.result))
    return iterateWithRetry(first.result, first.source, () => invoke().result);
  return Promise.resolve(first.result).catch((err: unknown) => {
    if (!switchedToEnvToken(err, first.source)) throw err;
    const again = invoke();
    return Promise.resolve(again.result).catch((err2: unknown) => {
      switchedToEnvToken(err2, again.source);
      throw err2;
    });
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === "object" && Symbol.asyncIterator in value;
}

/** A paged listing: repeated with the other token only when refused before its first item. */
async function* iterateWithRetry(
  first: AsyncIterable<unknown>,
  source: TokenSource,
  again: () => unknown,
): AsyncGenerator<unknown> {
  let yielded = false;
  try {
    for await (const item of first) {
      yielded = true;
      yield item;
    }
  } catch (err) {
    if (yielded || !switchedToEnvToken(err, source)) throw err;
    yield* again() as AsyncIterable<unknown>;
  }
}

function familyProxy<F extends Family>(family: F): ProviderClient[F] {
  return new Proxy({} as ProviderClient[F], {
    get: (_target, method) => {
      const member = (current().client[family] as unknown as Record<PropertyKey, unknown>)[method];
      if (typeof member !== "function") return member;
      return (...args: unknown[]) => callFamily(family, method, args);
    },
  });
}

const providerClient: ProviderClient = {
  volumes: familyProxy("volumes"),
  certificates: familyProxy("certificates"),
  postgres: familyProxy("postgres"),
};

/**
 * The client for the resolved credentials; a call throws a message saying how to set what is
 * missing. A call refused with 401 under the configured token is repeated once with
 * PLATFORM_API_TOKEN when that holds another token.
 */
export function platformClient(): ProviderClient {
  current();
  return providerClient;
}

/**
 * What to do about a refused token (401), said once: which token was refused and the fix that
 * works for the command at hand, without repeating a step the user has already taken.
 */
export function refusedTokenAdvice(): string {
  const { source } = resolve();
  const envSet = envToken() !== undefined;
  if (source === "env" && !refused.has("config")) {
    return `The platform refused the token in ${ENV_KEYS.apiToken}: set a valid one there, or in the stack config with \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\``;
  }
  const envToo = refused.has("env") ? ` (${ENV_KEYS.apiToken} was refused too)` : "";
  if (programChecked) {
    return `The platform refused the API token of the stack config${envToo}: set a valid one with \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\``;
  }
  const envFix = envSet ? "" : `, or set ${ENV_KEYS.apiToken} to the new token for this command`;
  return (
    `The platform refused the API token recorded in the stack's state${envToo}: \`pulumi refresh\` and \`pulumi destroy\` configure the provider with the stack config of the last \`pulumi up\`, not the current one. ` +
    `After changing ${CONFIG_KEYS.apiToken}, run \`pulumi refresh --run-program\` or \`pulumi destroy --run-program\` (or \`pulumi up\` first)${envFix}; if that fails too, the new token is not valid`
  );
}
