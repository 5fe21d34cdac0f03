import fs from "node:fs";
import path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { RESOURCE_KEYS, registry, typeToken } from "../../../provider/kinds/registry";
import * as runtime from "../../../provider/kinds/runtime-entry";

// The serialized provider text (`__provider`) of every release stays in its users' states and is
// run by every later release: what it reaches in `pulumi-platform/provider/runtime` is a
// contract (CONTRIBUTING.md, "The stub is a contract"). The texts come from the recorded states
// in test/fixtures/upgrade, never from this checkout.

const repoRoot = path.resolve(__dirname, "..", "..", "..");
const fixtures = path.join(repoRoot, "test", "fixtures", "upgrade");
const versions = fs.readdirSync(fixtures).filter((v) => fs.existsSync(path.join(fixtures, v, "stack.json")));
const METHODS = ["check", "diff", "create", "read", "update", "delete"] as const;

/** The distinct `__provider` texts of a recorded state, by resource type. */
function recordedTexts(version: string): Map<string, string> {
  const exported = JSON.parse(fs.readFileSync(path.join(fixtures, version, "stack.json"), "utf8"));
  const texts = new Map<string, string>();
  for (const r of exported.deployment.resources as { type: string; inputs?: { __provider?: string } }[]) {
    if (typeof r.inputs?.__provider === "string") texts.set(r.type, r.inputs.__provider);
  }
  return texts;
}

/**
 * Runs a recorded text as the dynamic provider host does (configure first, then every method),
 * against a stand-in of the runtime that records which of its members the text reaches.
 */
async function membersReached(text: string): Promise<string[]> {
  const reached = new Set<string>();
  const fake = (name: string) => async () => {
    reached.add(name);
    return {};
  };
  const stand = new Proxy(
    {},
    {
      get: (_t, key) => {
        if (typeof key !== "string") return undefined;
        if (key === "configure") return fake("configure");
        return Object.fromEntries(METHODS.map((m) => [m, fake(`${key}.${m}`)]));
      },
    },
  );
  const module = { exports: {} as { handler: () => pulumi.dynamic.ResourceProvider } };
  new Function("exports", "require", "module", text)(
    module.exports,
    (id: string) => {
      expect(id).toBe("pulumi-platform/provider/runtime");
      return stand;
    },
    module,
  );
  const provider = module.exports.handler() as unknown as Record<
    string,
    (...a: unknown[]) => Promise<unknown>
  >;
  await provider.configure?.({ config: { get: () => undefined } });
  for (const m of METHODS) await provider[m]?.("id", {}, {});
  return [...reached].sort();
}

describe.each(versions)("the serialized provider texts recorded by %s", (version) => {
  it("reach only runtime members this checkout still exports, and all six methods of each resource", async () => {
    const texts = recordedTexts(version);
    expect(texts.size).toBe(5);
    for (const [type, text] of texts) {
      const reached = await membersReached(text);
      expect(reached, type).toContain("configure");
      expect(reached.filter((r) => r !== "configure")).toHaveLength(METHODS.length);
      for (const member of reached) {
        const [resource, method] = member.split(".") as [string, string | undefined];
        const target = method
          ? (runtime as unknown as Record<string, Record<string, unknown>>)[resource]?.[method]
          : (runtime as unknown as Record<string, unknown>)[resource];
        expect(typeof target, `${type} calls runtime.${member}`).toBe("function");
      }
    }
  });
});

describe("this checkout's serialized provider text", () => {
  it("is the one recorded for this version: a changed stub needs `npm run record-upgrade-fixture`", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    // The compiled stubs: the text a program of this checkout registers comes from dist/.
    const { stubTexts } = require(
      path.join(repoRoot, "dist", "provider", "kinds", "stubs.js"),
    ) as typeof import("../../../provider/kinds/stubs");
    expect(versions, `no recorded state for ${version}: run npm run record-upgrade-fixture`).toContain(
      version,
    );
    const recorded = recordedTexts(version);
    const current = Object.fromEntries(
      RESOURCE_KEYS.map((key) => [typeToken(registry[key]), stubTexts[key]] as const),
    );
    expect(Object.keys(current).sort()).toEqual([...recorded.keys()].sort());
    for (const [type, text] of Object.entries(current)) {
      expect(text, `${type}: the stub changed since ${version} was recorded`).toBe(recorded.get(type));
    }
  });
});
