import { describe, expect, it } from "vitest";
import { step } from "../../support/step";

describe("step", () => {
  it("answers what the step answers", async () => {
    await expect(step("up", async () => 42)).resolves.toBe(42);
  });

  it("rethrows the same error with the step's name in front", async () => {
    const original = new TypeError("boom");
    const err = await step("refresh", async () => {
      throw original;
    }).catch((e: unknown) => e);
    expect(err).toBe(original);
    expect((err as Error).message).toBe('step "refresh": boom');
  });

  it("names the step for a thrown non-Error too", async () => {
    await expect(
      step("destroy", async () => {
        throw "gone";
      }),
    ).rejects.toThrow(/^step "destroy": gone$/);
  });

  it("names the step of a failed assertion", async () => {
    await expect(step("grow", async () => expect(1).toBe(2))).rejects.toThrow(
      /^step "grow": expected 1 to be 2/,
    );
  });
});
