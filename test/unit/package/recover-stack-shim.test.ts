import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as ops from "../../../ops/recover-stack";
import type * as root from "../../../provider/program/recover-stack";

// The package root's deprecated `recoverStack` reaches `pulumi-platform/ops` by the package's own
// name (no import of ops/ from provider/), and restates its types.
describe("the package root's deprecated recoverStack", () => {
  it("takes and returns exactly what pulumi-platform/ops' recoverStack does (checked by the type check)", () => {
    expectTypeOf<root.RecoverStackOptions>().toEqualTypeOf<ops.RecoverStackOptions>();
    expectTypeOf<root.RecoverStackResult>().toEqualTypeOf<ops.RecoverStackResult>();
  });

  it("runs ops' recoverStack from the built package", async () => {
    const built = require(path.resolve(__dirname, "../../../dist/provider")) as typeof import("../../../provider");
    // A stack whose workspace ops reads first: reaching it proves the call landed in ops.
    const stack = {
      get workspace(): never {
        throw new Error("ops read the stack's workspace");
      },
    } as unknown as Stack;
    await expect(built.recoverStack(stack)).rejects.toThrow("ops read the stack's workspace");
  });
});
