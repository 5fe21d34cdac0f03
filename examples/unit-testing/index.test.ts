import * as pulumi from "@pulumi/pulumi";
import { platformMocks } from "pulumi-platform/testing";
import { describe, expect, it, vi } from "vitest";

/** The value of an output, as a test reads it. */
function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

// The stack reference belongs to Pulumi itself, not to pulumi-platform: our own mocks answer it.
const sharedStackMocks: pulumi.runtime.Mocks = {
  newResource: (args) =>
    args.type === "pulumi:pulumi:StackReference"
      ? { id: args.inputs.name, state: { outputs: { app: "shop" } } }
      : { id: `${args.name}_id`, state: args.inputs },
  call: (args) => args.inputs,
};

/** Runs the program (index.ts) under `mocks` with `config`, as `pulumi up` would. */
async function program(
  config: Record<string, string> = {},
  mocks = platformMocks({ others: sharedStackMocks }),
) {
  vi.resetModules();
  await pulumi.runtime.setMocks(mocks, "unit-testing", "test", false);
  pulumi.runtime.setAllConfig(
    Object.fromEntries(Object.entries(config).map(([k, v]) => [`unit-testing:${k}`, v])),
  );
  return import("./index.js");
}

describe("the program under pulumi-platform's mocks", () => {
  it("the volume gets an id in the platform's shape, a state and the app's region", async () => {
    const p = await program();
    expect(await resolved(p.volumeId)).toMatch(/^vol_[0-9a-z]{16}$/);
    expect(await resolved(p.volumeState)).toBe("created");
    expect(await resolved(p.volumeRegion)).toBe("iad");
  });

  it("the certificate names the DNS record to create for the ACME challenge", async () => {
    const p = await program({ hostname: "shop.example.com" });
    expect(await resolved(p.acmeChallengeRecord)).toMatchObject({
      type: "CNAME",
      name: "_acme-challenge.shop.example.com",
    });
  });

  it("the rotated password is a secret", async () => {
    const p = await program();
    expect(await pulumi.isSecret(p.dbPassword)).toBe(true);
    expect(await resolved(p.dbPassword)).toHaveLength(32);
    expect(await resolved(p.dbUser)).toBe("app_user");
  });

  it("a bad input fails with the message `pulumi preview` prints", async () => {
    // By default the message fails the run as one unhandled rejection (PlatformCheckError);
    // "record" lets a test expect the failure instead.
    const mocks = platformMocks({ others: sharedStackMocks, onCheckFailure: "record" });
    const p = await program({ sizeGb: "-1" }, mocks);
    await resolved(p.volumeId);
    expect(mocks.checkFailures).toEqual([
      "pulumi-nodejs:dynamic/platform:Volume resource 'data': property sizeGb value {-1} has a problem: sizeGb must be a whole number from 1 to 500000 GB (got -1)",
    ]);
  });
});
