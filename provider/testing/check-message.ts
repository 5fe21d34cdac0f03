/**
 * The line `pulumi preview` prints for a check failure, shared by the TypeScript mocks (./mocks)
 * and the plugin's answer to the Python and Go mocks (./answer), which loads no @pulumi/pulumi.
 * @module
 */
import type { ValidationFailure } from "../model/validation/common";

/** What a preview prints for a check failure (the engine's wording; values as Go prints them). */
export function checkFailureMessage(
  type: string,
  name: string,
  inputs: Record<string, unknown>,
  failure: ValidationFailure,
): string {
  if (failure.property === "") return `${type} resource '${name}' has a problem: ${failure.reason}`;
  return `${type} resource '${name}': property ${failure.property} value {${goValue(inputs[failure.property])}} has a problem: ${failure.reason}`;
}

/** A value as the engine's `%v` prints a property value. */
function goValue(value: unknown): string {
  if (value === undefined || value === null) return "<nil>";
  if (Array.isArray(value)) return `[${value.map((v) => `{${goValue(v)}}`).join(" ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `map[${entries.map(([k, v]) => `${k}:{${goValue(v)}}`).join(" ")}]`;
  }
  if (typeof value === "number") return goFloat(value);
  return String(value);
}

/** A number as Go's `%v` prints a float64: shortest digits, exponent form from 1e+06 and below 1e-04. */
function goFloat(n: number): string {
  if (!Number.isFinite(n) || n === 0) return String(n);
  const [mantissa, exponent] = n.toExponential().split("e") as [string, string];
  const exp = Number(exponent);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}
