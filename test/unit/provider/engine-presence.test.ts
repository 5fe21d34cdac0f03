import net from "node:net";
import { describe, expect, it } from "vitest";
import { dynamicHostEngine, whileEngineRuns } from "../../../provider/runtime/engine-presence";

// A SIGKILL of the CLI alone leaves Pulumi's dynamic host running; a create it has not sent yet
// must not reach the platform once the engine that asked for it is gone.

async function listening(): Promise<{ server: net.Server; port: number }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as net.AddressInfo).port };
}

const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason)));

describe("the engine's presence, in Pulumi's dynamic host", () => {
  it("the engine's address is the dynamic host's first argument; elsewhere there is none", () => {
    const host = "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";
    expect(dynamicHostEngine(["node", host, "127.0.0.1:40123"])).toEqual({ host: "127.0.0.1", port: 40123 });
    expect(
      dynamicHostEngine(["node", "/p/node_modules/.bin/pulumi-resource-platform", "127.0.0.1:1"]),
    ).toBeUndefined();
    expect(dynamicHostEngine(["node", host])).toBeUndefined();
  });

  it("outside the dynamic host a create gets no signal", async () => {
    expect(await whileEngineRuns(async (signal) => signal, undefined)).toBeUndefined();
  });

  it("while the engine listens the signal stays quiet; once it is gone the signal aborts, naming why", async () => {
    const { server, port } = await listening();
    const reason = await whileEngineRuns(
      async (signal) => {
        if (!signal) throw new Error("no signal in the dynamic host");
        await new Promise((r) => setTimeout(r, 800)); // several probes while it listens
        expect(signal.aborted).toBe(false);
        const gone = aborted(signal);
        server.close();
        return gone;
      },
      { host: "127.0.0.1", port },
    );
    expect(String(reason)).toMatch(/the Pulumi CLI that asked for this create is gone .*not sending it/);
  });
});
