import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { platformTypeTokens } from "../../provider/policy";
import { platformMocks } from "../../provider/testing";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";

describe("pulumi-platform/testing's mocks fail as `pulumi preview` does", () => {
  const e = useE2eEmulator();

  it("the mocks' check failures are the lines the engine prints, values included", async () => {
    // A typo with a large number (Go prints it 1e+06), a negative size, a bad nested member.
    const volume = {
      app: "demo-app",
      name: "data",
      sizeGb: -1,
      compute: { cpuKind: "big" },
      sizeGB: 1_000_000,
    };
    const mocks = platformMocks({ onCheckFailure: "record" });
    await mocks.newResource({ type: platformTypeTokens.volume, name: "data", inputs: volume, custom: true });
    expect(mocks.checkFailures).toHaveLength(3);

    await withStack(
      {
        programDir: programPath("policy-guarded"),
        config: { ...platformConfig(e.emu), volume: JSON.stringify(volume) },
      },
      async ({ stack }) => {
        const events: EngineEvent[] = [];
        const failed = await stack.preview({ onEvent: (event) => events.push(event) }).then(
          () => false,
          () => true,
        );
        expect(failed).toBe(true);
        const printed = events
          .map((event) => event.diagnosticEvent)
          .filter((d) => d?.severity === "error" && d.urn)
          .map((d) => String(d?.message).trim());
        expect(printed.sort()).toEqual([...mocks.checkFailures].sort());
      },
    );
  });
});
