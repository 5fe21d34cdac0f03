import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { service } from "../../../provider/plugin/server";
import { beforeStop } from "../../../provider/runtime/before-stop";

// The engine stops every provider at the end of a command: the plugin gets `Cancel`, then the
// process group SIGINT, and 5 s later SIGKILL. The runtime's last look for leftovers runs there.

const DIST_BEFORE_STOP = path.resolve(__dirname, "../../../dist/provider/runtime/before-stop.js");

describe("work before the provider process stops", () => {
  it("in Pulumi's dynamic host it runs on the engine's SIGINT, prints, and the process then ends by that signal", async () => {
    const child = spawn(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(DIST_BEFORE_STOP)}).beforeStop(async () => {
           await new Promise((r) => setTimeout(r, 200));
           console.error("warning: the last look");
         });
         console.log("ready");
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    child.kill("SIGINT");
    expect(await ended).toBe("SIGINT");
    expect(stderr).toContain("warning: the last look");
  });

  it("in the plugin it runs on the engine's Cancel call, which answers once the work is done", async () => {
    const done: string[] = [];
    beforeStop(async () => {
      await new Promise((r) => setTimeout(r, 50));
      done.push("the last look");
    });
    const cancel = service.cancel as unknown as (
      call: { request: unknown },
      cb: (err: unknown) => void,
    ) => void;
    await new Promise<void>((resolve, reject) =>
      cancel({ request: {} }, (err) => (err ? reject(err) : resolve())),
    );
    expect(done).toEqual(["the last look"]);
  });
});
