import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { brokenSidecars, isSidecarFailure } from "../../../ops/backend-sidecars";

// The layout a DIY backend writes (checked against a real one in test/e2e/interrupted-up).
let root: string;
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function backend(files: Record<string, string>): string {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "sidecars-"));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, ".pulumi", name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return `file://${root}`;
}

const ATTRS = '{"user.cache_control":"","user.content_type":"application/octet-stream","md5":"AA=="}\n';

describe("backend metadata a kill left unreadable", () => {
  it("finds the stack's empty and cut-short sidecars: checkpoint, its backup, lock, history", () => {
    const url = backend({
      "stacks/proj/dev.json": "{}",
      "stacks/proj/dev.json.attrs": "",
      "stacks/proj/dev.json.bak.attrs": '{"user.content_ty',
      "locks/organization/proj/dev/0d3c.json.attrs": "",
      "history/proj/dev/dev-1.history.json.attrs": "",
      "history/proj/dev/dev-2.history.json.attrs": ATTRS,
    });
    const found = brokenSidecars(url, "proj", "dev")?.map((f) => path.relative(root, f));
    expect(found?.sort()).toEqual(
      [
        ".pulumi/history/proj/dev/dev-1.history.json.attrs",
        ".pulumi/locks/organization/proj/dev/0d3c.json.attrs",
        ".pulumi/stacks/proj/dev.json.attrs",
        ".pulumi/stacks/proj/dev.json.bak.attrs",
      ].sort(),
    );
  });

  it("leaves whole sidecars and other stacks' files alone", () => {
    const url = backend({
      "stacks/proj/dev.json.attrs": ATTRS,
      "stacks/proj/dev2.json.attrs": "",
      "stacks/other/dev.json.attrs": "",
      "locks/organization/proj/prod/1.json.attrs": "",
    });
    expect(brokenSidecars(url, "proj", "dev")).toEqual([]);
  });

  it("does not judge a backend that is not on disk", () => {
    expect(brokenSidecars("s3://bucket/state", "proj", "dev")).toBeUndefined();
  });

  it("knows the failure they cause, and only that one", () => {
    expect(isSidecarFailure("`pulumi stack export` failed: error: failed to load checkpoint: EOF")).toBe(
      true,
    );
    expect(isSidecarFailure("error: no stack named 'dev' found")).toBe(false);
  });
});
