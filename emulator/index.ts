export { buildEmulator, type Emulator } from "./app";
export { VirtualClock } from "./clock";
export {
  type ControlClient,
  type ControlVolume,
  createControlClient,
  type DbNodeView,
  type DbPosition,
  type EmulatorState,
  type InstanceView,
  type RateLimitView,
  type TimeView,
} from "./control-client";
export { EmulatorError } from "./errors";
export type { Fault, FaultSpec } from "./faults";
export { DEFAULT_TIMING, type EmulatorOptions, type TimingOptions } from "./options";
export type { LoggedRequest } from "./request-log";
export { RESPONSE_MODES, type ResponseMode } from "./responses";
export { type RunningEmulator, startEmulator } from "./server";
export type { PersistedState, Store } from "./store";
export type { DnsRecord } from "./store/dns";
export { DEFAULT_SEED, type SeedInput } from "./store/seed";
export { DEFAULT_TASK_SOCKET } from "./tasks/socket";
