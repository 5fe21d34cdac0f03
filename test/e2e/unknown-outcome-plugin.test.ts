import { describe, it } from "vitest";
import { useE2eEmulator } from "../support/e2e";
import { UNKNOWN_OUTCOMES, unknownOutcomeScenario } from "../support/unknown-outcome";

// The platform acts, then its answer cannot be trusted (a 5xx or a dropped connection), on every
// route that changes something (test/support/unknown-outcome), through the provider plugin (./unknown-outcome.test.ts
// is the dynamic classes).

const e = useE2eEmulator();

describe("an answer that cannot be trusted is an unknown outcome (provider plugin)", () => {
  it.each(UNKNOWN_OUTCOMES)(
    "%s after the platform acted, on every create, update and delete: one of each, owned; a plain rerun converges",
    async (outcome) => {
      await unknownOutcomeScenario(e, "plugin", outcome);
    },
  );
});
