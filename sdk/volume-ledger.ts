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
}

/** A create attempt whose answer could not be trusted and whose look found nothing. */
export interface UnknownCreate {
  name: string;
  /** The region asked for, when one was. */
  region: string | undefined;
  /** When the attempt was sent (ms). */
  sentAt: number;
}

/** One per VolumesClient. */
export class VolumeLedger {
  private readonly apps = new Map<string, AppVolumes>();

  private of(app: string): AppVolumes {
    let entry = this.apps.get(app);
    if (!entry) {
      entry = { claimed: new Set(), inFlight: new Set(), unknown: [] };
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
   * Claims the first of `candidates` nobody claimed and that was not listed as existing.
   * Synchronous, so two lost creates of the same name never take over the same volume.
   */
  claimFirst(app: string, existing: ReadonlyMap<string, Volume>, candidates: Volume[]): Volume | undefined {
    const entry = this.of(app);
    const volume = candidates.find((v) => !entry.claimed.has(v.id) && !existing.has(v.id));
    if (volume) entry.claimed.add(volume.id);
    return volume;
  }
}
