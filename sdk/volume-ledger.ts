/**
 * What a client knows of an app's volumes, so that a create whose answer was lost takes over
 * only a volume that create may have made (see {@link VolumesClient.create}).
 *
 * The app's volumes are listed once per client and app, at its first create there, not before
 * every create: a list costs as much as the app has volumes, so listing per create made N creates
 * cost N² (a `pulumi up` of 500 volumes parsed 125,000 of them).
 * @module
 */
import type { Volume } from "./schemas";

interface AppVolumes {
  /** The app's volumes when this client first created one there, by id. */
  existing?: Promise<ReadonlyMap<string, Volume>>;
  /** Ids this client's creates returned or took over. */
  claimed: Set<string>;
  /** POSTs in flight; each claims its volume before it settles. */
  inFlight: Set<Promise<unknown>>;
  /** Create attempts whose outcome stayed unknown after the look (sent again, or given up). */
  unknown: UnknownCreate[];
  /** Lost create attempts whose look runs now, by request (name and region). */
  looking: Map<string, number>;
  /** Volumes a look took over, by id, and why. */
  takenOver: Map<string, TakeOver>;
}

/** A volume a create's look took over after its answer was lost: a judgement a person may check. */
export interface TakeOver {
  volume: Volume;
  /** When the lost attempt was sent (local ms). */
  sentAt: number;
  /** Why it was taken (the lost answer, the window, the only candidate). */
  why: string;
}

/** A create attempt whose answer could not be trusted and whose look found nothing. */
export interface UnknownCreate {
  name: string;
  /** The region asked for, when one was. */
  region: string | undefined;
  /** When the attempt was sent (ms). */
  sentAt: number;
  /** The earliest `created_at` (the platform's clock, ms) a volume it made can have (`earliestMadeAt`). */
  madeFrom: number;
}

/** One per VolumesClient. */
export class VolumeLedger {
  private readonly apps = new Map<string, AppVolumes>();

  private of(app: string): AppVolumes {
    let entry = this.apps.get(app);
    if (!entry) {
      entry = {
        claimed: new Set(),
        inFlight: new Set(),
        unknown: [],
        looking: new Map(),
        takenOver: new Map(),
      };
      this.apps.set(app, entry);
    }
    return entry;
  }

  /** The volumes listed at the client's first create in `app`; a failed list is not kept. */
  existing(app: string, list: () => Promise<Volume[]>): Promise<ReadonlyMap<string, Volume>> {
    const entry = this.of(app);
    if (!entry.existing) {
      const listed = list().then((volumes) => new Map(volumes.map((v) => [v.id, v])));
      entry.existing = listed;
      listed.catch(() => {
        if (entry.existing === listed) entry.existing = undefined;
      });
    }
    return entry.existing;
  }

  /** Runs a create POST; the volume it returns is claimed before the returned promise settles. */
  post(app: string, send: () => Promise<Volume>): Promise<Volume> {
    const entry = this.of(app);
    const sent = send().then((volume) => {
      entry.claimed.add(volume.id);
      return volume;
    });
    entry.inFlight.add(sent);
    const forget = () => entry.inFlight.delete(sent);
    sent.then(forget, forget);
    return sent;
  }

  /** The volumes listed at the client's first create in `app` (none before a create there). */
  async listedBefore(app: string): Promise<Volume[]> {
    const existing = this.apps.get(app)?.existing;
    return existing ? [...(await existing).values()] : [];
  }

  /** Settles once the create POSTs in flight now have settled (and claimed what they made). */
  async othersSettled(app: string): Promise<void> {
    await Promise.allSettled([...this.of(app).inFlight]);
  }

  /** Records a create attempt whose outcome stayed unknown: it may have made a volume nobody claims. */
  unknownOutcome(app: string, attempt: UnknownCreate): void {
    this.of(app).unknown.push(attempt);
  }

  /** The create attempts in `app` whose outcome stayed unknown. */
  unknownOutcomes(app: string): readonly UnknownCreate[] {
    return this.apps.get(app)?.unknown ?? [];
  }

  /**
   * Counts a lost attempt of request `key` as looking until the returned function is called: the
   * same request sent several times at once may have made as many volumes (see `lookVerdict`).
   */
  lookStarted(app: string, key: string): () => void {
    const { looking } = this.of(app);
    looking.set(key, (looking.get(key) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (looking.get(key) ?? 1) - 1;
      if (left > 0) looking.set(key, left);
      else looking.delete(key);
    };
  }

  /** How many lost attempts of request `key` in `app` are looking now. */
  looking(app: string, key: string): number {
    return this.apps.get(app)?.looking.get(key) ?? 0;
  }

  /** Of `candidates`, those nobody claimed and that were not listed as existing. */
  unclaimed(app: string, existing: ReadonlyMap<string, Volume>, candidates: Volume[]): Volume[] {
    const entry = this.of(app);
    return candidates.filter((v) => !entry.claimed.has(v.id) && !existing.has(v.id));
  }

  /**
   * Claims a volume a look took over, with why. Called in the same synchronous step as
   * {@link unclaimed}, so two lost creates of one name never take over the same volume.
   */
  takeOver(app: string, takeOver: TakeOver): void {
    const entry = this.of(app);
    entry.claimed.add(takeOver.volume.id);
    entry.takenOver.set(takeOver.volume.id, takeOver);
  }

  /** Why a look took volume `id` of `app` over, or undefined when no look took it. */
  takenOver(app: string, id: string): TakeOver | undefined {
    return this.apps.get(app)?.takenOver.get(id);
  }
}
