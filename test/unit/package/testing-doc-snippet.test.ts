import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

// docs/testing.md's snippet is a copy of examples/unit-testing/program.test.ts, a test the unit
// project runs against the example's program: the copy a user reads is the file that runs. (Kept
// as a file, not run from the Markdown, so it resolves `pulumi-platform/testing` and `./index.js`
// as a user's test does, with nothing written into the tree while tests run.)

const ROOT = path.resolve(__dirname, "../../..");
const FILE = "examples/unit-testing/program.test.ts";

it(`docs/testing.md's code block is ${FILE}, as it is`, () => {
  const doc = fs.readFileSync(path.join(ROOT, "docs/testing.md"), "utf8");
  const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```\n/g)].map((m) => m[1]);
  const file = fs.readFileSync(path.join(ROOT, FILE), "utf8");
  expect(blocks, `copy ${FILE} into docs/testing.md's ts block`).toEqual([file]);
});
