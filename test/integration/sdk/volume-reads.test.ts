import { beforeEach, describe, expect, it } from "vitest";
import { isNotFound, type PlatformClient } from "../../../sdk/index";
import { SDK_TIMING, type TestEmulator, useTestEmulator } from "../../support/emulator";

const APP = "demo-app";
let h: TestEmulator;
/** A client per test: what it listed in one test must not serve the next. */
let client: PlatformClient;

useTestEmulator({
  emulator: { timing: SDK_TIMING },
  resetEachTest: true,
  started: (started) => {
    h = started;
  },
});

beforeEach(() => {
  client = h.client();
});

/** The requests the emulator received since `before`, as "METHOD path". */
async function callsSince(before: number): Promise<string[]> {
  return (await h.requests()).slice(before).map((r) => `${r.method} ${r.path}`);
}

async function makeVolumes(count: number): Promise<string[]> {
  const setup = h.client();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await setup.volumes.create(APP, { name: `r${i}`, require_unique_zone: false })).id);
  }
  return ids;
}

describe("getListed: reads of many volumes of one app at once", () => {
  it("serves 20 reads at once with one GET and one list, each volume as a GET shows it", async () => {
    const ids = await makeVolumes(20);
    const before = (await h.requests()).length;
    const read = await Promise.all(ids.map((id) => client.volumes.getListed(APP, id)));
    const calls = await callsSince(before);
    expect(calls.filter((c) => c === `GET /v1/apps/${APP}/volumes`)).toHaveLength(1);
    expect(calls).toHaveLength(2);
    for (const [i, id] of ids.entries()) expect(read[i]).toEqual(await client.volumes.get(APP, id));
    // Listed volumes carry the block counts a GET reports (a create's answer zeroes them).
    expect(read.every((v) => v.blocks > 0)).toBe(true);
  });

  it("reads a lone volume with one GET, never a list", async () => {
    const [id] = await makeVolumes(1);
    const before = (await h.requests()).length;
    expect((await client.volumes.getListed(APP, id as string)).id).toBe(id);
    expect(await callsSince(before)).toEqual([`GET /v1/apps/${APP}/volumes/${id}`]);
  });

  it("answers 404 for a volume the list does not hold, as get does", async () => {
    const [a, b] = await makeVolumes(2);
    const reads = [a as string, b as string, "vol_doesnotexist"].map((id) =>
      client.volumes.getListed(APP, id).then(
        (v) => v.id,
        (err: unknown) => (isNotFound(err) ? "404" : err),
      ),
    );
    expect(await Promise.all(reads)).toEqual([a, b, "404"]);
  });

  it("never serves a read after a write from a list taken before it", async () => {
    const [a, b, c] = (await makeVolumes(3)) as [string, string, string];
    // The list these two reads share also holds c.
    await Promise.all([client.volumes.getListed(APP, a), client.volumes.getListed(APP, b)]);
    await client.volumes.update(APP, c, { snapshot_retention: 9 });
    const [, again] = await Promise.all([client.volumes.getListed(APP, a), client.volumes.getListed(APP, c)]);
    expect(again.snapshot_retention).toBe(9);
  });

  it("reads a volume twice from two GETs or lists, never twice from one list", async () => {
    const [a, b] = await makeVolumes(2);
    await Promise.all([
      client.volumes.getListed(APP, a as string),
      client.volumes.getListed(APP, b as string),
    ]);
    // Changed by someone else: the list that served the first reads must not serve b again.
    await h.client().volumes.update(APP, b as string, { snapshot_retention: 11 });
    expect((await client.volumes.getListed(APP, b as string)).snapshot_retention).toBe(11);
  });
});
