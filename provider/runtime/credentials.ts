/**
 * Credentials of the provider process: the stack config handed to `configure` (platform:apiToken,
 * platform:apiUrl), else PLATFORM_API_TOKEN / PLATFORM_API_URL, resolved by
 * ../model/credentials-resolver. They live here only: never in the serialized provider, never in
 * inputs, outputs, state or messages.
 *
 * What `configure` receives depends on the command (observed through the engine): `up` and
 * `preview` run the program and pass the current stack config; `refresh`, `destroy` and the
 * refresh step of `up --refresh` pass the config recorded in the state by the last `up` (the
 * default provider's inputs), so after `pulumi config set --secret platform:apiToken <new>` they
 * still hold the old token (an `up` of a TypeScript program whose token the platform refused
 * records nothing: ../registration/token-gate). The provider process cannot read the current
 * stack config there (it gets no stack name, and `PULUMI_CONFIG` is empty), but it sees the CLI's
 * environment.
 *
 * A refused token (401) is never replaced silently: a 401 also answers a token that may not
 * reach the app, so using PLATFORM_API_TOKEN instead would act under another identity than the
 * one the stack names. Only when the user asks for it (PLATFORM_API_TOKEN_FALLBACK=1), and only
 * where the configured token is the one recorded in the state (no program ran in this process:
 * refresh, destroy), does PLATFORM_API_TOKEN replace it, with a warning saying so.
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { PlatformClient, type TokenSource } from "../../sdk";
import type { KindClientFamily } from "../kinds/registry";
import {
  CONFIG_KEYS,
  type CredentialsResolution,
  ENV_KEYS,
  given,
  resolveCredentials,
} from "../model/credentials-resolver";
import { warnDuringCall } from "./warnings";

/** The environment variable that allows PLATFORM_API_TOKEN to replace a refused recorded token. */
export const FALLBACK_ENV = "PLATFORM_API_TOKEN_FALLBACK";

/** The part of Pulumi's dynamic `ConfigureRequest` the provider uses. */
export interface ConfigureRequestLike {
  config: { get(key: string): string | undefined };
}

/** Whether the user allowed the fallback for this command. */
function fallbackAllowed(): boolean {
  return /^(1|true|yes)$/i.test(process.env[FALLBACK_ENV]?.trim() ?? "");
}

/** The warning shown when PLATFORM_API_TOKEN replaced the refused recorded token. */
export const FALLBACK_WARNING = `The platform refused the API token recorded in the stack's state (${CONFIG_KEYS.apiToken} of the last \`pulumi up\`); this command uses ${ENV_KEYS.apiToken} from the environment instead, as ${FALLBACK_ENV}=1 allows. Run \`pulumi up\` or \`pulumi refresh --run-program\` to record the stack config's current token`;

/**
 * The token of the provider process, asked by the sdk for every request: the configured token
 * (else PLATFORM_API_TOKEN), replaced by PLATFORM_API_TOKEN after a refusal only as the module
 * notes say. Remembers what was refused, for the advice.
 */
class ProviderTokens implements TokenSource {
  /** Set once check/create/update ran: `configure` then got the current stack config. */
  programRan = false;
  /** Set after the configured token was refused and PLATFORM_API_TOKEN replaced it. */
  private switched = false;
  /** Which tokens the platform refused (401) in this process. */
  readonly refusedOrigins = new Set<"config" | "env">();

  constructor(private readonly configured: Record<string, string | undefined>) {}

  /** The resolution of the configured values and the environment as they are now. */
  resolution() {
    return resolveCredentials({ config: (key) => this.configured[key], env: process.env });
  }

  /** Where the token in use comes from, if there is one. */
  origin(): "config" | "env" | undefined {
    const source = this.resolution().tokenSource;
    if (source === "config" && this.switched) return "env";
    return source === "config" || source === "env" ? source : undefined;
  }

  current(): string {
    const resolution = this.resolution();
    if (!resolution.ok) throw new Error(problemsText(resolution));
    const fallback = this.switched ? resolution.unusedEnvToken : undefined;
    return fallback ?? resolution.apiToken;
  }

  refused(token: string): boolean {
    const origin = this.origin();
    if (origin === undefined) return false;
    if (token !== this.current()) return true;
    this.refusedOrigins.add(origin);
    const resolution = this.resolution();
    const fallback = resolution.ok ? resolution.unusedEnvToken : undefined;
    if (origin !== "config" || this.programRan || !fallbackAllowed() || fallback === undefined) return false;
    this.switched = true;
    warnDuringCall(FALLBACK_WARNING, inDynamicHost);
    return true;
  }
}

/**
 * A warning the CLI shows from the dynamic host: the engine prints what a dynamic provider writes
 * to stderr as a message of the stack (observed with CLI 3.259: `pulumi.log.warn` in the provider
 * process has no engine to reach and writes there too). Synchronous, so it is out before the call
 * returns. The plugin sends it to the engine at the end of the call instead (./warnings).
 */
function inDynamicHost(message: string): void {
  console.warn(`warning: ${message}`);
}

/** What `configure` set, the process's tokens and one client per API URL. */
interface Session {
  configured: Record<string, string | undefined>;
  tokens: ProviderTokens;
  clients: Map<string, PlatformClient>;
}

function newSession(configured: Record<string, string | undefined>): Session {
  return { configured, tokens: new ProviderTokens(configured), clients: new Map() };
}

let session = newSession({});

/**
 * Called by the engine, before any other method, with the stack's configuration (secrets
 * decrypted): once per provider text in the process, so twice after an upgrade, with the same
 * values; then what the process learnt (a program ran, a token was refused) is kept.
 */
export async function configure(req: ConfigureRequestLike): Promise<void> {
  const configured = {
    [CONFIG_KEYS.apiToken]: req?.config?.get(CONFIG_KEYS.apiToken),
    [CONFIG_KEYS.apiUrl]: req?.config?.get(CONFIG_KEYS.apiUrl),
  };
  const same = Object.entries(configured).every(([k, v]) => given(session.configured[k]) === given(v));
  if (same) return;
  resetCredentials();
  session = newSession(configured);
}

/** Forgets configured credentials, cached clients and refused tokens (tests, `recover`). */
export function resetCredentials(): void {
  const old = session;
  session = newSession({});
  for (const client of old.clients.values()) void client.close();
}

/**
 * Records that the engine called `check`, `create` or `update` in this process: those only run
 * when the program ran, so `configure` got the current stack config (see the module notes).
 */
export function noteProgramOperation(): void {
  session.tokens.programRan = true;
}

/**
 * What is missing or wrong in the credentials; the token's value is never shown. No problem
 * names a property (the engine would print that property's value, and these are not inputs).
 */
export function credentialProblems(): { property: string; reason: string }[] {
  const resolution = session.tokens.resolution();
  return resolution.ok ? [] : resolution.problems.map((reason) => ({ property: "", reason }));
}

/**
 * The families of the platform client the provider calls: those the kinds' definitions name
 * (their `clients`, ../kinds/registry; a type only, so nothing here loads the kinds).
 */
export type ProviderClient = Pick<PlatformClient, KindClientFamily>;

/** The client of a {@link withClient} call, for the calls made inside it. */
const explicitClient = new AsyncLocalStorage<ProviderClient>();

/**
 * Runs `fn` with the providers' platform calls made through `client`: how a tool (`recover`)
 * uses the providers with credentials of its own, leaving the process's credential session (the
 * engine's `configure`) untouched.
 */
export function withClient<T>(client: ProviderClient, fn: () => Promise<T>): Promise<T> {
  return explicitClient.run(client, fn);
}

/**
 * The client for the resolved credentials; throws a message saying how to set what is missing.
 * Its token is asked per request (see {@link ProviderTokens}).
 */
export function platformClient(): ProviderClient {
  const explicit = explicitClient.getStore();
  if (explicit) return explicit;
  const resolution = session.tokens.resolution();
  if (!resolution.ok) throw new Error(problemsText(resolution));
  let client = session.clients.get(resolution.apiUrl);
  if (!client) {
    client = new PlatformClient({
      baseUrl: resolution.apiUrl,
      tokenSource: session.tokens,
      userAgent: "pulumi-platform-provider",
    });
    session.clients.set(resolution.apiUrl, client);
  }
  return client;
}

function problemsText(resolution: CredentialsResolution): string {
  return resolution.ok ? "" : resolution.problems.join("; ");
}

/**
 * What an `up` whose token the provider saw refused leaves behind: Pulumi records the provider's
 * config (the token included) before any resource is changed, and no provider code runs before
 * that (the dynamic host implements no `CheckConfig`; the plugin's gets no app to ask about), so
 * the refused token becomes the one `refresh` and `destroy` are configured with. A TypeScript
 * program's token gate (../registration/token-gate) stops an `up` before that when the platform
 * refuses the token for an app among its resources' inputs, so the provider never sees that case;
 * when it does see a refusal, the token is recorded, whatever the program's language. Said with
 * the fix of the config, so the next refresh is not a surprise.
 */
export const RECORDED_ANYWAY = `A \`pulumi up\` refused this way has recorded the token it ran with in the stack's state (a TypeScript program stops before that only when it can check the token with an app among its resources' inputs; a Pulumi YAML, Go or Python program cannot): until an \`up\` with a valid token succeeds, run \`pulumi refresh\` and \`pulumi destroy\` with \`--run-program\``;

/**
 * What to do about a refused token (401), said once: which token was refused and the fix that
 * works for the command at hand, without repeating a step the user has already taken.
 */
export function refusedTokenAdvice(): string {
  const { tokens } = session;
  const envToken = given(process.env[ENV_KEYS.apiToken]);
  if (tokens.origin() === "env" && !tokens.refusedOrigins.has("config")) {
    return `The platform refused the token in ${ENV_KEYS.apiToken}: set a valid one there, or in the stack config with \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\``;
  }
  const envToo = tokens.refusedOrigins.has("env") ? ` (${ENV_KEYS.apiToken} was refused too)` : "";
  if (tokens.programRan) {
    const envUnused =
      envToken && envToken !== given(session.configured[CONFIG_KEYS.apiToken])
        ? ` (${ENV_KEYS.apiToken} is used only when the stack config sets no token)`
        : "";
    return `The platform refused the API token of the stack config${envUnused}: set a valid one with \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\`. ${RECORDED_ANYWAY}`;
  }
  const envFix = tokens.refusedOrigins.has("env")
    ? ""
    : fallbackAllowed()
      ? `, or set ${ENV_KEYS.apiToken} to the new token for this command`
      : `, or set ${ENV_KEYS.apiToken} to the new token and ${FALLBACK_ENV}=1 for this command`;
  return (
    `The platform refused the API token recorded in the stack's state${envToo}: \`pulumi refresh\` and \`pulumi destroy\` configure the provider with the stack config the last \`pulumi up\` recorded (a failed one included, unless its TypeScript program stopped it for a refused token), not the current one. ` +
    `After changing ${CONFIG_KEYS.apiToken}, run \`pulumi refresh --run-program\` or \`pulumi destroy --run-program\` (or \`pulumi up\` first)${envFix}; if that fails too, the new token is not valid`
  );
}
