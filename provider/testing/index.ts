/**
 * pulumi-platform/testing: unit tests of a program that uses pulumi-platform, with Pulumi's mocks
 * (`pulumi.runtime.setMocks`). Our resources are checked as `pulumi preview` checks them and get
 * the outputs the platform would give; other providers' resources go to your own mocks.
 * @module
 */
export {
  checkFailureMessage,
  PlatformCheckError,
  type PlatformMocks,
  type PlatformMocksOptions,
  platformMocks,
} from "./mocks";
export { DEFAULT_MOCK_PLATFORM, type MockContext, type MockedResource } from "./outputs";
