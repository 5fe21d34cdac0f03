/**
 * The mocks' answer for one resource on plain values, for the Python and Go mocks
 * (`pulumi_platform.testing`, `platform/platformtest`): they ask the plugin through the provider
 * function {@link MOCK_FUNCTION} (../plugin/server), so the checks and the kinds' mocks are the
 * TypeScript ones (./mocks, ./outputs), never written a second time.
 * @module
 */
import { keyOfPluginToken, registry } from "../kinds/registry";
import { secretNames } from "../model/declaration";
import { inputFailures } from "../model/input-check";
import { shown } from "../model/validation/common";
import { checkFailureMessage } from "./check-message";
import { DEFAULT_MOCK_PLATFORM, type MockContext, mockers } from "./outputs";

/** The provider function the language mocks call; not in the schema, no SDK offers it. */
export const MOCK_FUNCTION = "platform:testing:mock";

/** What the mocks ask: the resource as the mock monitor received it, inputs plain. */
export interface MockQuestion {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  /** Inputs the program passed as secrets. */
  secretInputs: Set<string>;
  /** ISO time the platform answers at; default now. */
  now?: string;
  region?: string;
  org?: string;
}

/**
 * Either the lines `pulumi preview` prints for the inputs' check failures, or the resource's id and
 * outputs with the names the engine would keep secret.
 */
export type MockAnswer =
  | { failures: string[] }
  | { failures: []; id: string; state: Record<string, unknown>; secrets: string[] };

const SECRET_SHOWN = "[secret]";

export function mockAnswer(q: MockQuestion): MockAnswer {
  const key = keyOfPluginToken(q.type);
  if (key === undefined) throw new Error(`the platform provider has no resource type ${q.type}`);
  const row = registry[key];
  const ctx: MockContext = {
    now: q.now ? new Date(q.now) : new Date(),
    region: q.region || DEFAULT_MOCK_PLATFORM.region,
    org: q.org || DEFAULT_MOCK_PLATFORM.org,
  };
  const failures = inputFailures(row.declaration, q.inputs, {}, ctx.now);
  if (failures.length > 0) {
    const printed = Object.fromEntries(
      Object.entries(q.inputs).map(([k, v]) => [k, q.secretInputs.has(k) ? SECRET_SHOWN : v]),
    );
    return {
      failures: failures.map((f) => {
        const told = q.secretInputs.has(f.property)
          ? { ...f, reason: f.reason.split(shown(q.inputs[f.property])).join(SECRET_SHOWN) }
          : f;
        return checkFailureMessage(q.type, q.name, printed, told);
      }),
    };
  }
  const mocker = mockers[key] as (d: unknown, i: unknown, c: MockContext) => { id: string; outputs: object };
  const { id, outputs } = mocker(row.declaration, q.inputs, ctx);
  const state = { ...outputs } as Record<string, unknown>;
  const secrets = [...new Set([...secretNames(row.declaration), ...q.secretInputs])].filter(
    (name) => state[name] !== undefined && state[name] !== null,
  );
  return { failures: [], id, state: JSON.parse(JSON.stringify(state)), secrets };
}
