import type { VirtualClock } from "../../clock";
import type { EventCluster } from "../../events/cluster";
import type { EventServers } from "../../events/server";
import type { FaultInjector } from "../../faults";
import type { RateLimiter } from "../../rate-limit";
import type { RequestLog } from "../../request-log";
import type { Store } from "../../store";

/** The parts of the emulator the control API drives (a leaf module: app.ts imports the routes). */
export interface ControlDeps {
  store: Store;
  clock: VirtualClock;
  faults: FaultInjector;
  requestLog: RequestLog;
  cluster: EventCluster;
  events: EventServers;
  rateLimiter: RateLimiter;
  /** The start-up rate limit, restored by a reset. */
  initialRateLimit: number | undefined;
}
