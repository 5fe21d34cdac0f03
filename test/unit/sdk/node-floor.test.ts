import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_FLOOR, nodeFloorProblem, olderThanFloor } from "../../../sdk/node-floor";

const ROOT = path.resolve(__dirname, "../../..");

describe("the Node.js the package needs", () => {
  it("is what package.json's engines and undici's own engines say", () => {
    const own = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const undici = JSON.parse(fs.readFileSync(require.resolve("undici/package.json"), "utf8"));
    expect(own.engines.node).toBe(`>=${NODE_FLOOR}`);
    expect(undici.engines.node).toBe(`>=${NODE_FLOOR}`);
  });

  it("compares versions part by part", () => {
    expect(olderThanFloor("20.20.2")).toBe(true);
    expect(olderThanFloor("22.18.9")).toBe(true);
    expect(olderThanFloor("22.19.0")).toBe(false);
    expect(olderThanFloor("22.23.3")).toBe(false);
    expect(olderThanFloor("24.0.0")).toBe(false);
  });

  it("an older Node is told which it is and what to do, before undici fails inside", () => {
    expect(nodeFloorProblem("20.20.2", "/usr/bin/node")).toBe(
      "pulumi-platform needs Node.js 22.19.0 or later; this is Node.js 20.20.2 (/usr/bin/node). Put a newer node first on PATH (Pulumi starts the node it finds there): `nvm install 22`, your system's Node.js 22 package, or an installer from https://nodejs.org.",
    );
    expect(nodeFloorProblem(process.versions.node)).toBeUndefined();
  });

  it("loading the sdk's client under an older Node fails with that sentence", () => {
    // Pretend to be Node 20 in a child process, then load the built client.
    const script = `Object.defineProperty(process.versions, "node", { value: "20.20.2" });
      try { require(${JSON.stringify(path.join(ROOT, "dist/sdk"))}); console.log("loaded"); }
      catch (e) { console.log(e.message); }`;
    const out = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(out).toMatch(/^pulumi-platform needs Node\.js 22\.19\.0 or later; this is Node\.js 20\.20\.2/);
  });
});
