import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../sdk/errors";
import { apiPath, encodePathSegment, queryString } from "../../../sdk/paths";

describe("path encoding", () => {
  it.each([
    ["a wildcard hostname sends * as %2A", "*.example.com", "%2A.example.com"],
    ["every * is encoded, not only the first", "a*b*", "a%2Ab%2A"],
    ["a plain hostname is unchanged", "www.example.com", "www.example.com"],
    ["a slash cannot open a new segment", "a/b", "a%2Fb"],
    ["a question mark cannot start a query", "a?b=1", "a%3Fb%3D1"],
    ["a hash cannot start a fragment", "a#b", "a%23b"],
    ["a percent sign is encoded once", "50%", "50%25"],
    ["a space is %20", "a b", "a%20b"],
    ["non-ASCII is UTF-8 percent-encoded", "bücher.de", "b%C3%BCcher.de"],
    ["'.' cannot address the parent", ".", "%2E"],
    ["'..' cannot climb the path", "..", "%2E%2E"],
    ["dots inside a name stay", "a..b", "a..b"],
  ])("%s", (_rule, input, expected) => {
    expect(encodePathSegment(input)).toBe(expected);
  });

  it("apiPath encodes each parameter and keeps the literal parts", () => {
    expect(apiPath`/v1/apps/${"my app"}/certificates/${"*.x.io"}/check`).toBe(
      "/v1/apps/my%20app/certificates/%2A.x.io/check",
    );
  });

  it.each([
    ["app", () => apiPath`/v1/apps/${""}/volumes`],
    ["volumeId", () => apiPath`/v1/apps/${"a"}/volumes/${""}`],
    ["hostname", () => apiPath`/v1/apps/${"a"}/certificates/${""}`],
    ["username", () => apiPath`/v1/postgres/${"c"}/users/${""}/rotate_password`],
  ])("an empty %s is rejected before sending, naming it", (name, build) => {
    expect(build).toThrow(InvalidArgumentError);
    expect(build).toThrow(new RegExp(`^${name} must be a non-empty string`));
  });

  it("queryString skips undefined values and encodes the rest like path segments", () => {
    expect(queryString({ filter: "*.a b", limit: 5, cursor: undefined })).toBe("?filter=%2A.a%20b&limit=5");
    expect(queryString({ cursor: undefined })).toBe("");
  });
});
