/**
 * What each kind's resource would hold after a create at the platform: each kind's mock (its
 * home's `mock.ts`, typed by its declaration), for unit tests of a program (see ./mocks). A kind
 * without a mock here does not compile.
 * @module
 */

import { DEFAULT_ORG, DEFAULT_REGION } from "../../sdk/simulation/defaults";
import { acmeCertificateMock, customCertificateMock } from "../kinds/certificates/mock";
import { postgresPasswordRotationMock } from "../kinds/postgres-password-rotation/mock";
import type { ResourceKey, registry } from "../kinds/registry";
import { volumeMock } from "../kinds/volume/mock";
import { volumeSnapshotMock } from "../kinds/volume-snapshot/mock";
import type { MockContext, MockedResource as MockedOf, Mocker } from "../model/mocking";

export type { MockContext };

type Declaration<K extends ResourceKey> = (typeof registry)[K]["declaration"];

/** A mocked resource of kind `K`: its id and its outputs. */
export type MockedResource<K extends ResourceKey> = MockedOf<Declaration<K>>;

/** Defaults of {@link MockContext}: the emulator's seed app's region and organization. */
export const DEFAULT_MOCK_PLATFORM = { region: DEFAULT_REGION, org: DEFAULT_ORG };

/** Each kind's made-up create. */
export const mockers: { readonly [K in ResourceKey]: Mocker<Declaration<K>> } = {
  volume: volumeMock,
  acmeCertificate: acmeCertificateMock,
  customCertificate: customCertificateMock,
  postgresPasswordRotation: postgresPasswordRotationMock,
  volumeSnapshot: volumeSnapshotMock,
};
