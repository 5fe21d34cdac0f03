// @ts-check
// The reference part of docs/resources.md, written from the declarations: per resource kind, its
// description, its inputs (required or not, what a change does, secret) and its outputs (type,
// secret), each with its TSDoc as provider/plugin/schema-docs.json holds it. The page's prose
// (what no declaration says: regions, keeping a restored volume safe, the waits) stays written by
// hand around the generated blocks: one block per kind of the registry, between
//
//   <!-- generated: <key> … -->  and  <!-- end generated: <key> -->
//
// which the page places where it wants them. `npm run gen-sdks` rewrites the blocks from the built
// registry (dist/) and `--check` fails when the page differs; a unit test
// (test/unit/provider/resources-doc.test.ts) does the same from the sources.
const fs = require("node:fs");
const path = require("node:path");

/** The page, relative to the repository's root. */
const RESOURCES_DOC = path.join("docs", "resources.md");

/** What a change of an input does, by its declared `change`. */
const CHANGE = {
  replace: "replaces",
  update: "in place",
  record: "only recorded",
  special: "see description",
};

/**
 * @typedef {{ description?: string, type?: string, members?: Record<string, DocNode> }} DocNode
 * @typedef {{ description?: string, inputs: Record<string, DocNode>, outputs: Record<string, DocNode> }} ResourceDocs
 * @typedef {{ type: string, of?: ValueType, items?: ValueType, name?: string }} ValueType
 * @typedef {{ rule: { safeParse(v: unknown): { success: boolean, data?: unknown } }, change: keyof typeof CHANGE, secret?: boolean }} InputDeclaration
 * @typedef {{ valueType: ValueType, secret?: boolean }} OutputDeclaration
 * @typedef {{ declaration: { type: string, inputs: Record<string, InputDeclaration>, outputs: Record<string, OutputDeclaration> } }} Row
 */

/** A table cell: one line, no column separator. */
function cell(/** @type {string | undefined} */ text) {
  return (text ?? "").replace(/\|/g, "\\|").replace(/\n\n/g, "<br><br>").replace(/\n/g, " ");
}

/**
 * An output's type as a program sees it: `string`, `integer` or null, a list of `DnsRecord`.
 * @returns {string}
 */
function typeText(/** @type {ValueType} */ type) {
  switch (type.type) {
    case "nullable":
      return `${typeText(/** @type {ValueType} */ (type.of))} or null`;
    case "array":
      return `list of ${typeText(/** @type {ValueType} */ (type.items))}`;
    case "object":
      return `\`${type.name}\``;
    case "any":
      return "any";
    default:
      return `\`${type.type}\``;
  }
}

/** Whether an input is required, or its default when its rule declares one. */
function presence(/** @type {InputDeclaration} */ input) {
  const absent = input.rule.safeParse(undefined);
  if (!absent.success) return "required";
  return absent.data === undefined ? "optional" : `default \`${JSON.stringify(absent.data)}\``;
}

/** The members of the object inputs and outputs, flattened to dotted names. */
function memberRows(/** @type {string} */ prefix, /** @type {Record<string, DocNode>} */ members) {
  /** @type {string[]} */
  const rows = [];
  for (const [name, node] of Object.entries(members)) {
    rows.push(`| \`${prefix}.${name}\` | ${cell(node.description)} |`);
    if (node.members) rows.push(...memberRows(`${prefix}.${name}`, node.members));
  }
  return rows;
}

/** The generated block of one kind (without its markers). */
function kindBlock(
  /** @type {string} */ key,
  /** @type {Row} */ row,
  /** @type {ResourceDocs | undefined} */ docs,
) {
  if (!docs) throw new Error(`resources-doc: schema-docs.json has no resource ${key} (run npm run gen-sdks)`);
  const { inputs, outputs } = row.declaration;
  const lines = [];
  // The schema's examples (Pulumi's shortcodes) stay out: the page links their files instead.
  const description = docs.description?.replace(/\n*\{\{% examples %\}\}[\s\S]*\{\{% \/examples %\}\}/, "");
  if (description) lines.push(description, "");
  lines.push(`Example in each language: [examples/schema/${key}/](../examples/schema/${key}/).`, "");
  lines.push("| Input | Required | A change | Description |", "|---|---|---|---|");
  for (const [name, input] of Object.entries(inputs)) {
    const shown = `\`${name}\`${input.secret ? " (secret)" : ""}`;
    const change = CHANGE[input.change];
    if (!change) throw new Error(`resources-doc: ${key}.${name} has an unknown change ${input.change}`);
    lines.push(`| ${shown} | ${presence(input)} | ${change} | ${cell(docs.inputs[name]?.description)} |`);
  }
  lines.push("", "| Output | Type | Description |", "|---|---|---|");
  for (const [name, output] of Object.entries(outputs)) {
    const shown = `\`${name}\`${output.secret ? " (secret)" : ""}`;
    lines.push(`| ${shown} | ${typeText(output.valueType)} | ${cell(docs.outputs[name]?.description)} |`);
  }
  const members = [
    ...Object.entries(docs.inputs).filter(([name]) => name in inputs),
    ...Object.entries(docs.outputs).filter(([name]) => name in outputs && !(name in inputs)),
  ].flatMap(([name, node]) => (node.members ? memberRows(name, node.members) : []));
  if (members.length > 0) lines.push("", "| Member | Description |", "|---|---|", ...members);
  return lines.join("\n");
}

const BLOCK = /<!-- generated: (\w+) [^>]*-->\n[\s\S]*?<!-- end generated: (\w+) -->/g;

/**
 * The page `current` with each kind's block rewritten from the registry's declarations and the
 * TSDoc. Throws when a kind has no block, or a block names no kind.
 * @param {Record<string, Row>} registry
 * @param {{ resources: Record<string, ResourceDocs> }} schemaDocs
 * @param {string} current
 */
function resourcesDoc(registry, schemaDocs, current) {
  /** @type {string[]} */
  const seen = [];
  const text = current.replace(BLOCK, (_, /** @type {string} */ key, /** @type {string} */ end) => {
    const row = registry[key];
    if (!row || end !== key)
      throw new Error(`resources-doc: a block of ${RESOURCES_DOC} names no kind: ${key}`);
    seen.push(key);
    return [
      `<!-- generated: ${key} by npm run gen-sdks from its declaration and TSDoc; edit those, not this -->`,
      "",
      kindBlock(key, row, schemaDocs.resources[key]),
      "",
      `<!-- end generated: ${key} -->`,
    ].join("\n");
  });
  const missing = Object.keys(registry).filter((k) => !seen.includes(k));
  const twice = seen.filter((k, i) => seen.indexOf(k) !== i);
  if (missing.length > 0 || twice.length > 0)
    throw new Error(
      `resources-doc: ${RESOURCES_DOC} must hold one generated block per kind (missing: ${missing}; twice: ${twice})`,
    );
  return text;
}

/** The page as the built registry (dist/, after `tsc`) and schema-docs.json make it. */
function resourcesDocFromDist(/** @type {string} */ at) {
  const root = path.resolve(at);
  const { registry } = require(path.join(root, "dist", "provider", "kinds", "registry.js"));
  const schemaDocs = JSON.parse(
    fs.readFileSync(path.join(root, "provider", "plugin", "schema-docs.json"), "utf8"),
  );
  return resourcesDoc(registry, schemaDocs, fs.readFileSync(path.join(root, RESOURCES_DOC), "utf8"));
}

module.exports = { RESOURCES_DOC, resourcesDoc, resourcesDocFromDist };
