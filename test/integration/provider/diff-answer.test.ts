import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ResourceKey, registry } from "../../../provider/kinds/registry";
import * as runtime from "../../../provider/kinds/runtime-entry";
import { providers } from "../../../provider/kinds/runtimes";
import type { PropertyEffect } from "../../../provider/model/change-plan";
import { UNKNOWN } from "../../../provider/model/validation";
import { makeCert } from "../../support/certs";
import { type ProviderHarness, startHarness, withProvider } from "./helpers";

// Each kind's one answer for a diff (provider/model/change-plan), for each of its inputs and each kind
// of change, against what its `update` then sends to the platform (the emulator's request log):
// an `update` sends what changes it, a `record` or a `warn` sends nothing that changes anything,
// a `replace` is never an update. The engine derives its plan from the same answer (the plugin's
// detailedDiff, the dynamic host's changes and replaces); test/e2e/diff-answer.test.ts checks that
// through the engine for the volume.

let h: ProviderHarness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const APP = "demo-app";
type Props = Record<string, unknown>;

/** The requests that change something at the platform, as `METHOD /path` with ids as {id}. */
async function changingRequests(run: () => Promise<unknown>): Promise<string[]> {
  await h.control.requests.clear();
  await run();
  return (await h.requests())
    .filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"))
    .map((r) => `${r.method} ${r.path.replace(/vol_[a-z0-9]+/g, "{id}")}`);
}

/** One change: the new inputs (from the created resource's inputs) and the answer expected. */
interface Case {
  change: string;
  news: (inputs: Props) => Props;
  answer: Partial<Record<string, PropertyEffect>>;
  /** What the update sends that changes the platform (only for an answer without a replace). */
  sends?: string[];
}

/** A kind: what to create, and its cases. */
interface KindCases {
  create: () => Promise<Props>;
  cases: Case[];
}

const volumeRoute = `/v1/apps/${APP}/volumes/{id}`;

const kinds: Record<ResourceKey, () => KindCases> = {
  volume: () => ({
    create: async () => ({ app: APP, name: "answer", region: "ord", sizeGb: 3, snapshotRetention: 5 }),
    cases: [
      { change: "app", news: (i) => ({ ...i, app: "other-app" }), answer: { app: "replace" } },
      { change: "name", news: (i) => ({ ...i, name: "other" }), answer: { name: "replace" } },
      { change: "region", news: (i) => ({ ...i, region: "ams" }), answer: { region: "replace" } },
      { change: "encrypted", news: (i) => ({ ...i, encrypted: false }), answer: { encrypted: "replace" } },
      { change: "fstype", news: (i) => ({ ...i, fstype: "xfs" }), answer: { fstype: "replace" } },
      {
        change: "machinesOnly",
        news: (i) => ({ ...i, machinesOnly: true }),
        answer: { machinesOnly: "replace" },
      },
      {
        change: "requireUniqueZone",
        news: (i) => ({ ...i, requireUniqueZone: false }),
        answer: { requireUniqueZone: "replace" },
      },
      { change: "compute", news: (i) => ({ ...i, compute: { cpus: 2 } }), answer: { compute: "replace" } },
      {
        change: "snapshotId on a volume not restored (a restore)",
        news: (i) => ({ ...i, snapshotId: "vs_x" }),
        answer: { snapshotId: "replace" },
      },
      {
        change: "sourceVolumeId on a volume not forked (a fork)",
        news: (i) => ({ ...i, sourceVolumeId: "vol_x" }),
        answer: { sourceVolumeId: "replace" },
      },
      {
        change: "adoptVolumeId naming another volume",
        news: (i) => ({ ...i, adoptVolumeId: "vol_other" }),
        answer: { adoptVolumeId: "replace" },
      },
      {
        change: "snapshotRetention",
        news: (i) => ({ ...i, snapshotRetention: 9 }),
        answer: { snapshotRetention: "update" },
        sends: [`PUT ${volumeRoute}`],
      },
      {
        change: "autoBackupEnabled",
        news: (i) => ({ ...i, autoBackupEnabled: false }),
        answer: { autoBackupEnabled: "update" },
        sends: [`PUT ${volumeRoute}`],
      },
      {
        change: "sizeGb above the platform's size",
        news: (i) => ({ ...i, sizeGb: 4 }),
        answer: { sizeGb: "update" },
        sends: [`PUT ${volumeRoute}/extend`],
      },
      {
        change: "restoreTimeoutSeconds",
        news: (i) => ({ ...i, restoreTimeoutSeconds: 60 }),
        answer: { restoreTimeoutSeconds: "record" },
        sends: [],
      },
      {
        change: "adoptVolumeId naming this volume",
        news: (i) => ({ ...i, adoptVolumeId: "self" }),
        answer: { adoptVolumeId: "record" },
        sends: [],
      },
      { change: "nothing", news: (i) => i, answer: {} },
    ],
  }),
  volumeSnapshot: () => ({
    create: async () => {
      const volume = await runtime.volume.create(withProvider({ app: APP, name: "snapped", region: "ord" }));
      return { app: APP, volumeId: volume.id, triggers: { v: "1" } };
    },
    cases: [
      { change: "app", news: (i) => ({ ...i, app: "other-app" }), answer: { app: "replace" } },
      { change: "triggers", news: (i) => ({ ...i, triggers: { v: "2" } }), answer: { triggers: "replace" } },
      { change: "triggers removed", news: ({ triggers: _, ...i }) => i, answer: { triggers: "replace" } },
      {
        change: "volumeId (a snapshot is an event)",
        news: (i) => ({ ...i, volumeId: "vol_other" }),
        answer: { volumeId: "warn" },
      },
      {
        change: "volumeId beside waitTimeoutSeconds",
        news: (i) => ({ ...i, volumeId: "vol_other", waitTimeoutSeconds: 60 }),
        answer: { volumeId: "warn", waitTimeoutSeconds: "record" },
        sends: [],
      },
    ],
  }),
  acmeCertificate: () => ({
    create: async () => ({ app: APP, hostname: "answer-acme.example.com" }),
    cases: [
      { change: "app", news: (i) => ({ ...i, app: "other-app" }), answer: { app: "replace" } },
      {
        change: "hostname",
        news: (i) => ({ ...i, hostname: "other.example.com" }),
        answer: { hostname: "replace" },
      },
      // An update that waits for the platform, and sends nothing.
      {
        change: "waitForActive",
        news: (i) => ({ ...i, waitForActive: false }),
        answer: { waitForActive: "update" },
        sends: [],
      },
      {
        change: "waitTimeoutSeconds",
        news: (i) => ({ ...i, waitTimeoutSeconds: 60 }),
        answer: { waitTimeoutSeconds: "record" },
        sends: [],
      },
      {
        change: "adoptExisting",
        news: (i) => ({ ...i, adoptExisting: true }),
        answer: { adoptExisting: "record" },
        sends: [],
      },
    ],
  }),
  customCertificate: () => {
    const host = "answer-custom.example.com";
    let next: { cert: string; key: string };
    return {
      create: async () => {
        const names = [host, "other-custom.example.com"];
        const [first, second] = await Promise.all([makeCert(host, names), makeCert(host, names)]);
        next = second;
        return { app: APP, hostname: host, fullchain: first.cert, privateKey: first.key };
      },
      cases: [
        { change: "app", news: (i) => ({ ...i, app: "other-app" }), answer: { app: "replace" } },
        {
          change: "a new chain and key (imported again in place)",
          news: (i) => ({ ...i, fullchain: next.cert, privateKey: next.key }),
          answer: { fullchain: "update", privateKey: "update" },
          sends: [`POST /v1/apps/${APP}/certificates/custom`],
        },
        {
          change: "hostname",
          news: (i) => ({ ...i, hostname: "other-custom.example.com" }),
          answer: { hostname: "replace" },
        },
        {
          change: "waitForActive",
          news: (i) => ({ ...i, waitForActive: false }),
          answer: { waitForActive: "update" },
          sends: [],
        },
        {
          change: "waitTimeoutSeconds and adoptExisting",
          news: (i) => ({ ...i, waitTimeoutSeconds: 60, adoptExisting: true }),
          answer: { waitTimeoutSeconds: "record", adoptExisting: "record" },
          sends: [],
        },
        {
          change: "expiryWarningDays",
          news: (i) => ({ ...i, expiryWarningDays: 5 }),
          answer: { expiryWarningDays: "record" },
          sends: [],
        },
      ],
    };
  },
  postgresPasswordRotation: () => ({
    create: async () => ({ clusterId: "demo-pg", username: "app_user", triggers: { v: "1" } }),
    cases: [
      { change: "clusterId", news: (i) => ({ ...i, clusterId: "pg2" }), answer: { clusterId: "replace" } },
      {
        change: "triggers (one user)",
        news: (i) => ({ ...i, triggers: { v: "2" } }),
        answer: { triggers: "replace" },
      },
      {
        change: "username (one user)",
        news: (i) => ({ ...i, username: "app_user_b" }),
        answer: { username: "replace" },
      },
      {
        change: "killSessions",
        news: (i) => ({ ...i, killSessions: true }),
        answer: { killSessions: "record" },
        sends: [],
      },
      {
        change: "rotationDays added (the schedule starts, computed at check)",
        news: (i) => ({ ...i, rotationDays: 30 }),
        answer: { rotationDays: "record", nextRotationAt: "record", scheduledRotations: "record" },
        sends: [],
      },
      {
        change: "alternateUsername added (the next rotation rotates it)",
        news: (i) => ({ ...i, alternateUsername: "app_user_b" }),
        answer: { alternateUsername: "record" },
        sends: [],
      },
      {
        change: "triggers with two users (an in-place rotation)",
        news: (i) => ({ ...i, alternateUsername: "app_user_b", triggers: { v: "2" } }),
        answer: { alternateUsername: "record", triggers: "update" },
        sends: ["POST /v1/postgres/demo-pg/users/app_user_b/rotate_password"],
      },
    ],
  }),
};

describe.each(Object.keys(kinds) as ResourceKey[])(
  "%s: the kind's answer and what its update sends",
  (key) => {
    const provider = providers[key];
    const made = kinds[key]();
    let created: { id: string; outs: Props; inputs: Props };
    beforeAll(async () => {
      const inputs = await made.create();
      const result = await provider.create(withProvider(inputs));
      created = { ...result, inputs };
    });

    it("names every declared input in some case (a new input needs its case)", () => {
      const named = new Set(made.cases.flatMap((c) => Object.keys(c.answer)));
      const declared = Object.keys(registry[key].declaration.inputs);
      const missing = declared.filter((k) => !named.has(k));
      expect(missing).toEqual([]);
    });

    it.each(made.cases)("$change", async ({ news, answer, sends }) => {
      const self = (value: unknown) => (value === "self" ? created.id : value);
      const given = Object.fromEntries(Object.entries(news(created.inputs)).map(([k, v]) => [k, self(v)]));
      const checked = await provider.check(created.inputs, withProvider(given));
      expect(checked.failures).toEqual([]);
      const outcome = await provider.diff(
        created.id,
        created.outs,
        checked.inputs,
        withProvider(created.inputs),
      );
      expect(outcome.properties).toEqual(answer);
      const effects = Object.values(answer);
      expect(outcome.changes).toBe(effects.some((e) => e !== "warn"));
      expect(outcome.replaces).toEqual(Object.keys(answer).filter((k) => answer[k] === "replace"));
      if (outcome.replaces.length > 0 || !outcome.changes) {
        expect(sends).toBeUndefined();
        return;
      }
      // What the up does with the answer: the update, and what it sends.
      expect(await changingRequests(() => provider.update(created.id, created.outs, checked.inputs))).toEqual(
        sends,
      );
    });
  },
);

describe("the program's replaceOnChanges, carried by the classes, turns a changed input into a replace", () => {
  const restored = {
    app: APP,
    name: "restored",
    region: "ord",
    snapshotId: "vs_a",
    volumeId: "vol_r",
    sizeGb: 3,
    programSizeGb: 3,
    programInputs: ["name", "region", "sizeGb"],
  };
  const inputs = { app: APP, name: "restored", region: "ord", snapshotId: "vs_a", sizeGb: 3 };
  it("a restored volume's new snapshotId: a warning by default, a restore with the option", async () => {
    const news = { ...inputs, snapshotId: "vs_b" };
    expect((await runtime.volume.diff("vol_r", restored, news, inputs)).properties).toEqual({
      snapshotId: "warn",
    });
    const asked = { ...news, __replaceOnChanges: ["snapshotId"] };
    expect(await runtime.volume.diff("vol_r", restored, asked, inputs)).toMatchObject({
      changes: true,
      replaces: ["snapshotId"],
      properties: { snapshotId: "replace" },
    });
    // An unknown snapshot id (its snapshot taken again at this up) may be another one: a restore.
    const unknown = { ...inputs, snapshotId: UNKNOWN, __replaceOnChanges: ["*"] };
    expect((await runtime.volume.diff("vol_r", restored, unknown, inputs)).replaces).toEqual(["snapshotId"]);
    // The option names only what it names; an unchanged snapshotId is no change.
    const other = { ...news, __replaceOnChanges: ["sourceVolumeId"] };
    expect((await runtime.volume.diff("vol_r", restored, other, inputs)).changes).toBe(false);
    expect(
      (await runtime.volume.diff("vol_r", restored, { ...inputs, __replaceOnChanges: ["*"] }, inputs))
        .changes,
    ).toBe(false);
  });
  it("check carries the option to diff; the plugin's diff warns of a moved source only when it replaces nothing", async () => {
    const lines: string[] = [];
    const plugin = runtime.volume.about(async (m) => void lines.push(m));
    const news = { ...inputs, snapshotId: "vs_b" };
    // The plugin's check says nothing of it: only the diff knows whether the plan replaces.
    expect((await plugin.check(inputs, news)).inputs).toMatchObject({ snapshotId: "vs_b" });
    expect(lines).toEqual([]);
    await plugin.diff("vol_r", restored, news, inputs);
    expect(lines).toEqual([
      expect.stringMatching(
        /^volume restored: snapshotId changes from vs_a to vs_b.*Python `replace_with=\[snap\]`/,
      ),
    ]);
    lines.length = 0;
    const asked = { ...news, __replaceOnChanges: ["snapshotId"] };
    expect((await plugin.check(inputs, asked)).inputs.__replaceOnChanges).toEqual(["snapshotId"]);
    await plugin.diff("vol_r", restored, asked, inputs);
    // Replaced anyway (a changed region): a restore from vs_b, nothing to advise.
    await plugin.diff("vol_r", restored, { ...news, region: "iad" }, inputs);
    expect(lines).toEqual([]);
    // Once the up recorded the new value among the inputs, nothing more is said.
    await plugin.diff("vol_r", { ...restored, snapshotId: "vs_a" }, news, news);
    expect(lines).toEqual([]);
  });

  it("the dynamic door's check warns of a moved source, unless an option or a declared input replaces the volume", async () => {
    const warned = async (news: Props) => {
      const lines: string[] = [];
      const spy = vi.spyOn(console, "warn").mockImplementation((text: string) => void lines.push(text));
      try {
        await runtime.volume.check(inputs, news);
      } finally {
        spy.mockRestore();
      }
      return lines;
    };
    expect(await warned({ ...inputs, snapshotId: "vs_b" })).toEqual([
      expect.stringMatching(
        /^warning: volume restored: snapshotId changes from vs_a to vs_b.*TypeScript `replaceWith: \[snap\]`/,
      ),
    ]);
    expect(await warned({ ...inputs, snapshotId: "vs_b", __replaceOnChanges: ["snapshotId"] })).toEqual([]);
    expect(await warned({ ...inputs, snapshotId: "vs_b", __replacedByOption: true })).toEqual([]);
    expect(await warned({ ...inputs, snapshotId: "vs_b", region: "iad" })).toEqual([]);
  });
});
