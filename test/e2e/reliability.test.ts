import { describe, it } from "vitest";
import { useE2eEmulator } from "../support/e2e";
import { reliabilityScenario } from "../support/reliability";

// A deploy pipeline meets a platform that throttles, fails and drops answers (the scenario is
// test/support/reliability; ./reliability-plugin.test.ts runs it through the provider plugin).

const e = useE2eEmulator();

describe("reliability under faults on every route", () => {
  it("about 25 mixed resources converge in at most two plain `up` runs: 0 duplicates, 0 orphans", async () => {
    await reliabilityScenario(e, "dynamic");
  });
});
