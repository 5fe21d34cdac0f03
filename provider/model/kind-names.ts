/**
 * A kind's names (./kind's `KindNames`) derived from its row, which `npm run gen-sdks` writes into
 * ../kinds/kind-names.json. Apart from ./kind so that what registers a class loads no declaration.
 * @module
 */
import { outputNames, secretNames } from "./declaration";
import type { KindModel, KindNames, ProbeFamily } from "./kind";

const PROBE_FAMILIES: readonly ProbeFamily[] = ["volumes", "certificates"];

/**
 * The names of a kind, from its row; `clients`: the client families its runtime calls (its
 * definition's), of which the first that can read an app is the token gate's probe.
 */
export function kindNames(row: KindModel & { readonly clients?: readonly string[] }): KindNames {
  const secrets = secretNames(row.declaration);
  const probe =
    "app" in row.declaration.inputs
      ? PROBE_FAMILIES.find((family) => row.clients?.includes(family))
      : undefined;
  return {
    key: row.key,
    type: row.type,
    className: row.declaration.type,
    ...(row.component === undefined ? {} : { component: row.component }),
    outputs: outputNames(row.declaration),
    secrets,
    secretInputs: secrets.filter((name) => name in row.declaration.inputs),
    ...(probe === undefined ? {} : { probe }),
  };
}
