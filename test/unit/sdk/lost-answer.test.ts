import { describe, expect, it } from "vitest";
import { AmbiguousRequestError, ApiError, RETRY_POLICY, sendLookingAfterLoss } from "../../../sdk/index";

const lost = () => new AmbiguousRequestError("POST", "/v1/x", new Error("socket hang up"));

describe("sendLookingAfterLoss: look, then send again", () => {
  it("takes what the look finds after a lost answer, without sending again", async () => {
    let sends = 0;
    const result = await sendLookingAfterLoss(
      async () => {
        sends++;
        throw lost();
      },
      async () => "landed",
    );
    expect({ result, sends }).toEqual({ result: "landed", sends: 1 });
  });

  it("sends again when the look finds nothing, and returns the answer that arrives", async () => {
    const answers: (() => string)[] = [
      () => {
        throw lost();
      },
      () => "created",
    ];
    let looks = 0;
    const result = await sendLookingAfterLoss(
      async () => (answers.shift() as () => string)(),
      async () => {
        looks++;
        return undefined;
      },
    );
    expect({ result, looks }).toEqual({ result: "created", looks: 1 });
  });

  it("stops after the policy's attempts with the last lost answer", async () => {
    let sends = 0;
    await expect(
      sendLookingAfterLoss(
        async () => {
          sends++;
          throw lost();
        },
        async () => undefined,
      ),
    ).rejects.toBeInstanceOf(AmbiguousRequestError);
    expect(sends).toBe(RETRY_POLICY.lostAnswerAttempts);
  });

  it("throws any other failure at once, without looking", async () => {
    let looks = 0;
    const refused = new ApiError({ status: 422, platformMessage: "bad", method: "POST", path: "/v1/x" });
    await expect(
      sendLookingAfterLoss(
        async () => {
          throw refused;
        },
        async () => {
          looks++;
          return "x";
        },
      ),
    ).rejects.toBe(refused);
    expect(looks).toBe(0);
  });
});
