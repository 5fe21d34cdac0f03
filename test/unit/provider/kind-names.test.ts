import { describe, expect, it } from "vitest";
import { KIND_NAMES } from "../../../provider/kinds/names";
import { RESOURCE_KEYS, registry } from "../../../provider/kinds/registry";
import { kindNames } from "../../../provider/model/kind-names";

// The classes register with each kind's names (provider/kinds/kind-names.json, so that they load no
// declaration): the file must say what the registry does, or a new output or secret would be
// registered wrongly (a secret in plain text).
describe("provider/kinds/kind-names.json", () => {
  it("is the registry's names of every kind (else: npm run gen-sdks)", () => {
    expect(Object.keys(KIND_NAMES)).toEqual(RESOURCE_KEYS);
    for (const key of RESOURCE_KEYS) expect(KIND_NAMES[key], key).toEqual(kindNames(registry[key]));
  });

  it("names the secrets the declarations mark", () => {
    expect(KIND_NAMES.customCertificate.secretInputs).toEqual(["privateKey"]);
    expect(KIND_NAMES.postgresPasswordRotation.secrets).toContain("password");
  });
});
