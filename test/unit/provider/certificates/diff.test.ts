import { describe, expect, it } from "vitest";
import * as runtime from "../../../../provider/kinds/runtime-entry";

describe("certificate diffs", () => {
  const acmeOuts = {
    app: "demo-app",
    hostname: "a.example.com",
    status: "pending_validation",
    acmeRequested: true,
  };
  const customOuts = { ...acmeOuts, fullchain: "CHAIN", privateKey: "KEY" };
  const cases: [
    string,
    "acme" | "custom",
    Record<string, unknown>,
    { changes: boolean; replaces: string[] },
  ][] = [
    [
      "ACME: no change",
      "acme",
      { app: "demo-app", hostname: "a.example.com" },
      { changes: false, replaces: [] },
    ],
    [
      "ACME: a new hostname replaces",
      "acme",
      { app: "demo-app", hostname: "b.example.com" },
      { changes: true, replaces: ["hostname"] },
    ],
    [
      "ACME: a new app replaces",
      "acme",
      { app: "x", hostname: "a.example.com" },
      { changes: true, replaces: ["app"] },
    ],
    [
      "ACME: waitForActive changes in place",
      "acme",
      { app: "demo-app", hostname: "a.example.com", waitForActive: true },
      { changes: true, replaces: [] },
    ],
    [
      "custom: no change",
      "custom",
      { app: "demo-app", hostname: "a.example.com", fullchain: "CHAIN", privateKey: "KEY" },
      { changes: false, replaces: [] },
    ],
    [
      "custom: a new chain and key re-import in place",
      "custom",
      { app: "demo-app", hostname: "a.example.com", fullchain: "CHAIN2", privateKey: "KEY2" },
      { changes: true, replaces: [] },
    ],
    [
      "custom: a new hostname replaces",
      "custom",
      { app: "demo-app", hostname: "b.example.com", fullchain: "CHAIN", privateKey: "KEY" },
      { changes: true, replaces: ["hostname"] },
    ],
  ];
  for (const [rule, kind, news, expected] of cases) {
    it(rule, async () => {
      const result =
        kind === "acme"
          ? await runtime.acmeCertificate.diff("a.example.com", acmeOuts, news)
          : await runtime.customCertificate.diff("a.example.com", customOuts, news);
      expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
    });
  }
});
