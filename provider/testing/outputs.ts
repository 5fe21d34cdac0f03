/**
 * What each kind's resource would hold after a create at the platform: each kind's mock (its
 * home's `mock.ts`, typed by its declaration, reached through its definition's `mock()`), for
 * unit tests of a program (see ./mocks). A definition without a mock does not compile.
 * @module
 */

import { DEFAULT_ORG, DEFAULT_REGION } from "../../sdk/simulation/defaults";
import { perKind, type ResourceKey, registry } from "../kinds/registry";
import type { MockContext, MockedResource as MockedOf, Mocker } from "../model/mocking";

export type { MockContext };

type Declaration<K extends ResourceKey> = (typeof registry)[K]["declaration"];

/** A mocked resource of kind `K`: its id and its outputs. */
export type MockedResource<K extends ResourceKey> = MockedOf<Declaration<K>>;

/** Defaults of {@link MockContext}: the emulator's seed app's region and organization. */
export const DEFAULT_MOCK_PLATFORM = { region: DEFAULT_REGION, org: DEFAULT_ORG };

/** Each kind's made-up create. */
export const mockers = perKind<{ readonly [K in ResourceKey]: Mocker<Declaration<K>> }>((key) =>
  registry[key].mock(),
);
