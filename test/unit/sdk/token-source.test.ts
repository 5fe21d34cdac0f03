import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../sdk/errors";
import { ApiError, type DebugEntry, PlatformClient, type TokenSource } from "../../../sdk/index";
import { json, type SeenRequest, startServer, volume } from "./helpers";

const OLD = "tok_old_0123";
const NEW = "tok_new_4567";

let close: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(close.map((c) => c()));
  close = [];
});

/** A server that accepts only the tokens in `accepted` (changeable by the test). */
async function platformAccepting(accepted: Set<string>, answer = (_req: SeenRequest) => volume() as unknown) {
  const srv = await startServer((req, res) => {
    const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (!accepted.has(token)) json(res, 401, { error: "unauthorized: the bearer token is not valid" });
    else json(res, 200, answer(req));
  });
  close.push(srv.close);
  return srv;
}

/** A source that holds `tokens` in order and moves to the next one when the current is refused. */
function rotatingSource(...tokens: string[]): TokenSource & { reports: string[] } {
  let at = 0;
  const reports: string[] = [];
  return {
    reports,
    current: () => tokens[at] ?? "",
    refused(token) {
      reports.push(token);
      if (token !== tokens[at]) return true;
      if (at + 1 >= tokens.length) return false;
      at += 1;
      return true;
    },
  };
}

function clientOf(url: string, options: Partial<ConstructorParameters<typeof PlatformClient>[0]>) {
  const client = new PlatformClient({ baseUrl: url, maxRetries: 2, ...options });
  close.push(() => client.close());
  return client;
}

const tokensSent = (seen: SeenRequest[]) => seen.map((r) => String(r.headers.authorization));

describe("a token source is asked for every request", () => {
  it("each request carries the token current at its start", async () => {
    const srv = await platformAccepting(new Set([OLD, NEW]));
    let token = OLD;
    const client = clientOf(srv.url, { tokenSource: { current: () => token, refused: () => false } });
    await client.volumes.get("a", "v");
    token = NEW;
    await client.volumes.get("a", "v");
    expect(tokensSent(srv.seen)).toEqual([`Bearer ${OLD}`, `Bearer ${NEW}`]);
  });

  it.each([
    ["GET", (c: PlatformClient) => c.volumes.get("a", "v")],
    ["POST", (c: PlatformClient) => c.volumes.createSnapshot("a", "v")],
    ["DELETE", (c: PlatformClient) => c.volumes.delete("a", "v")],
  ])(
    "a %s refused (401) is sent once more with the new current token when refused() says so",
    async (_m, call) => {
      const srv = await platformAccepting(new Set([NEW]), (req) =>
        req.url.endsWith("/snapshots")
          ? JSON.parse(readFileSync(join(__dirname, "../../fixtures/wire/snapshot-create.spec.json"), "utf8"))
          : volume(),
      );
      const source = rotatingSource(OLD, NEW);
      await call(clientOf(srv.url, { tokenSource: source }));
      expect(tokensSent(srv.seen)).toEqual([`Bearer ${OLD}`, `Bearer ${NEW}`]);
      expect(source.reports).toEqual([OLD]);
    },
  );

  it("a 401 is not repeated when refused() returns false", async () => {
    const srv = await platformAccepting(new Set([NEW]));
    const source = rotatingSource(OLD);
    const err = await clientOf(srv.url, { tokenSource: source })
      .volumes.get("a", "v")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(srv.seen).toHaveLength(1);
    expect(source.reports).toEqual([OLD]);
  });

  it("a call is repeated at most once; the second refusal is reported too, then fails", async () => {
    const srv = await platformAccepting(new Set(["tok_third"]));
    const source = rotatingSource(OLD, NEW, "tok_third");
    const client = clientOf(srv.url, { tokenSource: source });
    const err = await client.volumes.get("a", "v").catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(401);
    expect(tokensSent(srv.seen)).toEqual([`Bearer ${OLD}`, `Bearer ${NEW}`]);
    expect(source.reports).toEqual([OLD, NEW]);
    // The source moved on when told of the second refusal: the next call uses its token.
    await client.volumes.get("a", "v");
    expect(tokensSent(srv.seen).at(-1)).toBe("Bearer tok_third");
  });

  it("the plain token option is never replaced: a 401 fails after one request", async () => {
    const srv = await platformAccepting(new Set([NEW]));
    const err = await clientOf(srv.url, { token: ` ${OLD} ` })
      .volumes.get("a", "v")
      .catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(401);
    expect(tokensSent(srv.seen)).toEqual([`Bearer ${OLD}`]);
  });

  it("concurrent calls refused with the same token both repeat with the one that replaced it", async () => {
    const srv = await platformAccepting(new Set([NEW]));
    const source = rotatingSource(OLD, NEW);
    const client = clientOf(srv.url, { tokenSource: source });
    await Promise.all([client.volumes.get("a", "v1"), client.volumes.get("a", "v2")]);
    expect(source.reports).toEqual([OLD, OLD]);
    expect(tokensSent(srv.seen).filter((t) => t === `Bearer ${NEW}`)).toHaveLength(2);
  });

  it("a paged listing refused on its second page repeats only that page", async () => {
    const accepted = new Set([OLD]);
    const list = JSON.parse(
      readFileSync(join(__dirname, "../../fixtures/wire/certificate-list.spec.json"), "utf8"),
    ) as { certificates: unknown[] };
    const srv = await platformAccepting(accepted, (req) => {
      const second = req.url.includes("cursor=");
      if (!second) accepted.delete(OLD); // the token is revoked after the first page
      return second
        ? { certificates: list.certificates.slice(1) }
        : { certificates: list.certificates.slice(0, 1), next_cursor: "c2" };
    });
    accepted.add(NEW);
    const source = rotatingSource(OLD, NEW);
    const seen: string[] = [];
    for await (const entry of clientOf(srv.url, { tokenSource: source }).certificates.listAll("a"))
      seen.push(entry.hostname);
    expect(seen).toEqual(list.certificates.map((c) => (c as { hostname: string }).hostname));
    expect(
      srv.seen.map((r) => [r.url.includes("cursor=") ? "page 2" : "page 1", r.headers.authorization]),
    ).toEqual([
      ["page 1", `Bearer ${OLD}`],
      ["page 2", `Bearer ${OLD}`],
      ["page 2", `Bearer ${NEW}`],
    ]);
  });

  it("debug entries never carry a token of the source", async () => {
    const srv = await platformAccepting(new Set([NEW]));
    const entries: DebugEntry[] = [];
    await clientOf(srv.url, {
      tokenSource: rotatingSource(OLD, NEW),
      onDebug: (e) => entries.push(e),
    }).volumes.get("a", "v");
    expect(entries).toHaveLength(2);
    for (const e of entries) expect(e.headers.authorization).toBe("Bearer [redacted]");
    expect(JSON.stringify(entries)).not.toMatch(/tok_/);
  });

  it("a current() that is not a usable token fails the call without sending it", async () => {
    const srv = await platformAccepting(new Set([NEW]));
    const err = await clientOf(srv.url, { tokenSource: { current: () => "a\nb", refused: () => false } })
      .volumes.get("a", "v")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as Error).message).toBe("tokenSource.current() must return a non-empty single-line string");
    expect(srv.seen).toHaveLength(0);
  });
});

describe("PlatformClient's token options", () => {
  const source: TokenSource = { current: () => NEW, refused: () => false };
  it.each([
    [
      "token and tokenSource together",
      { token: OLD, tokenSource: source },
      /^give either token or tokenSource/,
    ],
    [
      "a tokenSource without refused()",
      { tokenSource: { current: (): string => NEW } },
      /^tokenSource must be an object/,
    ],
    ["neither", {}, /^token must be a non-empty string$/],
  ])("rejects %s", (_rule, options, message) => {
    const build = () =>
      new PlatformClient({ baseUrl: "http://127.0.0.1:1", ...options } as ConstructorParameters<
        typeof PlatformClient
      >[0]);
    expect(build).toThrow(InvalidArgumentError);
    expect(build).toThrow(message);
  });
});
