// @ts-check
// The examples of the schema's resource descriptions, kept once per resource as real programs in
// examples/schema/<key>/ (index.ts, __main__.py, main.go, Pulumi.yaml: each checked in CI in its
// own language) and appended to the description in Pulumi's convention, `{{% examples %}}` …
// `{{% /examples %}}`, from which each SDK generator keeps its own language's block.
const fs = require("node:fs");
const path = require("node:path");

/** Each language's file, in the order the Registry shows them, and its fence. */
const FILES = /** @type {const} */ ([
  ["index.ts", "typescript"],
  ["__main__.py", "python"],
  ["main.go", "go"],
  ["Pulumi.yaml", "yaml"],
]);

/** Each resource's example title. */
const TITLES = {
  volume: "A volume of 10 GB",
  volumeSnapshot: "An on-demand snapshot of a volume",
  acmeCertificate: "A wildcard ACME certificate",
  customCertificate: "A certificate of your own",
  postgresPasswordRotation: "An alternating password rotation",
};

/**
 * The examples section of resource `key`, or undefined when examples/schema/<key>/ is absent.
 * A file of a language missing there is an error: every language has its example.
 */
function examplesSection(/** @type {string} */ root, /** @type {string} */ key) {
  const dir = path.join(root, "examples", "schema", key);
  if (!fs.existsSync(dir)) return undefined;
  const blocks = FILES.map(([file, fence]) => {
    const f = path.join(dir, file);
    if (!fs.existsSync(f)) throw new Error(`schema-examples: ${path.relative(root, f)} is missing`);
    return `\`\`\`${fence}\n${fs.readFileSync(f, "utf8").trimEnd()}\n\`\`\``;
  });
  const title = TITLES[/** @type {keyof typeof TITLES} */ (key)] ?? "Usage";
  return `{{% examples %}}\n## Example Usage\n\n{{% example %}}\n### ${title}\n\n${blocks.join("\n\n")}\n{{% /example %}}\n{{% /examples %}}`;
}

/** `description` with resource `key`'s examples appended, when it has some. */
function withExamples(
  /** @type {string} */ root,
  /** @type {string} */ key,
  /** @type {string | undefined} */ description,
) {
  const section = examplesSection(root, key);
  if (!section) return description;
  return description ? `${description}\n\n${section}` : section;
}

module.exports = { withExamples, examplesSection };
