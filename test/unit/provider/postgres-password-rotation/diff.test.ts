import { describe, expect, it } from "vitest";
import * as runtime from "../../../../provider/kinds/runtime-entry";
import { UNKNOWN } from "../../../../provider/model/validation";

describe("PostgresPasswordRotation diff", () => {
  const outs = {
    clusterId: "demo-pg",
    username: "app_user",
    password: "p",
    rotatedAt: "t",
    triggers: { v: "1" },
  };
  const ins = { clusterId: "demo-pg", username: "app_user", triggers: { v: "1" } };
  const cases: [string, Record<string, unknown>, { changes: boolean; replaces: string[] }][] = [
    ["no change with the same inputs", ins, { changes: false, replaces: [] }],
    [
      "a new trigger value rotates again (replace)",
      { ...ins, triggers: { v: "2" } },
      { changes: true, replaces: ["triggers"] },
    ],
    [
      "removing triggers rotates again (replace)",
      { clusterId: "demo-pg", username: "app_user" },
      { changes: true, replaces: ["triggers"] },
    ],
    [
      "another user rotates (replace)",
      { ...ins, username: "other" },
      { changes: true, replaces: ["username"] },
    ],
    [
      "another cluster rotates (replace)",
      { ...ins, clusterId: "pg2" },
      { changes: true, replaces: ["clusterId"] },
    ],
    [
      "killSessions alone is recorded in place, no rotation",
      { ...ins, killSessions: true },
      { changes: true, replaces: [] },
    ],
  ];
  for (const [rule, news, expected] of cases) {
    it(rule, async () => {
      const result = await runtime.postgresPasswordRotation.diff("id", outs, news);
      expect({ changes: result.changes, replaces: result.replaces }).toEqual(expected);
    });
  }

  // The schedule is computed by check from the recorded inputs, then diff plans it.
  const DAY = 86_400_000;
  const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();
  const recorded = (dueInDays: number, rotationDays = 30, scheduledRotations = 0) => ({
    ...ins,
    rotationDays,
    nextRotationAt: iso(dueInDays),
    scheduledRotations,
  });
  const plan = async (oldInputs: Record<string, unknown>, program: Record<string, unknown>) => {
    // (Its only failure here is the missing API token of this test's process.)
    const checked = await runtime.postgresPasswordRotation.check(oldInputs, program);
    const result = await runtime.postgresPasswordRotation.diff(
      "id",
      { ...outs, ...oldInputs },
      checked.inputs,
    );
    return { changes: result.changes, replaces: result.replaces, inputs: checked.inputs };
  };
  it("a new rotation's schedule starts now", async () => {
    const { inputs } = await plan({}, { ...ins, rotationDays: 30 });
    expect(Date.parse(String(inputs.nextRotationAt)) - Date.now()).toBeGreaterThan(29.9 * DAY);
    expect(inputs.scheduledRotations).toBe(0);
  });
  it("not due before rotationDays have passed", async () => {
    expect(await plan(recorded(1), { ...ins, rotationDays: 30 })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });
  it("rotates (replace) once rotationDays have passed, and the next period starts now", async () => {
    const due = await plan(recorded(-1, 30, 2), { ...ins, rotationDays: 30 });
    expect(due).toMatchObject({ changes: true, replaces: ["rotationDays"] });
    expect(due.inputs.scheduledRotations).toBe(3);
    expect(Date.parse(String(due.inputs.nextRotationAt)) - Date.now()).toBeGreaterThan(29.9 * DAY);
  });
  it("a shorter period that is already due rotates", async () => {
    // Last rotation 50 days ago with a 90-day period; 30 days have passed since.
    expect(await plan(recorded(40, 90), { ...ins, rotationDays: 30 })).toMatchObject({
      changes: true,
      replaces: ["rotationDays"],
    });
  });
  it("a longer period not yet due is recorded in place, counted from the last rotation", async () => {
    const longer = await plan(recorded(10, 30), { ...ins, rotationDays: 90 });
    expect(longer).toMatchObject({ changes: true, replaces: [] });
    expect(Date.parse(String(longer.inputs.nextRotationAt)) - Date.now()).toBeCloseTo(70 * DAY, -5);
  });
  it("without rotationDays time never rotates", async () => {
    expect(await plan({ ...ins }, ins)).toMatchObject({ changes: false, replaces: [] });
  });
  it("removing rotationDays is recorded in place, no rotation", async () => {
    expect(await plan(recorded(-400), ins)).toMatchObject({ changes: true, replaces: [] });
  });
  it("an unknown rotationDays is an update, never a replace", async () => {
    const result = await runtime.postgresPasswordRotation.diff(
      "id",
      { ...outs, ...recorded(-1) },
      {
        ...ins,
        rotationDays: UNKNOWN,
      },
    );
    expect({ changes: result.changes, replaces: result.replaces }).toEqual({ changes: true, replaces: [] });
  });
  it("a refresh's diff (recorded inputs against refreshed outputs) never plans a rotation, even when due", async () => {
    const overdue = recorded(-100);
    const read = await runtime.postgresPasswordRotation.read("id", { ...outs, ...overdue });
    expect(read.inputs).toMatchObject(overdue);
    const result = await runtime.postgresPasswordRotation.diff("id", read.props, overdue);
    expect(result.changes).toBe(false);
  });
  it("treats an empty triggers map like none", async () => {
    const result = await runtime.postgresPasswordRotation.diff(
      "id",
      { clusterId: "c", username: "u" },
      { clusterId: "c", username: "u", triggers: {} },
    );
    expect(result.changes).toBe(false);
  });
});
