import { describe, expect, test } from "vitest";
import { FaultInjector, globToRegExp } from "../../../emulator/faults";

describe("fault path globs", () => {
  test.each([
    ["/v1/apps/*/volumes", "/v1/apps/demo/volumes", true],
    ["/v1/apps/*/volumes", "/v1/apps/demo/volumes/vol_1/extend", true],
    ["/v1/apps/*/volumes", "/v1/apps/demo/volumesX", false],
    ["/v1/apps/*/volumes", "/v1/apps/a/b/volumes", false],
    ["/v1/**/rotate_password", "/v1/postgres/pg/users/u/rotate_password", true],
    ["/v1/postgres", "/v1/postgres/pg/users/u/rotate_password", true],
    ["/v1/apps/demo.app", "/v1/apps/demoXapp", false],
  ])("%s matching %s is %s", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe("FaultInjector", () => {
  test("a fault fires `times` times, then is gone", () => {
    const f = new FaultInjector();
    f.add({ kind: "status", status: 503, times: 2 });
    expect(f.take("GET", "/x")).toHaveLength(1);
    expect(f.take("GET", "/x")).toHaveLength(1);
    expect(f.take("GET", "/x")).toHaveLength(0);
    expect(f.active).toBe(false);
  });

  test("latency faults stack before one terminal fault", () => {
    const f = new FaultInjector();
    f.add({ kind: "latency", latencyMs: 5 });
    f.add({ kind: "status", status: 429 });
    f.add({ kind: "drop-before" });
    expect(f.take("GET", "/x").map((x) => x.kind)).toEqual(["latency", "status"]);
  });

  test("method filters are case-insensitive and exclusive", () => {
    const f = new FaultInjector();
    f.add({ kind: "drop-after", method: "post" });
    expect(f.take("GET", "/x")).toHaveLength(0);
    expect(f.take("POST", "/x")).toHaveLength(1);
  });

  test("clear restarts the seeded sequence", () => {
    const f = new FaultInjector(7);
    const run = () => {
      f.add({ kind: "status", times: 0, probability: 0.3 });
      const out = Array.from({ length: 30 }, () => f.take("GET", "/x").length);
      f.clear();
      return out;
    };
    expect(run()).toEqual(run());
  });
});
