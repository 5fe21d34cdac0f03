/**
 * A kind's names (./kind's `KindNames`) derived from its row, which `npm run gen-sdks` writes into
 * ../kinds/kind-names.json. Apart from ./kind so that what registers a class loads no declaration.
 * @module
 */
import { outputNames, secretNames } from "./declaration";
import type { KindModel, KindNames } from "./kind";

/** The names of a kind, from its row. */
export function kindNames(row: KindModel): KindNames {
  const secrets = secretNames(row.declaration);
  return {
    key: row.key,
    type: row.type,
    className: row.declaration.type,
    ...(row.component === undefined ? {} : { component: row.component }),
    outputs: outputNames(row.declaration),
    secrets,
    secretInputs: secrets.filter((name) => name in row.declaration.inputs),
  };
}
