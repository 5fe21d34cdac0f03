import { describe, expect, it } from "vitest";
import { type CredentialSources, resolveCredentials } from "../../../provider/model/credentials-resolver";

const URL_A = "https://a.example.com";
const URL_B = "https://b.example.com";
const TOKEN = "tok_secret_resolver_1";

const config =
  (values: Record<string, string | undefined>): CredentialSources["config"] =>
  (key) =>
    values[key];

describe("resolveCredentials: precedence", () => {
  it.each<
    [
      string,
      CredentialSources,
      { apiUrl: string; apiToken: string; tokenSource: string; unusedEnvToken?: string },
    ]
  >([
    [
      "arguments win over the stack config and the environment",
      {
        args: { apiUrl: URL_A, apiToken: "arg" },
        config: config({ "platform:apiUrl": URL_B, "platform:apiToken": "cfg" }),
        env: { PLATFORM_API_URL: URL_B, PLATFORM_API_TOKEN: "env" },
      },
      { apiUrl: URL_A, apiToken: "arg", tokenSource: "argument", unusedEnvToken: "env" },
    ],
    [
      "the stack config wins over the environment",
      {
        config: config({ "platform:apiUrl": URL_A, "platform:apiToken": "cfg" }),
        env: { PLATFORM_API_URL: URL_B, PLATFORM_API_TOKEN: "env" },
      },
      { apiUrl: URL_A, apiToken: "cfg", tokenSource: "config", unusedEnvToken: "env" },
    ],
    [
      "an environment token equal to the one used is not an unused one",
      {
        config: config({ "platform:apiUrl": URL_A, "platform:apiToken": "same" }),
        env: { PLATFORM_API_TOKEN: " same " },
      },
      { apiUrl: URL_A, apiToken: "same", tokenSource: "config" },
    ],
    [
      "each value falls back on its own (URL from the config, token from the environment)",
      { config: config({ "platform:apiUrl": URL_A }), env: { PLATFORM_API_TOKEN: "env" } },
      { apiUrl: URL_A, apiToken: "env", tokenSource: "env" },
    ],
    [
      "a blank argument or config value counts as not given",
      {
        args: { apiUrl: "  ", apiToken: "" },
        config: config({ "platform:apiToken": " \t" }),
        env: { PLATFORM_API_URL: URL_A, PLATFORM_API_TOKEN: "env" },
      },
      { apiUrl: URL_A, apiToken: "env", tokenSource: "env" },
    ],
    [
      "every source is trimmed the same way",
      {
        args: { apiToken: "  arg\t" },
        config: config({ "platform:apiUrl": ` ${URL_A} ` }),
      },
      { apiUrl: URL_A, apiToken: "arg", tokenSource: "argument" },
    ],
  ])("%s", (_rule, sources, expected) => {
    expect(resolveCredentials(sources)).toEqual({ ok: true, ...expected });
  });
});

describe("resolveCredentials: messages", () => {
  it("with a stack: names the config command and the variable, the token first", () => {
    const r = resolveCredentials({ config: config({}), env: {} });
    expect(r).toEqual({
      ok: false,
      problems: [
        "no platform API token: run `pulumi config set --secret platform:apiToken <token>` or set the environment variable PLATFORM_API_TOKEN",
        "no platform API URL: run `pulumi config set platform:apiUrl https://...` or set the environment variable PLATFORM_API_URL",
      ],
    });
  });

  it("without a stack (adopt): names the caller's flags and the variables, no pulumi config", () => {
    const r = resolveCredentials({ argNames: { apiUrl: "--api-url", apiToken: "--api-token" }, env: {} });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      "no platform API token: pass --api-token or set the environment variable PLATFORM_API_TOKEN",
      "no platform API URL: pass --api-url or set the environment variable PLATFORM_API_URL",
    ]);
  });

  it("a lookup's arguments, the config and the environment are all named", () => {
    const r = resolveCredentials({
      argNames: { apiUrl: "apiUrl", apiToken: "apiToken" },
      config: config({ "platform:apiUrl": URL_A }),
      env: {},
    });
    expect(!r.ok && r.problems).toEqual([
      "no platform API token: pass apiToken, run `pulumi config set --secret platform:apiToken <token>` or set the environment variable PLATFORM_API_TOKEN",
    ]);
  });

  it.each([
    ["not a URL", "api.example.com", /^the platform API URL from PLATFORM_API_URL must be an http/],
    ["another scheme", "ftp://api.example.com", /must be an http:\/\/ or https:\/\/ URL \(got "ftp:/],
  ])("an API URL that is %s says where it came from", (_what, url, message) => {
    const r = resolveCredentials({ env: { PLATFORM_API_URL: url, PLATFORM_API_TOKEN: TOKEN } });
    expect(!r.ok && r.problems.join()).toMatch(message);
    expect(!r.ok && r.tokenSource).toBe("env");
  });

  it("user info in the URL is refused without being echoed", () => {
    const r = resolveCredentials({
      config: config({ "platform:apiUrl": "https://me:hunter2@api.example.com", "platform:apiToken": TOKEN }),
    });
    expect(!r.ok && r.problems).toEqual([
      "the platform API URL from the stack config (platform:apiUrl) must not contain a user name or password",
    ]);
  });

  it("a token with a line break is refused, naming its source, never the token", () => {
    const r = resolveCredentials({ args: { apiUrl: URL_A, apiToken: `${TOKEN}\nX-Evil: 1` } });
    expect(!r.ok && r.problems).toEqual([
      "the platform API token from the apiToken argument contains a line break",
    ]);
  });

  it("no message ever contains the token", () => {
    for (const sources of [
      { env: { PLATFORM_API_TOKEN: TOKEN } },
      { args: { apiToken: TOKEN, apiUrl: "nope" } },
      { config: config({ "platform:apiToken": `${TOKEN}\rX` }), env: { PLATFORM_API_URL: URL_A } },
    ]) {
      const r = resolveCredentials(sources);
      expect(r.ok).toBe(false);
      expect(JSON.stringify(r)).not.toContain(TOKEN);
    }
  });
});
