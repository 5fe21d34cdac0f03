/**
 * Two writers in one app (issue 46): a create whose answer was lost must not take over a volume
 * another writer made. Real HTTP against the emulator; the second writer is another sdk client.
 */
import { describe, expect, it } from "vitest";
import { AmbiguousTakeOverError, type PlatformClient } from "../../../sdk/index";
import { SDK_TIMING, type TestEmulator, useTestEmulator } from "../../support/emulator";

const APP = "demo-app";
let h: TestEmulator;

useTestEmulator({
  emulator: { timing: SDK_TIMING },
  resetEachTest: true,
  started: (started) => {
    h = started;
  },
});

/** The next volume create is carried out and answered 500 (the answer is lost). */
const answer500AfterCreate = () =>
  h.control.faults.add({ method: "POST", path: "/v1/apps/*/volumes", kind: "status-after", status: 500 });

const named = async (client: PlatformClient, name: string) =>
  (await client.volumes.list(APP)).filter((v) => v.name === name && v.state !== "destroyed");

describe("a lost create beside a second writer", () => {
  it("the issue's race: A takes neither volume and its error names both", async () => {
    const a = h.client();
    const b = h.client();
    // A's first create in the app: its list of the app is taken now.
    await a.volumes.create(APP, { name: "sw_other", region: "iad", size_gb: 1 });
    const theirs = await b.volumes.create(APP, { name: "sw_data", region: "iad", size_gb: 1 });
    await answer500AfterCreate();
    await h.control.requests.clear();
    const err = await a.volumes.create(APP, { name: "sw_data", region: "iad", size_gb: 1 }).catch((e) => e);

    expect(err).toBeInstanceOf(AmbiguousTakeOverError);
    expect(err.code).toBe("AMBIGUOUS_TAKEOVER");
    const both = await named(b, "sw_data");
    expect(both).toHaveLength(2);
    const mine = both.find((v) => v.id !== theirs.id);
    expect(err.candidates.map((c: { id: string }) => c.id).sort()).toEqual(both.map((v) => v.id).sort());
    for (const v of both) expect(err.message).toContain(v.id);
    expect(err.message).toContain("npx pulumi-platform adopt");
    expect(err.message).toContain("npx pulumi-platform recover");
    expect(err.message).toContain("answered 500");
    // Not sent again (that would make a third), nothing taken, nothing claimed by A.
    const posts = (await h.requests()).filter((r) => r.method === "POST").map((r) => r.status);
    expect(posts).toEqual([500]);
    expect(a.volumes.takenOver(APP, theirs.id)).toBeUndefined();
    expect(a.volumes.takenOver(APP, mine?.id ?? "")).toBeUndefined();
    // The other writer's volume is as it was.
    expect((await b.volumes.get(APP, theirs.id)).state).toBe("created");
  });

  it("one candidate is taken over, and the client says which and why", async () => {
    const a = h.client();
    await a.volumes.create(APP, { name: "sw_first", region: "iad", size_gb: 1 });
    await answer500AfterCreate();
    const v = await a.volumes.create(APP, { name: "sw_alone", region: "iad", size_gb: 1 });
    expect((await named(a, "sw_alone")).map((x) => x.id)).toEqual([v.id]);
    const taken = a.volumes.takenOver(APP, v.id);
    expect(taken?.volume.id).toBe(v.id);
    expect(taken?.why).toContain(`volume ${v.id} "sw_alone"`);
    expect(taken?.why).toContain("answered 500");
    expect(taken?.why).toContain("Date header");
    // A create whose answer arrived is no judgement.
    const answered = await a.volumes.create(APP, { name: "sw_answered", region: "iad", size_gb: 1 });
    expect(a.volumes.takenOver(APP, answered.id)).toBeUndefined();
  });

  it("the platform's Date header narrows the window: an older same-named volume is not a candidate", async () => {
    const a = h.client();
    const b = h.client();
    await a.volumes.create(APP, { name: "sw_early", region: "iad", size_gb: 1 });
    const theirs = await b.volumes.create(APP, { name: "sw_dated", region: "iad", size_gb: 1 });
    // The platform's clock runs 10 minutes ahead of this machine's from now on: with the fixed
    // 60 s of slack, B's volume (made a moment before A's attempt, by this machine's clock) would
    // be a second candidate; the Date header says it was made 10 minutes before the attempt.
    await h.advance(600_000);
    await answer500AfterCreate();
    const mine = await a.volumes.create(APP, { name: "sw_dated", region: "iad", size_gb: 1 });
    expect(mine.id).not.toBe(theirs.id);
    expect((await named(a, "sw_dated")).map((v) => v.id).sort()).toEqual([mine.id, theirs.id].sort());
    expect(a.volumes.takenOver(APP, mine.id)?.why).toMatch(/Date header, (599|600|601) s from this machine/);
  });

  it("the emulator's Date header is its virtual clock", async () => {
    const before = Date.parse((await h.api("GET", `/v1/apps/${APP}/volumes`)).headers.date as string);
    await h.advance(3_600_000);
    const after = Date.parse((await h.api("GET", `/v1/apps/${APP}/volumes`)).headers.date as string);
    expect(after - before).toBeGreaterThanOrEqual(3_600_000);
    expect(after - before).toBeLessThan(3_600_000 + 5_000);
  });
});
