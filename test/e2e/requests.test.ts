import { describe, expect, it } from "vitest";
import { platformConfig, useE2eEmulator } from "../support/e2e";
import { programPath, withStack } from "../support/engine";
import { step } from "../support/step";

// What a stack of Volumes costs the platform per command, through the real engine. From a CI
// runner every request is a round trip and counts against the platform's rate limit.

const e = useE2eEmulator();
const APP = "demo-app";
const COUNT = 6;

/** The requests of one command, as "METHOD route" with ids written as {id}. */
async function requestsOf(command: () => Promise<unknown>): Promise<Record<string, number>> {
  await e.control.requests.clear();
  await command();
  const counts: Record<string, number> = {};
  for (const r of await e.requests()) {
    if (!r.path.startsWith("/v1/")) continue;
    const route = `${r.method} ${r.path.replace(/vol_[a-z0-9]+/g, "{id}")}`;
    counts[route] = (counts[route] ?? 0) + 1;
  }
  return counts;
}

describe("requests per command for a stack of volumes", () => {
  it("up creates with one request each and three lists (the program's token check among them), refresh reads with two in all, destroy deletes with one each", async () => {
    await withStack(
      {
        programDir: programPath("interrupted-up"),
        config: { ...platformConfig(e.emu), count: String(COUNT) },
      },
      async ({ stack }) => {
        await step("up", async () => {
          // One list of the app from the program before it registers anything (the token gate:
          // does the platform take the token?), one before the first create (the lost-answer
          // rule), then one POST each, and one list as the provider process stops (what landed
          // meanwhile that it did not make).
          expect(await requestsOf(() => stack.up())).toEqual({
            [`GET /v1/apps/${APP}/volumes`]: 3,
            [`POST /v1/apps/${APP}/volumes`]: COUNT,
          });
        });
        await step("what the state records of where each volume was declared", async () => {
          const resources = (await stack.exportStack()).deployment.resources as {
            type: string;
            sourcePosition?: string;
            stackTrace?: { sourcePosition?: string }[];
          }[];
          const volumes = resources.filter((r) => r.type.endsWith("platform:Volume"));
          expect(volumes).toHaveLength(COUNT);
          for (const v of volumes) {
            // The program's line (`new Volume(` inside Array.from's callback), not this package's.
            expect(v.sourcePosition).toMatch(/^project:\/\/\/index\.ts#\d+,\d+$/);
            expect(v.stackTrace?.map((f) => f.sourcePosition?.replace(/#.*/, ""))).toEqual([
              "project:///index.ts",
              "project:///index.ts",
            ]);
          }
        });
        await step("preview with no change", async () => {
          expect(await requestsOf(() => stack.preview({ expectNoChanges: true }))).toEqual({});
        });
        await step("refresh", async () => {
          // The first read is a GET; the reads that come with it share one list of the app.
          expect(await requestsOf(() => stack.refresh({ expectNoChanges: true }))).toEqual({
            [`GET /v1/apps/${APP}/volumes/{id}`]: 1,
            [`GET /v1/apps/${APP}/volumes`]: 1,
          });
        });
        await step("destroy", async () => {
          expect(await requestsOf(() => stack.destroy())).toEqual({
            [`DELETE /v1/apps/${APP}/volumes/{id}`]: COUNT,
          });
        });
      },
    );
  });
});
