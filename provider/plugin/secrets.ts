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

function unwrapDeep(value: unknown): { value: unknown; secret: boolean } {
  if (isSecretValue(value)) return { value: unwrapDeep(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(unwrapDeep);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (typeof value === "object" && value !== null) {
    let secret = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const inner = unwrapDeep(v);
      out[k] = inner.value;
      secret ||= inner.secret;
    }
    return { value: out, secret };
  }
  return { value, secret: false };
}

/** Plain properties, and the names of those that held a secret anywhere inside. */
export function unwrapSecrets(props: Record<string, unknown>): {
  plain: Record<string, unknown>;
  secrets: Set<string>;
} {
  const plain: Record<string, unknown> = {};
  const secrets = new Set<string>();
  for (const [k, v] of Object.entries(props)) {
    const inner = unwrapDeep(v);
    plain[k] = inner.value;
    if (inner.secret) secrets.add(k);
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
