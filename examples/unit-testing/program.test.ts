// program.test.ts (vitest; the same works with mocha or jest)
import * as pulumi from "@pulumi/pulumi";
import { platformMocks } from "pulumi-platform/testing";
import { expect, it } from "vitest";

const resolved = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));

// What is not pulumi-platform's goes to your own mocks: here the program's StackReference.
const others: pulumi.runtime.Mocks = {
  newResource: (args) => ({ id: `${args.name}_id`, state: { ...args.inputs, outputs: { app: "shop" } } }),
  call: (args) => args.inputs,
};

it("the program's volume and its password", async () => {
  pulumi.runtime.setMocks(platformMocks({ others }), "project", "test", false);
  const program = await import("./index.js"); // runs the program's resources under the mocks
  expect(await resolved(program.volumeId)).toMatch(/^vol_/);
  expect(await pulumi.isSecret(program.dbPassword)).toBe(true);
});
