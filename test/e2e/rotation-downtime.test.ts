import type { UpResult } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { expectNoPlaintext, plainExport, platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { observedPreview, observedUp } from "../support/observed";
import { step } from "../support/step";
import { fakeTimeEnv, StackClock } from "../support/time-travel";

// An app reads its database credential from the stack outputs before each `pulumi up` and picks
// up the new one only afterwards (a deploy, a secret sync): across five scheduled rotations
// (rotationDays 30, the clock moved as in the lifetime suite), does its credential keep logging in
// while `up` rotates? With alternateUsername: always. With one user: never. Last, alternating
// rotations through the provider plugin's class (issue 30), with the passwords' secrecy.

const ROTATE = /\/users\/[^/]+\/rotate_password$/;

interface Credential {
  username: string;
  password: string;
}

const credentialOf = (up: UpResult): Credential => ({
  username: String(up.outputs.username?.value),
  password: String(up.outputs.password?.value),
});

/** One mode's run: the logins the app's held credential got right after each due `up`, and who was current. */
interface Run {
  heldCredentialLoggedIn: boolean[];
  currentUsers: string[];
  rotateRequestsPerDueUp: number[];
}

async function fiveScheduledRotations(
  e: ReturnType<typeof useE2eEmulator>,
  alternateUsername: string | undefined,
): Promise<Run> {
  const config = {
    ...platformConfig(e.emu),
    ...(alternateUsername ? { alternateUsername } : {}),
  };
  const run: Run = { heldCredentialLoggedIn: [], currentUsers: [], rotateRequestsPerDueUp: [] };
  await withStack(
    { programDir: programPath("rotation-downtime"), config, env: fakeTimeEnv() },
    async ({ stack }) => {
      const clock = new StackClock(e, stack);
      const rotations = async () => (await e.requests()).filter((r) => ROTATE.test(r.path)).length;
      let held = await step("day 0: up", async () => {
        const up = await stack.up();
        expect(up.outputs.password?.secret).toBe(true);
        expect(up.outputs.previousPassword?.secret).toBe(true);
        return credentialOf(up);
      });
      run.currentUsers.push(held.username);
      expect(await e.control.postgres.login("demo-pg", held)).toBe(true);

      for (let n = 1; n <= 5; n++) {
        await clock.to(30 * n + 1);
        await step(`day ${30 * n + 1}: rotation ${n} is due`, async () => {
          const preview = await observedPreview(stack);
          expect(preview.changes).toEqual([alternateUsername ? "update app-db" : "replace app-db"]);
          const before = await rotations();
          const up = await stack.up();
          run.rotateRequestsPerDueUp.push((await rotations()) - before);
          // The app has not picked up the new credential yet: does the one it holds still work?
          run.heldCredentialLoggedIn.push(await e.control.postgres.login("demo-pg", held));
          held = credentialOf(up);
          run.currentUsers.push(held.username);
          expect(await e.control.postgres.login("demo-pg", held)).toBe(true);
          if (alternateUsername) {
            expect(up.outputs.previousUsername?.value).toBe(run.currentUsers[n - 1]);
            expect(
              await e.control.postgres.login("demo-pg", {
                username: String(up.outputs.previousUsername?.value),
                password: String(up.outputs.previousPassword?.value),
              }),
            ).toBe(true);
          } else {
            expect(up.outputs.previousUsername?.value).toBeNull();
          }
        });
        if (n === 1) {
          await clock.to(30 * n + 10);
          await step(`day ${30 * n + 10}: nothing is due, nothing is rotated`, async () => {
            const before = await rotations();
            const up = await observedUp(stack);
            expect(up.changes).toEqual([]);
            expect((await rotations()) - before).toBe(0);
            await stack.preview({ expectNoChanges: true });
            await stack.refresh({ expectNoChanges: true });
          });
        }
      }
      await step("destroy", () => stack.destroy());
    },
  );
  return run;
}

describe("rotating without downtime: alternateUsername", () => {
  const e = useE2eEmulator();

  it("the credential an app holds is never refused through five scheduled rotations; users alternate; one rotate request per due up", async () => {
    const run = await fiveScheduledRotations(e, "app_user_b");
    expect(run.heldCredentialLoggedIn).toEqual([true, true, true, true, true]);
    expect(run.currentUsers).toEqual([
      "app_user",
      "app_user_b",
      "app_user",
      "app_user_b",
      "app_user",
      "app_user_b",
    ]);
    expect(run.rotateRequestsPerDueUp).toEqual([1, 1, 1, 1, 1]);
  });
});

describe("rotating with one user (no alternateUsername)", () => {
  const e = useE2eEmulator();

  it("refuses the credential the app holds after every scheduled rotation, until it picks up the new one", async () => {
    const run = await fiveScheduledRotations(e, undefined);
    expect(run.heldCredentialLoggedIn).toEqual([false, false, false, false, false]);
    expect(run.currentUsers).toEqual([
      "app_user",
      "app_user",
      "app_user",
      "app_user",
      "app_user",
      "app_user",
    ]);
    expect(run.rotateRequestsPerDueUp).toEqual([1, 1, 1, 1, 1]);
  });
});

describe("alternateUsername through the provider plugin (`pulumi-platform/plugin`)", () => {
  const e = useE2eEmulator();

  it("two rotations alternate the current and previous users; the passwords are secrets in the state and never printed", async () => {
    const config = { ...platformConfig(e.emu), door: "plugin", alternateUsername: "app_user_b" };
    const programDir = programPath("rotation-downtime");
    await withStack({ programDir, config }, async (ctx) => {
      const { stack } = ctx;
      const ups = [await step("up", () => observedUp(stack))];
      for (const run of ["1", "2"]) {
        await stack.setConfig("triggers", { value: run });
        const up = await step(`rotation ${run} (triggers)`, () => observedUp(stack));
        expect(up.changes).toEqual(["update app-db"]);
        ups.push(up);
      }
      const users = ups.map(({ result }) => [
        result.outputs.username?.value,
        result.outputs.previousUsername?.value,
      ]);
      expect(users).toEqual([
        ["app_user", null],
        ["app_user_b", "app_user"],
        ["app_user", "app_user_b"],
      ]);
      // Both users of the last rotation log in: the credential an app held still works.
      const last = ups[2]?.result.outputs ?? {};
      for (const [username, password] of [
        [last.username, last.password],
        [last.previousUsername, last.previousPassword],
      ]) {
        expect(
          await e.control.postgres.login("demo-pg", {
            username: String(username?.value),
            password: String(password?.value),
          }),
        ).toBe(true);
      }

      const passwords = ups.map(({ result }) => String(result.outputs.password?.value));
      expect(new Set(passwords).size).toBe(3);
      const exported = plainExport(ctx, stack.name, programDir);
      expectNoPlaintext(exported, e.emu.token, passwords);
      const rotation = (
        JSON.parse(exported).deployment.resources as { type: string; outputs: Record<string, unknown> }[]
      ).find((r) => r.type === "platform:index:PostgresPasswordRotation");
      for (const key of ["password", "previousPassword"]) {
        expect(rotation?.outputs[key], key).toEqual({
          "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
          ciphertext: expect.stringMatching(/^v1:/),
        });
      }
      for (const up of ups) {
        expect(up.result.outputs.password?.secret).toBe(true);
        for (const password of passwords) expect(up.output).not.toContain(password);
      }
      await step("destroy", () => stack.destroy());
    });
  });
});
