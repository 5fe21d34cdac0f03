import { X509Certificate } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { days, makeCert } from "../support/certs";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import {
  type Observed,
  observedPreview,
  observedRefresh,
  observedUp,
  PEM,
  stateValue as value,
} from "../support/observed";
import { step } from "../support/step";
import { fakeTimeEnv, StackClock } from "../support/time-travel";

// A stack's lifetime through the real engine: docs/day-2.md's shapes (quickstart: volume, snapshot,
// restored volume; a volume; both certificate kinds on one hostname, a wildcard, a certificate
// that expires in real time during the test; a scheduled rotation and one without a schedule),
// then time moved forward in steps, with `pulumi refresh`, `pulumi preview` and `pulumi up` of the
// unchanged program at each, one volume grown by hand and one unrelated program change. At every
// step: exit 0, no delete, no replace but the rotations the schedule asks for, no resource
// recreated at the platform, and the warnings that age calls for (and no others).

const API = "api.life.example.com";
const SHORT = "short.life.example.com";
/** How long the short-lived certificate is valid in real time: it expires during the test. */
const SHORT_LIVED_MS = 120_000;

const AGES = [3, 10, 40, 100, 400] as const;

/** What each step must plan, and which warnings it must show (by resource). */
interface Expected {
  changes: string[];
  warnings: RegExp[];
}

const warn = {
  shortExpired: /^short: EXPIRED: the custom certificate of short\.life\.example\.com expired on /,
  apiExpiring: /^api: the custom certificate of api\.life\.example\.com expires on .* \(in \d+ days\)/,
  apiExpired: /^api: EXPIRED: the custom certificate of api\.life\.example\.com expired on /,
  logsGrown: /^logs: volume logs \(vol_\w+\) is 10 GB at the platform, more than sizeGb 3 in the program/,
};

function expectedAt(age: number): Expected {
  // rotationDays 30 from day 0: due at 40 (next 70), at 100 (next 130) and at 400.
  const rotation = age >= 40 ? ["replace scheduled"] : [];
  const unrelated = age === 100 ? ["update logs"] : [];
  const api = age >= 60 ? [warn.apiExpired] : age >= 30 ? [warn.apiExpiring] : [];
  const grown = age >= 10 ? [warn.logsGrown] : [];
  return { changes: [...unrelated, ...rotation].sort(), warnings: [warn.shortExpired, ...api, ...grown] };
}

/** The warnings shown, matched one to one against the expected patterns (no more, no fewer). */
function expectWarnings(run: Observed<unknown>, expected: RegExp[], label: string): void {
  const shown = [...new Set(run.warnings)];
  for (const pattern of expected) {
    expect(shown, `${label}: a warning matching ${pattern}`).toContainEqual(expect.stringMatching(pattern));
  }
  const unexpected = shown.filter((w) => !expected.some((p) => p.test(w)));
  expect(unexpected, `${label}: warnings nobody asked for`).toEqual([]);
}

describe("a stack's lifetime: the README's shapes over 400 days of refresh and up", () => {
  const e = useE2eEmulator();

  it("stays green, replaces and deletes nothing, keeps every id, and warns ahead", async () => {
    const [api, short] = await Promise.all([
      makeCert(API, [API], { to: Date.now() + days(60) }),
      makeCert(SHORT, [SHORT], { to: Date.now() + SHORT_LIVED_MS }),
    ]);
    const shortExpiry = new Date(new X509Certificate(short.cert).validTo).getTime();
    const config = {
      ...platformConfig(e.emu),
      dataRetention: "2",
      rotationDays: "30",
      apiChain: api.cert,
      apiKey: { value: api.key, secret: true },
      shortChain: short.cert,
      shortKey: { value: short.key, secret: true },
    };
    const table: string[] = ["| age (days) | refresh | preview / up plan | warnings |", "|---|---|---|---|"];
    await withStack(
      { programDir: programPath("lifetime"), config, env: fakeTimeEnv() },
      async ({ stack }) => {
        const clock = new StackClock(e, stack);
        const first = await step("day 0: up", () => observedUp(stack));
        expect(first.warnings).toContainEqual(
          expect.stringMatching(
            /^short: the custom certificate of short\.life\.example\.com expires on .* \(in less than a day\)/,
          ),
        );
        const ids = ["dataId", "restoredId", "logsId", "snapshotId"].map(
          (k) => [k, value(first.result, k)] as const,
        );
        const rotations = [value(first.result, "scheduledRotatedAt")];
        const manualRotatedAt = value(first.result, "manualRotatedAt");

        await step(
          "day 0: the short-lived certificate expires in real time; the stack stays green",
          async () => {
            await stack.preview({ expectNoChanges: true });
            await stack.refresh({ expectNoChanges: true });
            await sleep(Math.max(0, shortExpiry - Date.now() + 1000));
            const preview = await observedPreview(stack);
            expect(preview.changes).toEqual([]);
            expectWarnings(preview, [warn.shortExpired], "day 0 after expiry");
            table.push(`| 0 | — | none | short expired |`);
          },
        );

        for (const age of AGES) {
          await clock.to(age);
          const expected = expectedAt(age);
          await step(`day ${age}`, async () => {
            if (age === 10) {
              // An operator grows the volume by hand.
              await e.api("PUT", `/v1/apps/demo-app/volumes/${value(first.result, "logsId")}/extend`, {
                size_gb: 10,
              });
            }
            const refresh = await observedRefresh(stack);
            const refreshed = refresh.result.summary.resourceChanges ?? {};
            expect(Object.keys(refreshed).filter((op) => op !== "same" && op !== "update")).toEqual([]);
            if (age === 100) await stack.setConfig("logsRetention", { value: "9" });

            const preview = await observedPreview(stack);
            expect(preview.changes.sort()).toEqual(expected.changes);
            // A resource planned for an update has unknown outputs at preview: its warning shows at up.
            const stillKnown = expected.warnings.filter((w) => !(age === 100 && w === warn.logsGrown));
            expectWarnings(preview, stillKnown, `day ${age} preview`);

            const up = await observedUp(stack);
            expect(up.changes.sort()).toEqual(expected.changes);
            expectWarnings(up, expected.warnings, `day ${age} up`);
            expect(`${refresh.output}${preview.output}${up.output}`).not.toMatch(PEM);

            // Nothing recreated at the platform: the same ids, all still there.
            for (const [key, id] of ids) expect(value(up.result, key), key).toBe(id);
            const volumes = (await e.state()).volumes.map((v: { id: string }) => v.id);
            for (const [key, id] of ids) if (key !== "snapshotId") expect(volumes, key).toContain(id);
            expect(value(up.result, "manualRotatedAt")).toBe(manualRotatedAt);
            const rotatedAt = value(up.result, "scheduledRotatedAt");
            if (expected.changes.includes("replace scheduled")) {
              expect(rotations).not.toContain(rotatedAt);
              rotations.push(rotatedAt);
            } else {
              expect(rotatedAt).toBe(rotations.at(-1));
            }
            await stack.preview({ expectNoChanges: true });

            table.push(
              `| ${age} | ${JSON.stringify(refreshed)} | ${expected.changes.join(", ") || "none"} | ${[
                ...new Set(up.warnings.map((w) => w.slice(0, w.indexOf(":"))).sort()),
              ].join(", ")} |`,
            );
          });
        }
        // The snapshot aged out long ago and is still the restored volume's source.
        const last = await stack.up();
        expect(value(last, "snapshotListed")).toBe(false);
        expect(value(last, "restoredFrom")).toBe(value(first.result, "snapshotId"));
        expect(value(last, "logsSize")).toBe(10);
        console.log(`lifetime table\n${table.join("\n")}`);
      },
    );
  });
});
