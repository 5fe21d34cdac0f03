/**
 * An answer that cannot be trusted, on every route that changes something, through either door:
 * the emulator acts, then answers 500, 502, 503 or 504 (`status-after`) or drops the connection
 * (`drop-after`). Creates (three volumes, a snapshot, two certificates, a rotation), then an
 * extend and a PUT, then the DELETEs of `destroy`: after each, exactly one of each thing at the
 * platform and the stack owns it; a run either succeeds or fails naming the unknown outcome, and
 * the next plain run converges with a clean preview.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { expect } from "vitest";
import type { FaultSpec } from "../../emulator";
import { globToRegExp } from "../../emulator/faults";
import { makeCert } from "./certs";
import { platformConfig } from "./e2e";
import type { TestEmulator } from "./emulator";
import { programPath, withStack } from "./engine";

const programDir = programPath("unknown-outcome");
const APP = "demo-app";
const VOLUME_NAMES = ["uo_data", "uo_fork", "uo_restored"];
const HOSTNAMES = ["a.uo.example.com", "c.uo.example.com"];

/** The untrustworthy answers: a status after the handler ran, or no answer at all. */
export const UNKNOWN_OUTCOMES = [500, 502, 503, 504, "drop"] as const;
export type UnknownOutcome = (typeof UNKNOWN_OUTCOMES)[number];

function fault(outcome: UnknownOutcome, method: string, path: string, times: number): FaultSpec {
  return outcome === "drop"
    ? { method, path, kind: "drop-after", times }
    : { method, path, kind: "status-after", status: outcome, times };
}

/**
 * Faults for one phase; the more specific path first (a pattern also matches the paths below it).
 * Creates answer every attempt so (their lost-answer look must find what the first one made);
 * the rest answer their first request so.
 */
const PHASES = {
  create: (o: UnknownOutcome) => [
    fault(o, "POST", "/v1/apps/*/volumes/*/snapshots", 0),
    fault(o, "POST", "/v1/apps/*/volumes", 0),
    fault(o, "POST", "/v1/apps/*/certificates/acme", 0),
    fault(o, "POST", "/v1/apps/*/certificates/custom", 0),
    fault(o, "POST", "/v1/postgres/*/users/*/rotate_password", 1),
  ],
  update: (o: UnknownOutcome) => [
    fault(o, "PUT", "/v1/apps/*/volumes/*/extend", 1),
    fault(o, "PUT", "/v1/apps/*/volumes/*", 1),
  ],
  destroy: (o: UnknownOutcome) => [
    fault(o, "DELETE", "/v1/apps/*/volumes/*", 1),
    fault(o, "DELETE", "/v1/apps/*/certificates/**", 2),
  ],
};

/** What one phase's runs gave: the output of the run that succeeded, and what the first run met. */
interface PhaseRun {
  stdout: string;
  runs: number;
  /** The first run's error message, when it failed. */
  failure: string | undefined;
  faults: FaultSpec[];
  answered: { method: string; path: string; status: number; dropped?: "before" | "after" }[];
}

/**
 * Runs `step` with the phase's faults on; when it fails, runs it once more with the faults off
 * (a plain rerun), which must succeed. What the platform then holds is checked by the caller,
 * then {@link expectHonestPhase}.
 */
async function converges(
  e: TestEmulator,
  faults: FaultSpec[],
  step: () => Promise<{ stdout: string }>,
): Promise<PhaseRun> {
  await e.control.faults.clear();
  await e.control.requests.clear();
  for (const f of faults) await e.control.faults.add(f);
  let first: { stdout: string } | undefined;
  let failure: string | undefined;
  try {
    first = await step();
  } catch (err) {
    failure = String((err as Error).message);
  } finally {
    await e.control.faults.clear();
  }
  const answered = await e.control.requests.list();
  if (first) return { stdout: first.stdout, runs: 1, failure, faults, answered };
  return { stdout: (await step()).stdout, runs: 2, failure, faults, answered };
}

/** Every fault answered a request of its route, and a failed first run named the unknown outcome. */
function expectHonestPhase(phase: PhaseRun): void {
  for (const f of phase.faults) {
    const route = globToRegExp(f.path ?? "/");
    const hit = phase.answered.some(
      (r) =>
        r.method === f.method &&
        route.test(r.path) &&
        (f.kind === "drop-after" ? r.dropped === "after" : r.status === f.status),
    );
    expect(hit, `${f.kind} ${f.status ?? ""} answered ${f.method} ${f.path}`).toBe(true);
  }
  if (phase.failure !== undefined)
    expect(phase.failure, "a failed run names the unknown outcome").toMatch(
      /outcome unknown|answer was lost/,
    );
}

/** What the platform holds of the program's things, and what the stack says it owns. */
async function expectOneOfEach(e: TestEmulator, stack: Stack): Promise<void> {
  const state = await e.state();
  const volumes = state.volumes.filter((v) => v.app === APP && v.name.startsWith("uo_"));
  expect(volumes.map((v) => v.name).sort(), "one volume of each name at the platform").toEqual(VOLUME_NAMES);
  const outputs = await stack.outputs();
  const owned = [...((outputs.volumeIds?.value as string[]) ?? [])].sort();
  expect(owned, "the stack owns them").toEqual(volumes.map((v) => v.id).sort());

  const dataId = volumes.find((v) => v.name === "uo_data")?.id;
  const onDemand = state.snapshots.filter((s) => s.volume_id === dataId).map((s) => s.id);
  expect(onDemand, "one snapshot of the data volume, the stack's").toEqual([outputs.snapshotId?.value]);

  const hostnames = state.certificates.map((c) => c.hostname).filter((h) => h.endsWith(".uo.example.com"));
  expect(hostnames.sort()).toEqual(HOSTNAMES);
  const ok = await e.control.postgres.login("demo-pg", {
    username: "app_user",
    password: String(outputs.password?.value),
  });
  expect(ok, "the recorded password logs in").toBe(true);
}

/** The scenario for one untrustworthy answer through one door. */
export async function unknownOutcomeScenario(
  e: TestEmulator,
  door: "dynamic" | "plugin",
  outcome: UnknownOutcome,
): Promise<void> {
  const pem = await makeCert("c.uo.example.com");
  const config = {
    ...platformConfig(e.emu),
    door,
    cert: pem.cert,
    key: { value: pem.key, secret: true },
  };
  await e.control.reset();
  await withStack({ programDir, config }, async ({ stack }) => {
    const created = await converges(e, PHASES.create(outcome), () => stack.up());
    await expectOneOfEach(e, stack);
    expectHonestPhase(created);
    // This run's own untrusted answers are not another run's leftovers.
    expect(created.stdout).not.toMatch(/unattached volume/);
    await stack.preview({ expectNoChanges: true });

    await stack.setAllConfig({ size: { value: "4" }, retention: { value: "9" } });
    const updated = await converges(e, PHASES.update(outcome), () => stack.up());
    const data = (await e.state()).volumes.find((v) => v.name === "uo_data");
    expect([data?.size_gb, data?.snapshot_retention]).toEqual([4, 9]);
    await expectOneOfEach(e, stack);
    expectHonestPhase(updated);
    await stack.preview({ expectNoChanges: true });

    const destroyed = await converges(e, PHASES.destroy(outcome), () => stack.destroy());
    console.log(
      `unknown outcome ${outcome} (${door} door): runs to converge create/update/destroy ${created.runs}/${updated.runs}/${destroyed.runs}`,
    );
    const after = await e.state();
    expect(after.volumes.filter((v) => v.name.startsWith("uo_"))).toEqual([]);
    expect(after.certificates.filter((c) => c.hostname.endsWith(".uo.example.com"))).toEqual([]);
    expectHonestPhase(destroyed);
  });
}
