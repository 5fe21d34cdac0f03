/**
 * The hand-written wire fixtures of test/fixtures/wire: their manifest, their bodies, and the
 * few helpers the wire tests share.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURE_DIR = join(__dirname, "..", "..", "fixtures", "wire");

export interface FixtureInfo {
  /** File name, e.g. `snapshot-list.real-world.json`. */
  name: string;
  /** `METHOD /path/{template}` the body answers. */
  endpoint: string;
  status: number;
  source: string;
}

interface Manifest {
  fixtures: Record<string, Omit<FixtureInfo, "name">>;
}

const manifest = JSON.parse(readFileSync(join(FIXTURE_DIR, "manifest.json"), "utf8")) as Manifest;

/** Every fixture named in the manifest. */
export const FIXTURES: FixtureInfo[] = Object.entries(manifest.fixtures).map(([name, info]) => ({
  name,
  ...info,
}));

/** JSON files in the directory (to check the manifest misses none). */
export function fixtureFiles(): string[] {
  return readdirSync(FIXTURE_DIR).filter((f) => f.endsWith(".json") && f !== "manifest.json");
}

/** The raw text of a fixture. */
export function fixtureText(name: string): string {
  return readFileSync(join(FIXTURE_DIR, name), "utf8");
}

/** A fixture's body, parsed as plain JSON. */
// biome-ignore lint/suspicious/noExplicitAny: fixtures are loosely shaped test data
export function fixture(name: string): any {
  return JSON.parse(fixtureText(name));
}

/** The manifest entry of a fixture. */
export function fixtureInfo(name: string): FixtureInfo {
  const info = FIXTURES.find((f) => f.name === name);
  if (!info) throw new Error(`fixture ${name} is not in manifest.json`);
  return info;
}

/** Paths (`a.b[0].c`) of every `undefined` inside `value`, own enumerable keys included. */
export function undefinedPaths(value: unknown, path = "(root)"): string[] {
  if (value === undefined) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => undefinedPaths(v, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => undefinedPaths(v, `${path}.${k}`));
  }
  return [];
}

/** Whether a request `METHOD /path` matches an endpoint template `METHOD /v1/apps/{app_name}/...`. */
export function matchesEndpoint(endpoint: string, method: string, path: string): boolean {
  const [m, template] = endpoint.split(" ");
  if (m !== method || !template) return false;
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[a-z_]+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`).test(path.split("?")[0] ?? "");
}
