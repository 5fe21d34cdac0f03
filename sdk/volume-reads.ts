/**
 * Reads of many volumes of one app at once, served by one list of the app (see
 * {@link VolumesClient.getListed}). A `pulumi refresh` reads every volume of a stack at the same
 * time: N GETs cost N round trips (and N of the platform's rate limit), one list costs one.
 *
 * The rules, so that a listed volume is never older than a GET would be:
 * - the first read of an app with nothing else in flight is a plain GET (a stack of one volume
 *   never pays for a list of the app's others);
 * - a read that arrives while another read of the same app is in flight, or within
 *   {@link TOGETHER_MS} of one, starts a list of the app, which serves it and every read after it
 *   for {@link LIST_SERVES_MS};
 * - a list serves each volume once (a second read of it is a GET), and a volume it does not hold
 *   (made after it, or gone) is a GET, which answers 404 when gone;
 * - a write through the client to the app's volumes drops the app's list: a read after a write
 *   never sees a list taken before it.
 * @module
 */
import type { Volume } from "./schemas";

/** How long a list of an app serves reads after it was asked for. */
export const LIST_SERVES_MS = 10_000;
/** Reads of an app this close together are reads of one refresh, even when the first has answered. */
export const TOGETHER_MS = 250;

interface AppReads {
  /** GETs in flight. */
  inFlight: number;
  /** When the last read of the app started. */
  lastReadAt: number;
  list?: { askedAt: number; volumes: Promise<Map<string, Volume> | undefined>; served: Set<string> };
}

/** One per VolumesClient. */
export class VolumeReads {
  private readonly apps = new Map<string, AppReads>();

  constructor(
    private readonly get: (app: string, id: string) => Promise<Volume>,
    private readonly list: (app: string) => Promise<Volume[]>,
    private readonly now: () => number = Date.now,
  ) {}

  private of(app: string): AppReads {
    let entry = this.apps.get(app);
    if (!entry) {
      entry = { inFlight: 0, lastReadAt: Number.NEGATIVE_INFINITY };
      this.apps.set(app, entry);
    }
    return entry;
  }

  /** The volume, from the app's list when reads of the app come together, else from a GET. */
  async read(app: string, id: string): Promise<Volume> {
    const entry = this.of(app);
    const now = this.now();
    const together = entry.inFlight > 0 || now - entry.lastReadAt <= TOGETHER_MS;
    entry.lastReadAt = now;
    let list = entry.list;
    if (list && now - list.askedAt > LIST_SERVES_MS) list = entry.list = undefined;
    if (!list && together) list = entry.list = this.startList(app);
    if (list && !list.served.has(id)) {
      list.served.add(id);
      const listed = (await list.volumes)?.get(id);
      if (listed) return listed;
    }
    entry.inFlight++;
    try {
      return await this.get(app, id);
    } finally {
      entry.inFlight--;
    }
  }

  private startList(app: string): NonNullable<AppReads["list"]> {
    // A failed list serves nothing: its reads go on as GETs, which report their own errors.
    const volumes = this.list(app).then(
      (all) => new Map(all.map((v) => [v.id, v])),
      () => undefined,
    );
    return { askedAt: this.now(), volumes, served: new Set() };
  }

  /**
   * Runs a write to the app's volumes: the app's list is dropped now and again when the write
   * settles, so a read after the write never uses a list taken before it landed.
   */
  writing<T>(app: string, write: Promise<T>): Promise<T> {
    const drop = () => {
      const entry = this.apps.get(app);
      if (entry) entry.list = undefined;
    };
    drop();
    return write.finally(drop);
  }
}
