/**
 * Credentials of the provider process: stack config handed to `configure` (platform:apiToken,
 * platform:apiUrl), else PLATFORM_API_TOKEN / PLATFORM_API_URL. They live in this module only:
 * never in the serialized provider, never in inputs, outputs, state or messages.
 * @module
 */
import { PlatformClient } from "../../sdk";

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
let cached: { key: string; client: PlatformClient } | undefined;

/**
 * Called by the engine once per provider in the provider process, before any other method,
 * with the stack's configuration (secrets decrypted).
 */
export async function configure(req: ConfigureRequestLike): Promise<void> {
  const apiToken = nonEmpty(req?.config?.get(CONFIG_KEYS.apiToken));
  const apiUrl = nonEmpty(req?.config?.get(CONFIG_KEYS.apiUrl));
  fromConfig = { ...(apiToken ? { apiToken } : {}), ...(apiUrl ? { apiUrl } : {}) };
}

/** Forgets configured credentials and the cached client (tests). */
export function resetCredentials(): void {
  fromConfig = {};
  const old = cached;
  cached = undefined;
  void old?.client.close();
}

function nonEmpty(value: string | undefined): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Where each credential came from, or what is wrong with it; the token's value is never shown. */
export function credentialProblems(): { property: string; reason: string }[] {
  const problems: { property: string; reason: string }[] = [];
  const { apiUrl, apiToken } = resolve();
  if (!apiToken) {
    problems.push({
      property: "apiToken",
      reason: `no platform API token: run \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\` or set the environment variable ${ENV_KEYS.apiToken}`,
    });
  }
  if (!apiUrl) {
    problems.push({
      property: "apiUrl",
      reason: `no platform API URL: run \`pulumi config set ${CONFIG_KEYS.apiUrl} https://...\` or set the environment variable ${ENV_KEYS.apiUrl}`,
    });
  } else if (!isHttpUrl(apiUrl)) {
    problems.push({
      property: "apiUrl",
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

function resolve(): Partial<Credentials> {
  return {
    apiToken: fromConfig.apiToken ?? nonEmpty(process.env[ENV_KEYS.apiToken]),
    apiUrl: fromConfig.apiUrl ?? nonEmpty(process.env[ENV_KEYS.apiUrl]),
  };
}

/** The client for the resolved credentials; throws a message saying how to set what is missing. */
export function platformClient(): PlatformClient {
  const problems = credentialProblems();
  if (problems.length > 0) throw new Error(problems.map((p) => p.reason).join("; "));
  const { apiUrl, apiToken } = resolve() as Credentials;
  const key = `${apiUrl}\n${apiToken}`;
  if (cached?.key !== key) {
    void cached?.client.close();
    cached = {
      key,
      client: new PlatformClient({ baseUrl: apiUrl, token: apiToken, userAgent: "pulumi-platform-provider" }),
    };
  }
  return cached.client;
}
