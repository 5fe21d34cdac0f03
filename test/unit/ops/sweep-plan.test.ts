import { describe, expect, it } from "vitest";
import type { ExportedDeployment, ListedVolume } from "../../../ops/recover-plan";
import { fileBackendLocks, judgeLock, parseDuration } from "../../../ops/stack-lock";
import { type CompletedUpdate, interruptedSince, planSweep } from "../../../ops/sweep-plan";

const VOLUME = "pulumi-nodejs:dynamic/platform:Volume";
const at = (hhmm: string) => new Date(`2026-11-23T${hhmm}:00Z`);
const HOUR = 3_600_000;

// Updates that completed: 08:00–08:05 (the first deploy), 10:00–10:10 (the rerun that made the twin).
const history: CompletedUpdate[] = [
  { startTime: at("08:00"), endTime: at("08:05") },
  { startTime: at("10:00"), endTime: at("10:10") },
];

const listed = (id: string, created: string, over: Partial<ListedVolume> = {}): ListedVolume => ({
  id,
  name: "data",
  region: "iad",
  state: "created",
  created_at: at(created).toISOString(),
  attached_machine_id: null,
  ...over,
});

const stack = (twinCreated: string): ExportedDeployment => ({
  version: 3,
  deployment: {
    resources: [
      {
        urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/platform:Volume::data",
        type: VOLUME,
        id: "vol_twin",
        inputs: { app: "a", name: "data", region: "iad" },
        outputs: { app: "a", name: "data", region: "iad", createdAt: at(twinCreated).toISOString() },
      },
    ],
  },
});

describe("interruptedSince", () => {
  it("is the end of the last update that completed before the twin's own update", () => {
    expect(interruptedSince(history, at("10:03"), 24 * HOUR)).toEqual(at("08:05"));
  });
  it("is never earlier than the window before the twin", () => {
    expect(interruptedSince(history, at("10:03"), HOUR)).toEqual(at("09:03"));
  });
  it("with no history, is the window before the twin", () => {
    expect(interruptedSince([], at("10:03"), 2 * HOUR)).toEqual(at("08:03"));
  });
});

describe("planSweep", () => {
  const sweep = (volumes: ListedVolume[], windowMs = 24 * HOUR) =>
    planSweep(stack("10:03"), history, async () => [listed("vol_twin", "10:03"), ...volumes], { windowMs });

  it("finds an unattached same-named volume made between the last completed update and the twin", async () => {
    expect((await sweep([listed("vol_orphan", "09:30")])).map((o) => o.id)).toEqual(["vol_orphan"]);
  });
  it("finds one made after the twin during the twin's own update (a killed CLI's provider process went on creating)", async () => {
    expect((await sweep([listed("vol_late", "10:04")])).map((o) => o.id)).toEqual(["vol_late"]);
  });
  it("without history, never names one made after the twin", async () => {
    const orphans = await planSweep(stack("10:03"), [], async () => [listed("vol_late", "10:04")], {
      windowMs: 24 * HOUR,
    });
    expect(orphans).toEqual([]);
  });
  it("never names a volume attached to a machine, older than the last completed update, made after the twin's update, or outside the window", async () => {
    const orphans = await sweep([
      listed("vol_attached", "09:30", { attached_machine_id: "m_1" }),
      listed("vol_before", "08:04"),
      listed("vol_after_twin_update", "10:11"),
      listed("vol_other_region", "09:30", { region: "ams" }),
      listed("vol_other_name", "09:30", { name: "logs" }),
      listed("vol_destroyed", "09:30", { state: "destroyed" }),
    ]);
    expect(orphans).toEqual([]);
    expect(await sweep([listed("vol_early", "08:30")], HOUR)).toEqual([]);
  });
  it("never names a volume the stack owns", async () => {
    expect(await sweep([])).toEqual([]);
  });
});

describe("stack locks", () => {
  const lock = (hostname: string, pid: number, startedHoursAgo: number) => ({
    file: "/b/.pulumi/locks/organization/p/dev/x.json",
    pid,
    username: "ci",
    hostname,
    timestamp: new Date(Date.now() - startedHoursAgo * HOUR),
  });
  it("a lock whose process runs on this machine is live, however old", () => {
    expect(judgeLock(lock("here", process.pid, 100), { staleAfterMs: HOUR, hostname: "here" }).stale).toBe(
      false,
    );
  });
  it("a lock whose process is gone on this machine is stale", () => {
    const verdict = judgeLock(lock("here", 2 ** 22 + 12345, 0), { staleAfterMs: HOUR, hostname: "here" });
    expect(verdict).toMatchObject({ stale: true, why: expect.stringMatching(/is gone on this machine/) });
  });
  it("a lock taken on another machine is stale only after --stale-after", () => {
    expect(judgeLock(lock("runner-1", 1, 0.5), { staleAfterMs: HOUR, hostname: "here" }).stale).toBe(false);
    expect(judgeLock(lock("runner-1", 1, 2), { staleAfterMs: HOUR, hostname: "here" }).stale).toBe(true);
  });
  it("reads no locks of a backend that is not file://", () => {
    expect(fileBackendLocks("https://api.pulumi.com", "p", "dev")).toBeUndefined();
  });
  it("parses durations and refuses what is not one", () => {
    expect(parseDuration("90m")).toBe(1.5 * HOUR);
    expect(parseDuration("2d")).toBe(48 * HOUR);
    expect(parseDuration("soon")).toBeUndefined();
  });
});
