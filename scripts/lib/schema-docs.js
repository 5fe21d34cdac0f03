// @ts-check
// The package schema's descriptions, read from the TSDoc where they are written once: the
// declarations (a resource's comment, each input's and output's, and the members of the
// interfaces they name: `VolumeComputeArgs`, `DnsRecordOutput`, …) and the lookups
// (provider/lookups.ts: each function's comment, its arguments', its answer's members).
// The TypeScript compiler reads them as an IDE hover does, so the schema, the SDKs and the hover
// on `VolumeArgs` show one text. `npm run gen-sdks` writes the result to
// provider/plugin/schema-docs.json, which the plugin's schema module reads at run time (the
// plugin has no TypeScript); a unit test fails when that file and the TSDoc differ.
const path = require("node:path");
const ts = require("typescript");
const { withExamples } = require("./schema-examples");

const repoRoot = path.resolve(__dirname, "..", "..");

/**
 * @typedef {{ description?: string, type?: string, members?: Record<string, DocNode> }} DocNode
 *   A property's description and, for an object (or a list of objects), its type's and its
 *   members'.
 * @typedef {{ description?: string, inputs: Record<string, DocNode>, outputs: Record<string, DocNode> }} ResourceDocs
 * @typedef {{ description?: string, args: Record<string, DocNode>, type?: string, result: Record<string, DocNode> }} FunctionDocs
 *   A lookup's comment, its arguments', its answer's type's (`type`, of a list's entries) and members'.
 * @typedef {{ resources: Record<string, ResourceDocs>, functions: Record<string, FunctionDocs> }} SchemaDocs
 */

/** A comment as one paragraph per blank-line-separated block (the source wraps at 100 columns). */
function text(/** @type {ts.Symbol} */ symbol, /** @type {ts.TypeChecker} */ checker) {
  const raw = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  if (raw === "") return undefined;
  return raw
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, " "))
    .join("\n\n");
}

/** Whether a symbol is declared in this repository's sources (not a library's, not lib.d.ts). */
function ours(/** @type {ts.Symbol} */ symbol) {
  return (symbol.declarations ?? []).some((d) => {
    const file = path.resolve(d.getSourceFile().fileName);
    return file.startsWith(repoRoot + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`);
  });
}

/**
 * The documented members of a value of type `type`: of an object type declared here, of a list's
 * items, of each member of a union (`pulumi.Input<T>` is `T`, a promise or an output of it: only
 * `T` is ours). Primitives and library types have none.
 * @returns {Record<string, DocNode> | undefined}
 */
function membersOf(
  /** @type {ts.Type} */ type,
  /** @type {ts.TypeChecker} */ checker,
  /** @type {Set<ts.Type>} */ seen = new Set(),
) {
  if (seen.has(type)) return undefined;
  seen = new Set(seen).add(type);
  if (type.isUnion()) {
    /** @type {Record<string, DocNode> | undefined} */
    let merged;
    for (const part of type.types) {
      const members = membersOf(part, checker, seen);
      if (members) merged = { ...merged, ...members };
    }
    return merged;
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const [items] = checker.getTypeArguments(/** @type {ts.TypeReference} */ (type));
    return items ? membersOf(items, checker, seen) : undefined;
  }
  if (!(type.flags & ts.TypeFlags.Object) && !type.isIntersection()) return undefined;
  const props = checker.getPropertiesOfType(type).filter(ours);
  if (props.length === 0) return undefined;
  return Object.fromEntries(props.map((p) => [p.name, nodeOf(p, checker.getTypeOfSymbol(p), checker, seen)]));
}

/**
 * The comment of the object type a value of type `type` is (through unions and lists), when it
 * is declared here: `VolumeComputeArgs`, `DnsRecordOutput`, …
 * @returns {string | undefined}
 */
function typeTextOf(/** @type {ts.Type} */ type, /** @type {ts.TypeChecker} */ checker) {
  if (type.isUnion()) {
    for (const part of type.types) {
      const found = typeTextOf(part, checker);
      if (found) return found;
    }
    return undefined;
  }
  if (checker.isArrayType(type)) {
    const [items] = checker.getTypeArguments(/** @type {ts.TypeReference} */ (type));
    return items ? typeTextOf(items, checker) : undefined;
  }
  const symbol = type.aliasSymbol ?? type.getSymbol();
  return symbol && ours(symbol) && symbol.name !== "__type" && symbol.name !== "__object"
    ? text(symbol, checker)
    : undefined;
}

/** @returns {DocNode} */
function nodeOf(
  /** @type {ts.Symbol} */ symbol,
  /** @type {ts.Type} */ valueType,
  /** @type {ts.TypeChecker} */ checker,
  /** @type {Set<ts.Type>} */ seen = new Set(),
) {
  const description = text(symbol, checker);
  const members = membersOf(valueType, checker, seen);
  const type = members ? typeTextOf(valueType, checker) : undefined;
  return {
    ...(description ? { description } : {}),
    ...(type ? { type } : {}),
    ...(members ? { members } : {}),
  };
}

/** The type of member `name` of `type` (throws when it has none: the declaration changed shape). */
function memberType(
  /** @type {ts.Type} */ type,
  /** @type {string} */ name,
  /** @type {ts.TypeChecker} */ checker,
) {
  const member = checker.getPropertyOfType(type, name);
  if (!member) throw new Error(`schema-docs: no member ${name} in ${checker.typeToString(type)}`);
  return checker.getTypeOfSymbol(member);
}

/** The symbol an identifier names, through imports. */
function resolved(/** @type {ts.Node} */ node, /** @type {ts.TypeChecker} */ checker) {
  const symbol = checker.getSymbolAtLocation(node);
  if (!symbol) throw new Error(`schema-docs: cannot resolve ${node.getText()}`);
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/**
 * @typedef {{ key: string, type: string, component?: string, className: string, declaration: ts.Symbol }} RegistryRow
 *   A registry row as the sources state it: its runtime key, its dynamic resource's type, its
 *   component (when it has one), the class a program constructs (the component, else the
 *   declaration's `type`) and its declaration's variable (whose TSDoc is the resource's text).
 */

/** A string literal member `name` of `type`, or undefined when it has none. */
function literalMember(
  /** @type {ts.Type} */ type,
  /** @type {string} */ name,
  /** @type {ts.TypeChecker} */ checker,
) {
  const member = checker.getPropertyOfType(type, name);
  if (!member) return undefined;
  const value = checker.getTypeOfSymbol(member);
  if (!value.isStringLiteral())
    throw new Error(`schema-docs: ${name} of ${checker.typeToString(type)} is not a literal`);
  return value.value;
}

/** The `type` a declaration variable states (`declareResource({ type: "Volume", … })`). */
function declaredType(/** @type {ts.Symbol} */ declaration) {
  const at = declaration.valueDeclaration;
  const call = at && ts.isVariableDeclaration(at) ? at.initializer : undefined;
  const spec = call && ts.isCallExpression(call) ? call.arguments[0] : undefined;
  const type =
    spec && ts.isObjectLiteralExpression(spec)
      ? spec.properties.find((p) => p.name?.getText() === "type")
      : undefined;
  if (!type || !ts.isPropertyAssignment(type) || !ts.isStringLiteral(type.initializer))
    throw new Error(`schema-docs: ${declaration.name} states no type: declareResource({ type: "…", … })`);
  return type.initializer.text;
}

/**
 * The registry's rows (provider/kinds/registry.ts's `registry`), in its order, read from its type
 * as the compiler sees it: each row's key, type, component and declaration variable.
 * @returns {RegistryRow[]}
 */
function registryRows(/** @type {ts.Program} */ program, /** @type {string} */ root = repoRoot) {
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(path.join(root, "provider", "kinds", "registry.ts"));
  const module = file && checker.getSymbolAtLocation(file);
  const registry = module && checker.getExportsOfModule(module).find((s) => s.name === "registry");
  if (!registry) throw new Error("schema-docs: provider/kinds/registry.ts exports no registry");
  return checker.getPropertiesOfType(checker.getTypeOfSymbol(registry)).map((property) => {
    const row = checker.getTypeOfSymbol(property);
    const key = literalMember(row, "key", checker);
    const type = literalMember(row, "type", checker);
    const member = checker.getPropertyOfType(row, "declaration");
    const at = member?.valueDeclaration;
    /** @type {ts.Symbol | undefined} */
    let declaration;
    if (at && ts.isPropertyAssignment(at)) declaration = resolved(at.initializer, checker);
    else if (at && ts.isShorthandPropertyAssignment(at))
      declaration = checker.getShorthandAssignmentValueSymbol(at);
    if (key !== property.name || !type || !declaration)
      throw new Error(
        `schema-docs: the registry's row ${property.name} has no key, type or declaration variable`,
      );
    const component = literalMember(row, "component", checker);
    const declared = declaredType(declaration);
    return { key, type, ...(component ? { component } : {}), className: component ?? declared, declaration };
  });
}

/** The program of the sources gen-sdks reads (tsconfig.json's options), rooted at `rootNames`. */
function sourceProgram(/** @type {string} */ root, /** @type {string[]} */ rootNames) {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("schema-docs: cannot read tsconfig.json");
  return ts.createProgram({ rootNames, options: { ...config.options, noEmit: true } });
}

/** Reads every description the schema needs from the sources. */
function extractSchemaDocs(/** @type {string} */ root = repoRoot) {
  const registryFile = path.join(root, "provider", "kinds", "registry.ts");
  const lookupsFile = path.join(root, "provider", "lookups.ts");
  const functionsFile = path.join(root, "provider", "plugin", "functions.ts");
  const program = sourceProgram(root, [registryFile, lookupsFile, functionsFile]);
  const checker = program.getTypeChecker();
  const source = (/** @type {string} */ file) => {
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`schema-docs: ${file} is not in the program`);
    return sf;
  };

  /** @type {SchemaDocs} */
  const docs = { resources: {}, functions: {} };
  for (const { key, declaration: symbol } of registryRows(program, root)) {
    const declaration = checker.getTypeOfSymbol(symbol);
    const side = (/** @type {"inputs" | "outputs"} */ name, /** @type {string} */ marker) =>
      Object.fromEntries(
        checker
          .getPropertiesOfType(memberType(declaration, name, checker))
          .map((p) => [p.name, nodeOf(p, memberType(checker.getTypeOfSymbol(p), marker, checker), checker)]),
      );
    const description = withExamples(root, key, text(symbol, checker));
    docs.resources[key] = {
      ...(description ? { description } : {}),
      inputs: side("inputs", "program"),
      outputs: side("outputs", "type"),
    };
  }

  const lookups = checker.getSymbolAtLocation(source(lookupsFile));
  const table = resolved(
    /** @type {ts.VariableDeclaration} */ (
      source(functionsFile)
        .statements.flatMap((s) => (ts.isVariableStatement(s) ? [...s.declarationList.declarations] : []))
        .find((d) => d.name.getText() === "LOOKUPS")
    ).name,
    checker,
  );
  if (!lookups) throw new Error("schema-docs: lookups.ts has no module symbol");
  const exported = new Map(checker.getExportsOfModule(lookups).map((s) => [s.name, s]));
  for (const lookup of checker.getPropertiesOfType(checker.getTypeOfSymbol(table))) {
    const fn = exported.get(lookup.name);
    if (!fn) throw new Error(`schema-docs: lookups.ts exports no ${lookup.name}`);
    const [signature] = checker.getSignaturesOfType(checker.getTypeOfSymbol(fn), ts.SignatureKind.Call);
    const parameter = signature?.getParameters()[0];
    if (!signature || !parameter) throw new Error(`schema-docs: ${lookup.name} takes no arguments`);
    const answer = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
    const description = text(fn, checker);
    docs.functions[lookup.name] = {
      ...(description ? { description } : {}),
      args: membersOf(checker.getTypeOfSymbol(parameter), checker) ?? {},
      ...(typeTextOf(answer, checker) ? { type: typeTextOf(answer, checker) } : {}),
      result: membersOf(answer, checker) ?? {},
    };
  }
  return docs;
}

module.exports = { extractSchemaDocs, registryRows, sourceProgram, text };
