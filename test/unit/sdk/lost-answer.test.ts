import { describe, expect, it } from "vitest";
import {
  AmbiguousRequestError,
  ApiError,
  earliestMadeAt,
  lookVerdict,
  RETRY_POLICY,
  sendLookingAfterLoss,
} from "../../../sdk/index";
import { PlatformClock } from "../../../sdk/platform-clock";

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

describe("lookVerdict: what a look after a lost answer takes over (issue 46)", () => {
  it("none: nothing landed, send again", () => {
    expect(lookVerdict([])).toEqual({ take: "none" });
  });

  it("one candidate of one attempt is taken", () => {
    expect(lookVerdict(["vol_a"])).toEqual({ take: "one", candidate: "vol_a" });
  });

  it("more candidates than attempts: another writer made some, none is taken", () => {
    expect(lookVerdict(["vol_a", "vol_b"])).toEqual({ take: "none-of-many", candidates: ["vol_a", "vol_b"] });
    expect(lookVerdict(["vol_a", "vol_b", "vol_c"], 2)).toMatchObject({ take: "none-of-many" });
  });

  it("as many candidates as this writer's own lost attempts of the request: each takes one", () => {
    expect(lookVerdict(["vol_a", "vol_b"], 2)).toEqual({ take: "one", candidate: "vol_a" });
  });
});

describe("earliestMadeAt and PlatformClock: the window of a look", () => {
  it("without a Date header seen, allows the fixed clock slack", () => {
    expect(earliestMadeAt(100_000, undefined)).toBe(100_000 - RETRY_POLICY.lostAnswerWindow.clockSlackMs);
  });

  it("with the platform's clock measured, starts at the attempt on the platform's clock less a margin", () => {
    const { measuredSlackMs } = RETRY_POLICY.lostAnswerWindow;
    expect(earliestMadeAt(100_000, 600_000)).toBe(700_000 - measuredSlackMs);
    expect(earliestMadeAt(100_000, -5_000)).toBe(95_000 - measuredSlackMs);
  });

  it("measures the skew from the latest Date header, as a lower bound", () => {
    const clock = new PlatformClock();
    expect(clock.skewMs).toBeUndefined();
    clock.observe(undefined, 0);
    clock.observe("not a date", 0);
    expect(clock.skewMs).toBeUndefined();
    const local = Date.parse("2026-11-28T01:00:00.700Z");
    clock.observe("Sat, 28 Nov 2026 01:10:00 GMT", local);
    expect(clock.skewMs).toBe(600_000 - 700);
    clock.observe(["Sat, 28 Nov 2026 01:00:01 GMT"], local);
    expect(clock.skewMs).toBe(300);
  });
});
