/**
 * The plugin's provider methods on plain objects: each resolves the resource kind from the URN's
 * type token and calls the SAME runtime provider the dynamic resources call (../kinds/runtimes),
 * adding only what the provider protocol carries and the dynamic host does not: secrets as
 * values (./secrets), a detailed diff, and reading a resource by an import id. The gRPC
 * translation is ./server.
 * @module
 */

import { saveCompileCache } from "../compile-cache";
import { keyOfPluginToken, type ResourceKey, registry } from "../kinds/registry";
import { stubTexts } from "../kinds/stubs";
import { type DiffOutcome, REPLACE_ON_CHANGES } from "../model/change-plan";
import { type ResourceDeclaration, secretNames } from "../model/declaration";
import { lifetimeWarnings } from "../model/kind-rules";
import type { EngineProps, EngineProvider } from "../runtime/define";
import { type WarningSink, warn } from "../runtime/warnings";
import { aboutResource } from "./engine-log";
import { unwrapSecrets, wrapSecrets } from "./secrets";

type Runtime = typeof import("../kinds/runtime-entry");

/** The runtime, loaded at `configure` or the first resource call (`get-schema` never loads it). */
let runtime: Runtime | undefined;
export function loadRuntime(): Runtime {
  if (!runtime) {
    runtime = require("../kinds/runtime-entry") as Runtime;
    setImmediate(() => saveCompileCache("runtime"));
  }
  return runtime;
}

/** The resource kind of a URN (`urn:pulumi:<stack>::<project>::[parent$]platform:index:<Type>::<name>`). */
export function kindOfUrn(urn: string): ResourceKey {
  const qualified = urn.split("::")[2] ?? "";
  const token = qualified.split("$").at(-1) ?? "";
  const key = keyOfPluginToken(token);
  if (!key) throw new Error(`the platform provider has no resource type ${token || urn}`);
  return key;
}

function declarationOf(key: ResourceKey): ResourceDeclaration {
  return registry[key].declaration;
}

/** Properties the engine or an older door keeps beside the inputs (`__provider`, `__defaults`). */
function withoutEngineKeys(props: EngineProps): EngineProps {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !k.startsWith("__")));
}

/** One property's change, as the protocol's `detailedDiff` names it. */
export type PropertyChange =
  | "add"
  | "add-replace"
  | "update"
  | "update-replace"
  | "delete"
  | "delete-replace";

/** The diff the plugin answers: the runtime's, with the changed inputs named. */
export interface DetailedDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  detailedDiff: Record<string, PropertyChange>;
}

const given = (value: unknown) => value !== undefined && value !== null;

/**
 * The protocol's answer, derived from the kind's one answer (`outcome.properties`, see
 * ../model/change-plan) and nothing else: each input whose change does something (update, replace,
 * record) is named, as an add, an update or a delete of the program's previous value (`before`:
 * the old inputs, else the old outputs); an input whose change is only warned about is not (the up
 * does nothing with it).
 */
export function detailedDiff(outcome: DiffOutcome, before: EngineProps, news: EngineProps): DetailedDiff {
  const detailed: Record<string, PropertyChange> = {};
  for (const [key, effect] of Object.entries(outcome.properties)) {
    if (effect === "warn") continue;
    const kind = !given(before[key]) ? "add" : !given(news[key]) ? "delete" : "update";
    detailed[key] = effect === "replace" ? `${kind}-replace` : kind;
  }
  const { changes, replaces, deleteBeforeReplace } = outcome;
  return { changes, replaces, deleteBeforeReplace, detailedDiff: detailed };
}

/**
 * What an import id (`<app>/<id>`) means to a kind (its row's import rule): the resource id and
 * the state its `read` needs. A kind that cannot be imported is refused, saying what to do.
 */
export function importState(key: ResourceKey, importId: string): { id: string; state: EngineProps } {
  const rule = registry[key].importing;
  const slash = importId.indexOf("/");
  const app = importId.slice(0, slash);
  const id = importId.slice(slash + 1);
  if ("refusal" in rule) throw new Error(rule.refusal(id));
  if (slash <= 0 || id === "") {
    throw new Error(
      `import ids of ${registry[key].declaration.type} are <app>/<${rule.idName}> (got ${JSON.stringify(importId)})`,
    );
  }
  return { id, state: rule.state(app, id) };
}

/**
 * Outputs with the dynamic door's provider text (`__provider`, ../kinds/stubs), as the dynamic host
 * records it: a stack moved back to the dynamic classes then refreshes and destroys with the
 * outputs the plugin wrote (the dynamic host reads a resource's provider from its outputs). A gone
 * resource (blank id, no outputs) gets none.
 */
function withDynamicProvider(key: ResourceKey, outs: EngineProps): EngineProps {
  return Object.keys(outs).length === 0 ? outs : { ...outs, __provider: stubTexts[key] };
}

/** The previous inputs or outputs of a request, plain, with the names that were secret. */
function plainOf(props: EngineProps) {
  return unwrapSecrets(props);
}

/** Secret names of a kind plus those that arrived secret. */
function secretsOf(key: ResourceKey, ...arrived: Set<string>[]): Set<string> {
  return new Set([...secretNames(declarationOf(key)), ...arrived.flatMap((s) => [...s])]);
}

/**
 * The day-2 warnings the dynamic classes print from the program, here from the resource's
 * recorded (or just created) outputs `olds` and the program's inputs `news`.
 */
async function warnAboutLifetime(
  call: Call,
  id: string,
  olds: EngineProps,
  news: EngineProps,
): Promise<void> {
  for (const warning of lifetimeWarnings(registry[call.key].lifetime, id, olds, news, new Date())) {
    await warn(warning, (text) => console.warn(`warning: ${text}`), call.about);
  }
}

/** A call about the resource `urn`: its kind, and its kind's runtime with the warnings sent as that resource's (./engine-log). */
interface Call {
  key: ResourceKey;
  about: WarningSink | undefined;
  provider: EngineProvider;
}

function callAbout(urn: string): Call {
  const key = kindOfUrn(urn);
  const about = aboutResource(urn);
  const provider = loadRuntime()[key];
  return { key, about, provider: about ? provider.about(about) : provider };
}

/**
 * `methods`, each saving the code cache after its first answer in this process (../compile-cache):
 * the next start then finds what that method's path compiled (the platform client, undici, the
 * response schemas) already compiled.
 */
function savingCodeAtFirstAnswer<M extends Record<string, (...args: never[]) => Promise<unknown>>>(
  methods: M,
): M {
  const answered = new Set<string>();
  const wrapped: Record<string, (...args: never[]) => Promise<unknown>> = {};
  for (const [name, method] of Object.entries(methods)) {
    wrapped[name] = async (...args) => {
      const result = await method(...args);
      // Before the answer goes out: a command may end with it (and the engine then kills the plugin).
      // Costly only while the cache lacks this stage: at most once per method and cache.
      if (!answered.has(name)) {
        answered.add(name);
        saveCompileCache(name);
      }
      return result;
    };
  }
  return wrapped as M;
}

/** The plugin's resource methods, on the protocol's plain objects (secrets as values). */
export const resourceProvider = savingCodeAtFirstAnswer({
  async check(urn: string, olds: EngineProps, news: EngineProps) {
    const call = callAbout(urn);
    const o = plainOf(olds);
    const n = plainOf(news);
    // The program's replaceOnChanges, which the classes pass along, goes on to diff (../model/change-plan).
    const option = n.plain[REPLACE_ON_CHANGES];
    const carried = option === undefined ? {} : { [REPLACE_ON_CHANGES]: option };
    const result = await call.provider.check(withoutEngineKeys(o.plain), {
      ...withoutEngineKeys(n.plain),
      ...carried,
    });
    return { inputs: wrapSecrets(result.inputs, secretsOf(call.key, n.secrets)), failures: result.failures };
  },

  /** `oldInputs`: the engine's old inputs (empty from an engine that sends none). */
  async diff(
    urn: string,
    id: string,
    olds: EngineProps,
    news: EngineProps,
    oldInputs: EngineProps = {},
  ): Promise<DetailedDiff> {
    const call = callAbout(urn);
    const o = plainOf(olds).plain;
    const n = plainOf(news).plain;
    const i = Object.keys(oldInputs).length === 0 ? undefined : withoutEngineKeys(plainOf(oldInputs).plain);
    const outcome = await call.provider.diff(id, o, n, i);
    await warnAboutLifetime(call, id, o, n);
    return detailedDiff(outcome, i ?? o, n);
  },

  async create(urn: string, inputs: EngineProps) {
    const call = callAbout(urn);
    const { key } = call;
    const n = plainOf(inputs);
    const result = await call.provider.create(n.plain);
    // A new resource has no diff: its warnings (a chain that expires soon) come from what it became.
    await warnAboutLifetime(call, result.id, result.outs, n.plain);
    return {
      id: result.id,
      outs: wrapSecrets(withDynamicProvider(key, result.outs), secretsOf(key, n.secrets)),
    };
  },

  /** `props` empty: an import of `id` (see {@link importState}). A blank id: the resource is gone. */
  async read(urn: string, id: string, props: EngineProps, inputs: EngineProps) {
    const { key, provider } = callAbout(urn);
    const p = plainOf(props);
    const i = plainOf(inputs);
    const target = Object.keys(p.plain).length === 0 ? importState(key, id) : { id, state: p.plain };
    const result = await provider.read(target.id, target.state);
    const secrets = secretsOf(key, p.secrets, i.secrets);
    return {
      id: result.id,
      props: wrapSecrets(withDynamicProvider(key, result.props), secrets),
      inputs: result.inputs === undefined ? undefined : wrapSecrets(result.inputs, secrets),
    };
  },

  async update(urn: string, id: string, olds: EngineProps, news: EngineProps) {
    const { key, provider } = callAbout(urn);
    const o = plainOf(olds);
    const n = plainOf(news);
    const result = await provider.update(id, o.plain, n.plain);
    return { outs: wrapSecrets(withDynamicProvider(key, result.outs), secretsOf(key, o.secrets, n.secrets)) };
  },

  async delete(urn: string, id: string, props: EngineProps) {
    const { provider } = callAbout(urn);
    await provider.delete(id, plainOf(props).plain);
  },
});
