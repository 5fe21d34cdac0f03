import { describe, expect, it } from "vitest";
import { STACK_TOKEN_ADVICE, withTokenAdvice } from "../../../provider/model/token-advice";
import { isMissing } from "../../../provider/runtime/errors";
import { ApiError } from "../../../sdk";

const api = (status: number, requestId?: string) =>
  new ApiError({
    status,
    platformMessage: "nope",
    method: "GET",
    path: "/v1/apps/a/volumes",
    ...(requestId ? { requestId } : {}),
  });

describe("provider error advice", () => {
  it("a refused token (lookups, recover) gets the stack-config advice once, after the sdk's message", () => {
    const err = withTokenAdvice(api(401, "req-9")) as Error;
    expect(err.message).toMatch(/^GET \/v1\/apps\/a\/volumes failed with 401: nope .*\(request id req-9\)/);
    expect(err.message.split("pulumi config set").length - 1).toBe(1);
    expect(err.message.endsWith(STACK_TOKEN_ADVICE)).toBe(true);
    expect(err.cause).toBeInstanceOf(ApiError);
  });

  it("other errors are left as they are", () => {
    const notFound = api(404);
    expect(withTokenAdvice(notFound)).toBe(notFound);
    const plain = new Error("x");
    expect(withTokenAdvice(plain)).toBe(plain);
  });

  it("isMissing keeps its meaning: 404 or 410", () => {
    expect([400, 401, 404, 410, 500].map((s) => isMissing(api(s)))).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(isMissing(new Error("404"))).toBe(false);
  });
});
