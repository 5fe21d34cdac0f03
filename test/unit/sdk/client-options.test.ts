import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../sdk/errors";
import { PlatformClient, type PlatformClientOptions, TaskClient } from "../../../sdk/index";

const TOKEN = "tok_secret_123";
const ok: PlatformClientOptions = { baseUrl: "http://127.0.0.1:1", token: TOKEN };

describe("PlatformClient validates its options up front", () => {
  it.each([
    ["baseUrl is required", { baseUrl: undefined }, /^baseUrl must be a non-empty string/],
    ["baseUrl must parse", { baseUrl: "not a url" }, /^baseUrl is not a valid URL/],
    ["baseUrl must be http(s)", { baseUrl: "ftp://x" }, /^baseUrl must use http or https/],
    [
      "baseUrl must not carry credentials",
      { baseUrl: "http://u:p@x" },
      /^baseUrl must not contain credentials/,
    ],
    ["baseUrl must not carry a query", { baseUrl: "http://x/?a=1" }, /^baseUrl must not have a query/],
    ["token is required", { token: "" }, /^token must be a non-empty string$/],
    ["token must be a string", { token: 42 }, /^token must be a non-empty string/],
    ["token must be one line", { token: `${TOKEN}\nx` }, /^token must not contain line breaks/],
    ["timeoutMs must be positive", { timeoutMs: 0 }, /^timeoutMs must be a positive number/],
    [
      "timeoutMs must be finite",
      { timeoutMs: Number.POSITIVE_INFINITY },
      /^timeoutMs must be a positive number/,
    ],
    ["deadlineMs must be a number", { deadlineMs: "5" }, /^deadlineMs must be a positive number/],
    ["maxRetries must be an integer", { maxRetries: 1.5 }, /^maxRetries must be an integer/],
    ["maxRetries must not be negative", { maxRetries: -1 }, /^maxRetries must be an integer/],
    [
      "userAgent must be one line",
      { userAgent: "a\r\nb" },
      /^userAgent must be a non-empty single-line string/,
    ],
    ["onDebug must be a function", { onDebug: "yes" }, /^onDebug must be a function/],
    ["dispatcher must be a Dispatcher", { dispatcher: {} }, /^dispatcher must be an undici Dispatcher/],
  ])("%s", (_rule, override, message) => {
    const build = () => new PlatformClient({ ...ok, ...override } as unknown as PlatformClientOptions);
    expect(build).toThrow(InvalidArgumentError);
    expect(build).toThrow(message);
    try {
      build();
    } catch (err) {
      expect(String((err as Error).message)).not.toContain(TOKEN);
    }
  });

  it("accepts the minimal options and exposes the three families", async () => {
    const client = new PlatformClient(ok);
    expect(typeof client.volumes.list).toBe("function");
    expect(typeof client.certificates.get).toBe("function");
    expect(typeof client.postgres.rotatePassword).toBe("function");
    await client.close();
  });

  it("TaskClient rejects an empty socketPath", () => {
    expect(() => new TaskClient({ socketPath: "" })).toThrow(/^socketPath must be a non-empty string/);
  });
});

describe("request arguments are validated before sending", () => {
  const client = new PlatformClient(ok);
  it.each([
    ["create needs a name", () => client.volumes.create("a", { name: "" }), /^body\.name:/],
    [
      "snapshot_retention is at most 60",
      () => client.volumes.create("a", { name: "v", snapshot_retention: 61 }),
      /^body\.snapshot_retention:/,
    ],
    [
      "update retention at least 1",
      () => client.volumes.update("a", "v", { snapshot_retention: 0 }),
      /^body\.snapshot_retention:/,
    ],
    [
      "extend needs a positive integer",
      () => client.volumes.extend("a", "v", 2.5),
      /^sizeGb must be a positive integer/,
    ],
    [
      "list limit must be positive",
      () => client.certificates.list("a", { limit: 0 }),
      /^limit must be a positive integer/,
    ],
    [
      "custom import needs a key",
      () => client.certificates.importCustom("a", { hostname: "h", fullchain: "x", private_key: "" }),
      /^body\.private_key:/,
    ],
    ["get needs an app", () => client.volumes.get("", "v"), /^app must be a non-empty string/],
  ])("%s", async (_rule, call, message) => {
    await expect((async () => call())()).rejects.toThrow(message);
  });
});
