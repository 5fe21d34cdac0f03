import { describe, expect, it } from "vitest";
import {
  AmbiguousRequestError,
  ApiError,
  EventParseError,
  isGone,
  isNotFound,
  isRetryable,
  PlatformError,
  ResponseValidationError,
  TimeoutError,
  TransportError,
} from "../../../sdk/errors";
import { parseEventLine } from "../../../sdk/events";
import { postgresReason } from "../../../sdk/postgres-errors";
import { ReplicationDivergedError, ReplicationStoppedError } from "../../../sdk/replication";

const pg = "/v1/postgres/demo-pg/users/app_user/rotate_password";

describe("Postgres error rows map to distinct reasons", () => {
  it.each([
    [400, "username postgres is reserved", "reserved_user"],
    [400, "cannot rotate the password of a system user", "system_user"],
    [400, "username is malformed", "malformed_user"],
    [401, "unauthorized", "unauthorized"],
    [404, "cluster demo-x not found", "cluster_not_found"],
    [404, "postgres cluster not found", "cluster_not_found"],
    [404, "user bob not found in cluster demo-pg", "user_not_found"],
    [410, "cluster has been deleted", "cluster_deleted"],
    [410, "cluster is being deleted", "cluster_deleting"],
    [422, "kill_sessions must be true or false", "invalid_kill_sessions"],
    [503, "admin unavailable", "admin_unavailable"],
    [400, 'username "Reserved-System" is malformed: use lowercase', "malformed_user"],
    [404, 'user "cluster" not found in cluster "demo-pg"', "user_not_found"],
    [404, 'postgres cluster "user" not found', "cluster_not_found"],
  ])("%i %s → %s", (status, message, reason) => {
    expect(postgresReason(status, message)).toBe(reason);
    const err = new ApiError({
      status,
      platformMessage: message,
      method: "POST",
      path: pg,
      reason: postgresReason(status, message),
    });
    expect(err.reason).toBe(reason);
    expect(err.message).toContain(reason);
  });

  it("other families carry no Postgres reason", () => {
    const err = new ApiError({
      status: 404,
      platformMessage: "volume not found",
      method: "GET",
      path: "/v1/apps/a/volumes/v",
    });
    expect(err.reason).toBeUndefined();
  });
});

describe("hints", () => {
  it.each([
    [401, "unauthorized", /refused the API token/],
    [404, "app foo not found", /The app was not found/],
    [404, "volume vol_1 not found", /The volume was not found/],
    [404, "certificate for hostname a.b not found", /The hostname was not found/],
    [404, "user bob not found in cluster demo-pg", /The user was not found/],
    [410, "cluster is being deleted", /being deleted/],
    [410, "cluster has been deleted", /has been deleted/],
    [422, "kill_sessions must be a boolean", /`kill_sessions`/],
  ])("%i %s", (status, message, hint) => {
    const err = new ApiError({ status, platformMessage: message, method: "GET", path: "/v1/x" });
    expect(err.hint).toMatch(hint);
    expect(err.message).toMatch(hint);
  });

  it("a 404 that does not say what is missing gets no guess", () => {
    expect(
      new ApiError({ status: 404, platformMessage: "nope", method: "GET", path: "/v1/x" }).hint,
    ).toBeUndefined();
  });

  it("the message combines method, path, status, platform message and Retry-After", () => {
    const err = new ApiError({
      status: 429,
      platformMessage: "slow down",
      method: "GET",
      path: "/v1/apps/a/volumes",
      retryAfterSeconds: 3,
    });
    expect(err.message).toMatch(/^GET \/v1\/apps\/a\/volumes failed with 429: slow down \(retry after 3s\)/);
    expect(err.code).toBe("API_ERROR");
    expect(err.name).toBe("ApiError");
  });
});

describe("classifiers", () => {
  const api = (status: number) => new ApiError({ status, platformMessage: "", method: "GET", path: "/v1/x" });
  it.each([
    ["404 is not found", api(404), { notFound: true, gone: false, retryable: false }],
    ["410 is gone", api(410), { notFound: false, gone: true, retryable: false }],
    ["429 is retryable", api(429), { notFound: false, gone: false, retryable: true }],
    ["502 is retryable", api(502), { notFound: false, gone: false, retryable: true }],
    ["503 is retryable", api(503), { notFound: false, gone: false, retryable: true }],
    ["504 is retryable", api(504), { notFound: false, gone: false, retryable: true }],
    ["400 is final", api(400), { notFound: false, gone: false, retryable: false }],
    [
      "a transport error is retryable",
      new TransportError("GET", "/x", new Error("reset"), false),
      { notFound: false, gone: false, retryable: true },
    ],
    [
      "an ambiguous POST is not retryable blindly",
      new AmbiguousRequestError("POST", "/x", new Error("reset")),
      { notFound: false, gone: false, retryable: false },
    ],
    ["a plain Error is nothing", new Error("x"), { notFound: false, gone: false, retryable: false }],
    [
      "a 404 ApiError of another sdk copy (told by its code) is not found",
      Object.assign(new Error("x"), { code: "API_ERROR", status: 404 }),
      { notFound: true, gone: false, retryable: false },
    ],
    [
      "a status without the ApiError code is nothing",
      Object.assign(new Error("x"), { status: 404 }),
      { notFound: false, gone: false, retryable: false },
    ],
  ])("%s", (_rule, err, expected) => {
    expect({ notFound: isNotFound(err), gone: isGone(err), retryable: isRetryable(err) }).toEqual(expected);
  });

  it("every kind has its literal code", () => {
    expect(new TransportError("GET", "/x", new Error("e"), true).code).toBe("TRANSPORT_ERROR");
    expect(new AmbiguousRequestError("POST", "/x", new Error("e")).code).toBe("AMBIGUOUS_REQUEST");
    expect(new ResponseValidationError("GET /x", "a.b", "bad").code).toBe("RESPONSE_VALIDATION");
  });
});

describe("one family", () => {
  it("every sdk error derives from PlatformError, keeping its class and code", () => {
    const pos = { txID: "0000000000000001", postApplyChecksum: "aa" };
    const errors: [PlatformError, string, string][] = [
      [
        new ApiError({ status: 500, platformMessage: "x", method: "GET", path: "/v1/x" }),
        "ApiError",
        "API_ERROR",
      ],
      [new TimeoutError("late"), "TimeoutError", "TIMEOUT"],
      [new EventParseError("not JSON"), "EventParseError", "EVENT_PARSE"],
      [
        new ReplicationDivergedError("app.db", pos, { ...pos, postApplyChecksum: "bb" }),
        "ReplicationDivergedError",
        "REPLICATION_DIVERGED",
      ],
      [new ReplicationStoppedError("closed"), "ReplicationStoppedError", "REPLICATION_STOPPED"],
    ];
    for (const [err, name, code] of errors) {
      expect(err).toBeInstanceOf(PlatformError);
      expect(err).toBeInstanceOf(Error);
      expect(err.name).toBe(name);
      expect(err.code).toBe(code);
    }
  });

  it("an event line that is not valid throws an EventParseError", () => {
    expect(() => parseEventLine("{nope")).toThrow(EventParseError);
    expect(() => parseEventLine("[1]")).toThrow(EventParseError);
    expect(() => parseEventLine('{"type":"init","data":{}}')).toThrow(EventParseError);
  });

  it("no hint gives Pulumi advice (the sdk knows nothing of Pulumi)", () => {
    for (const status of [400, 401, 403, 404, 410, 422, 429, 500, 503]) {
      for (const path of ["/v1/apps/a/volumes", "/v1/postgres/c/users/u/rotate_password"]) {
        const err = new ApiError({ status, platformMessage: "nope", method: "POST", path });
        expect(err.message).not.toMatch(/pulumi|platform:apiToken/i);
      }
    }
  });
});
