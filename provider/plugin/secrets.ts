/**
 * Pulumi's secret values on the wire (`acceptSecrets`): an object carrying the secret signature
 * and the value. The runtime works on plain values; the plugin unwraps what arrives, remembering
 * which top-level properties held a secret, and wraps them (and the declared secrets) on the way
 * back, so a secret stays one whichever language the program is written in.
 * @module
 */

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isSecretValue(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/** Whether a secret value is anywhere inside `value`. */
function holdsSecret(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (isSecretValue(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  for (const k in value) if (holdsSecret((value as Record<string, unknown>)[k])) return true;
  return false;
}

/** `value` with every secret inside replaced by what it holds; untouched (not copied) without one. */
function withoutSecrets(value: unknown): unknown {
  if (!holdsSecret(value)) return value;
  if (isSecretValue(value)) return withoutSecrets(value.value);
  if (Array.isArray(value)) return value.map(withoutSecrets);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = withoutSecrets(v);
  return out;
}

/**
 * Plain properties, and the names of those that held a secret anywhere inside. Most properties
 * hold none and are passed on as they are: every call of the engine unwraps its inputs and state.
 */
export function unwrapSecrets(props: Record<string, unknown>): {
  plain: Record<string, unknown>;
  secrets: Set<string>;
} {
  const plain: Record<string, unknown> = {};
  const secrets = new Set<string>();
  for (const k in props) {
    const v = props[k];
    if (holdsSecret(v)) {
      secrets.add(k);
      plain[k] = withoutSecrets(v);
    } else plain[k] = v;
  }
  return { plain, secrets };
}

/** The value as a secret. */
export function secretValue(value: unknown): Record<string, unknown> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** `props` with each property named in `secrets` (and present) wrapped as a secret. */
export function wrapSecrets(
  props: Record<string, unknown>,
  secrets: Iterable<string>,
): Record<string, unknown> {
  const out = { ...props };
  for (const name of secrets) {
    if (out[name] !== undefined && out[name] !== null) out[name] = secretValue(out[name]);
  }
  return out;
}
