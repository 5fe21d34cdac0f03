import { describe, it } from "vitest";
import { useE2eEmulator } from "../support/e2e";
import { reliabilityScenario } from "../support/reliability";

// The reliability scenario (test/support/reliability) through the provider plugin: the same
// program with the classes of `pulumi-platform/plugin`, so every request goes through
// `pulumi-resource-platform` (lost answers, 429/503 with Retry-After, dropped connections).

const e = useE2eEmulator();

describe("reliability under faults on every route, through the provider plugin", () => {
  it("about 25 mixed resources converge in at most two plain `up` runs: 0 duplicates, 0 orphans", async () => {
    await reliabilityScenario(e, "plugin");
  });
});
