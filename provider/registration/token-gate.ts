/**
 * The token gate of a TypeScript program (both doors' classes, ./kind-resource): in a real
 * `pulumi up` (not a preview, not under the testing mocks), the program asks the platform once,
 * before its first resource is registered, whether it takes the token the provider will use. A
 * refused token (401) fails every registration of the program with one error, so the engine never
 * runs the provider step, which would record that token in the state (the default provider's
 * inputs) for `pulumi refresh` and `pulumi destroy` (see ../runtime/credentials).
 *
 * The ask is one read scoped by an app among the first resources' inputs (the kind's own family:
 * an app's volume list, or one entry of its certificate list); the token and URL are resolved as
 * the provider resolves them (the stack config, else the environment). Any other answer (2xx, 404
 * for an app not made yet, a network error, a 5xx), no credentials, or no app among the inputs
 * lets registration go on unchanged: the provider's own calls then report what is wrong.
 *
 * A registration is held through its `dependsOn` option, which Pulumi's SDK awaits before it sends
 * the registration: a promise of the program's own `dependsOn`, unchanged, once the gate passes.
 * The sdk is loaded inside the gate only (a preview never loads it).
 * @module
 */
import * as pulumi from "@pulumi/pulumi";
import { CONFIG_KEYS, ENV_KEYS, given, resolveCredentials } from "../model/credentials-resolver";
import type { KindNames, ProbeFamily } from "../model/kind";
import { engineMonitor } from "../pulumi-sdk/program";

/** The read that asks about a kind's app: the family of requests the kind itself makes. */
export type { ProbeFamily };

/** What the gate reads credentials from: the program's stack config and its environment. */
export interface GateSources {
  config(key: string): string | undefined;
  env: Record<string, string | undefined>;
}

/** A resource's options, of which the gate sets only `dependsOn` (and reads `provider`). */
type WithDependsOn = { dependsOn?: pulumi.CustomResourceOptions["dependsOn"]; provider?: unknown };

/** An app a resource named, and the read that asks about it. */
interface Candidate {
  family: ProbeFamily;
  app: Promise<unknown>;
}

/**
 * Where a program runs a real `pulumi up` (or another command that registers resources: `refresh
 * --run-program`): the gate's sources there, else undefined (a preview, the testing mocks, no
 * engine at all).
 */
export function engineSources(): GateSources | undefined {
  const { runtime } = pulumi;
  if (runtime.isDryRun()) return undefined;
  // Not under `pulumi.runtime.setMocks`' MockMonitor (../pulumi-sdk/program).
  if (!engineMonitor(runtime.getMonitor())) return undefined;
  return { config: (key) => runtime.getConfig(key), env: process.env };
}

/**
 * The message of a refused token: which token, the platform's refusal, what the stopped program
 * left (nothing) and the fix. Never the token.
 */
export function refusedAtGateMessage(origin: "config" | "env", refusal: string, envUnused: boolean): string {
  const kept =
    "Nothing was changed: the program stopped before it registered any resource, so the stack keeps the token of its last successful `pulumi up`";
  if (origin === "env") {
    return `The platform refused the API token in ${ENV_KEYS.apiToken} (the stack config sets no ${CONFIG_KEYS.apiToken}): ${refusal}. ${kept}. Set a valid token there, or in the stack config with \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\`, and run \`pulumi up\` again`;
  }
  const unused = envUnused ? ` (${ENV_KEYS.apiToken} is used only when the stack config sets no token)` : "";
  return `The platform refused the API token of the stack config (${CONFIG_KEYS.apiToken})${unused}: ${refusal}. ${kept}. Set a valid one with \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\` and run \`pulumi up\` again`;
}

/** The value of an input (a plain value, a promise or an Output), once known. */
function knownValue(input: unknown): Promise<unknown> {
  if (!pulumi.Output.isInstance(input)) return Promise.resolve(input);
  return new Promise((resolve) => {
    input.apply((value) => {
      resolve(value);
      return value;
    });
  });
}

/**
 * How long the gate waits for an app that is an Output of another resource: past it, the program
 * goes on without asking (an app computed from a resource the gate holds would never be known).
 */
export const APP_WAIT_MS = 60_000;

/** The first candidate whose app turns out to be a name, or undefined once none does. */
function firstApp(candidates: Candidate[]): Promise<{ family: ProbeFamily; app: string } | undefined> {
  return new Promise((done) => {
    let pending = candidates.length;
    const timer = setTimeout(() => resolve(undefined), APP_WAIT_MS);
    const resolve = (found: { family: ProbeFamily; app: string } | undefined) => {
      clearTimeout(timer);
      done(found);
    };
    if (pending === 0) resolve(undefined);
    for (const { family, app } of candidates) {
      app
        .then(
          (value) => {
            const name = given(value);
            if (name !== undefined) resolve({ family, app: name });
          },
          () => undefined,
        )
        .finally(() => {
          pending--;
          if (pending === 0) resolve(undefined);
        });
    }
  });
}

/**
 * One program run's gate: the first resource it holds starts the decision, which takes the apps of
 * the resources constructed until the program's current turn ends, asks about the first one known,
 * and then lets every held registration go on, or fails each with the same error.
 */
export class TokenGate {
  private decision: Promise<void> | undefined;
  private readonly candidates: Candidate[] = [];
  private collecting = true;

  constructor(private readonly sources: GateSources) {}

  /**
   * `opts` with its `dependsOn` held until the gate decides: the program's own `dependsOn` then,
   * unchanged; or the gate's error.
   */
  hold<O extends WithDependsOn>(kind: KindNames, args: object, opts: O | undefined): O {
    const family = kind.probe;
    const app = (args as { app?: unknown }).app;
    // A resource given a provider of its own is not served with the stack config's token.
    const byDefaultProvider = opts?.provider === undefined;
    if (this.collecting && family !== undefined && app !== undefined && byDefaultProvider) {
      this.candidates.push({ family, app: knownValue(app) });
    }
    this.decision ??= this.decide();
    const own = opts?.dependsOn;
    const dependsOn = this.decision.then(() => (own === undefined ? [] : [own]));
    return { ...opts, dependsOn } as O;
  }

  private decide(): Promise<void> {
    const decision = (async () => {
      // The resources the program constructs in the same turn are the candidates.
      await new Promise((resolve) => setImmediate(resolve));
      this.collecting = false;
      const first = await firstApp(this.candidates);
      if (first === undefined) return;
      const creds = resolveCredentials({ config: this.sources.config, env: this.sources.env });
      if (!creds.ok || (creds.tokenSource !== "config" && creds.tokenSource !== "env")) return;
      const refusal = await probe(creds.apiUrl, creds.apiToken, first.family, first.app);
      if (refusal === undefined) return;
      const message = refusedAtGateMessage(creds.tokenSource, refusal, creds.unusedEnvToken !== undefined);
      const refused = new pulumi.RunError(message);
      // Its stack is its message: the registrations it fails end after the program's main module
      // returned, where Pulumi's Node runtime prints an unhandled error's `stack` (once per error
      // object), and this package's frames say nothing to the user.
      refused.stack = message;
      throw refused;
    })();
    // Every held registration reports the rejection; the decision itself is never left unhandled.
    decision.catch(() => undefined);
    return decision;
  }
}

/**
 * Asks the platform about `app` with `token`: the refusal when it answered 401, else undefined
 * (whatever else happened). Retried once at most: an unanswered ask lets the program go on.
 */
async function probe(
  apiUrl: string,
  token: string,
  family: ProbeFamily,
  app: string,
): Promise<string | undefined> {
  let sdk: typeof import("../../sdk") | undefined;
  let client: import("../../sdk").PlatformClient | undefined;
  try {
    sdk = await import("../../sdk");
    client = new sdk.PlatformClient({
      baseUrl: apiUrl,
      token,
      userAgent: "pulumi-platform-program",
      maxRetries: 1,
      timeoutMs: 15_000,
      deadlineMs: 30_000,
    });
    if (family === "volumes") await client.volumes.list(app);
    else await client.certificates.list(app, { limit: 1 });
    return undefined;
  } catch (err) {
    if (!(sdk && err instanceof sdk.ApiError && err.status === 401)) return undefined;
    return `${err.method} ${err.path} failed with 401: ${err.platformMessage || "(no message)"}`;
  } finally {
    await client?.close();
  }
}

/** Each program run's gate, by its stack resource (an Automation API process runs several). */
const gates = new WeakMap<object, TokenGate>();

/**
 * `opts` of a resource of `kind`, held by the program run's token gate in a real `pulumi up`;
 * elsewhere (preview, the testing mocks, no engine) `opts` itself.
 */
export function heldForToken<O extends WithDependsOn>(
  kind: KindNames,
  args: object,
  opts: O | undefined,
): O | undefined {
  const sources = engineSources();
  const stack = sources && pulumi.runtime.getStackResource();
  if (sources === undefined || stack === undefined) return opts;
  let gate = gates.get(stack);
  if (gate === undefined) {
    gate = new TokenGate(sources);
    gates.set(stack, gate);
  }
  return gate.hold(kind, args, opts);
}
