import { describe, it } from "vitest";
import { useE2eEmulator } from "../support/e2e";
import { UNKNOWN_OUTCOMES, unknownOutcomeScenario } from "../support/unknown-outcome";

// The platform acts, then its answer cannot be trusted (a 5xx or a dropped connection), on every
// route that changes something (test/support/unknown-outcome; ./unknown-outcome-plugin.test.ts
// runs the same through the provider plugin).

const e = useE2eEmulator();

describe("an answer that cannot be trusted is an unknown outcome (dynamic classes)", () => {
  it.each(UNKNOWN_OUTCOMES)(
    "%s after the platform acted, on every create, update and delete: one of each, owned; a plain rerun converges",
    async (outcome) => {
      await unknownOutcomeScenario(e, "dynamic", outcome);
    },
  );
});
