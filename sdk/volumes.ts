/**
 * Volumes and their snapshots (spec 4.3): paths, bodies and the two waits. Create volume is
 * made safe against ambiguous failures by adopting the volume it may already have made.
 * @module
 */
import {
  type AmbiguousRequestError,
  AmbiguousTakeOverError,
  InvalidArgumentError,
  lostAnswerText,
  TimeoutError,
} from "./errors";
import { sendLookingAfterLoss } from "./lost-answer";
import { apiPath } from "./paths";
import { earliestMadeAt, lookVerdict } from "./retry-policy";
import {
  type Backup,
  type CreateVolumeRequest,
  CreateVolumeRequestSchema,
  type ExtendVolumeResponse,
  ExtendVolumeResponseSchema,
  GONE_VOLUME_STATES,
  OnDemandSnapshotResponseSchema,
  type Snapshot,
  SnapshotListSchema,
  type UpdateVolumeRequest,
  UpdateVolumeRequestSchema,
  type Volume,
  VolumeListSchema,
  VolumeSchema,
  type VolumeState,
} from "./schemas";
import type { CallOptions, Transport } from "./transport";
import { checkArgument } from "./validate";
import { type TakeOver, type UnknownCreate, VolumeLedger } from "./volume-ledger";
import { VolumeReads } from "./volume-reads";
import { DEFAULT_WAIT_MS, pollUntil, type WaitOptions } from "./wait";

/**
 * Whether `volume` could be the one a create with `body` made. The size is compared only for an
 * empty volume: the spec does not say a restore or fork keeps the size asked for.
 */
function madeBy(body: CreateVolumeRequest, volume: Volume): boolean {
  const fromData = body.snapshot_id !== undefined || body.source_volume_id !== undefined;
  return (
    volume.name === body.name &&
    (body.region === undefined || volume.region === body.region) &&
    (fromData || body.size_gb === undefined || volume.size_gb === body.size_gb)
  );
}

/** The same create request, for counting a client's lost attempts of it (see `lookVerdict`). */
const requestKey = (body: CreateVolumeRequest) => `${body.name}\u0000${body.region ?? ""}`;

/** What to do when a look cannot tell which volume is this create's. */
const TAKE_OVER_WAY_OUT =
  "Find which one is yours (its zone, attachments, data) and take it with `npx pulumi-platform adopt` (or a Volume's `adoptVolumeId`); `npx pulumi-platform recover` does it for a killed `pulumi up`'s pending create. Delete by hand (`DELETE /v1/apps/{app}/volumes/{id}`) only the one no stack or person owns";

/** The text of {@link VolumesClient.takenOver}: what was lost, the window, the one candidate. */
function takeOverWhy(
  app: string,
  volume: Volume,
  lost: AmbiguousRequestError,
  since: number,
  skewMs: number | undefined,
): string {
  const clock =
    skewMs === undefined
      ? "no answer carried the platform's time, so 60 s of clock slack were allowed"
      : `the platform's clock read from its Date header, ${Math.round(skewMs / 1000)} s from this machine's`;
  return `the answer to its create was lost (${lostAnswerText(lost)}); volume ${volume.id} "${volume.name}" (${volume.region}, created ${volume.created_at}) is the only volume of that name in app ${app} made since the attempt was sent (from ${new Date(since).toISOString()}; ${clock}) that this client does not hold, so it was taken as what that create made. If another writer (another stack, a person) made it at that moment, it is theirs: check before destroying it`;
}

/** Volumes of the apps the token can reach. Obtain it as `PlatformClient.volumes`. */
export class VolumesClient {
  private readonly ledger = new VolumeLedger();
  private readonly reads = new VolumeReads(
    (app, id) => this.get(app, id),
    (app) => this.list(app),
  );

  /** @internal */
  constructor(private readonly transport: Transport) {}

  /** Lists the app's volumes (GET /v1/apps/{app}/volumes). */
  list(app: string, opts?: CallOptions): Promise<Volume[]> {
    return this.transport.request({
      method: "GET",
      path: apiPath`/v1/apps/${app}/volumes`,
      schema: VolumeListSchema,
      signal: opts?.signal,
    });
  }

  /** Gets one volume. */
  get(app: string, volumeId: string, opts?: CallOptions): Promise<Volume> {
    return this.transport.request({
      method: "GET",
      path: apiPath`/v1/apps/${app}/volumes/${volumeId}`,
      schema: VolumeSchema,
      signal: opts?.signal,
    });
  }

  /**
   * Gets one volume like {@link get}, for callers that read many volumes of an app at once (a
   * refresh): reads that come together are served by one list of the app instead of one GET each.
   * The first read with nothing else in flight is a GET; a list serves each volume once and only
   * for a few seconds; a volume it does not hold is a GET (404 when gone); a write through this
   * client drops the app's list. A listed volume carries what a GET would.
   */
  getListed(app: string, volumeId: string): Promise<Volume> {
    return this.reads.read(app, volumeId);
  }

  /**
   * Creates a volume; `body` is the spec's create table as is (snake_case). If the outcome of an
   * attempt is unknown (connection dropped after sending, timeout, a 5xx), the app's volumes are
   * listed and a volume that attempt may have made is returned instead of creating another one:
   * same name (and region and size, when given), not destroyed, created since the attempt (the
   * platform's clock read from its `Date` header, else 60 s of slack: `earliestMadeAt`), not
   * among the app's volumes when this client first created one there, and not returned to another
   * create of this client (those in flight are waited for first). The one rule of the retry
   * policy decides (`lookVerdict`): one such volume is taken over, and {@link takenOver} says why;
   * more than this client's lost attempts of that create can have made means another writer made
   * some: none is taken and an AmbiguousTakeOverError names them all. Only when there is none is
   * the create sent again (at most 3 attempts).
   */
  async create(app: string, body: CreateVolumeRequest, opts?: CallOptions): Promise<Volume> {
    checkArgument(CreateVolumeRequestSchema, body, "body");
    const signal = opts?.signal;
    const path = apiPath`/v1/apps/${app}/volumes`;
    // Shared by the client's creates in this app: not tied to one caller's signal.
    const existing = await this.ledger.existing(app, () => this.list(app));
    const post = () =>
      this.reads.writing(
        app,
        this.ledger.post(app, () =>
          this.transport.request({ method: "POST", path, body, schema: VolumeSchema, signal }),
        ),
      );
    const key = requestKey(body);
    return sendLookingAfterLoss(post, async (sentAt, lost) => {
      const lookEnded = this.ledger.lookStarted(app, key);
      try {
        await this.ledger.othersSettled(app);
        const listed = await this.list(app, opts);
        const skew = this.transport.clock.skewMs;
        const since = earliestMadeAt(sentAt, skew);
        const made = listed.filter(
          (v) => madeBy(body, v) && !GONE_VOLUME_STATES.has(v.state) && Date.parse(v.created_at) >= since,
        );
        // From here to the claim: one synchronous step (two lost creates never take one volume).
        const candidates = this.ledger.unclaimed(app, existing, made);
        const verdict = lookVerdict(candidates, this.ledger.looking(app, key));
        if (verdict.take === "one") {
          const volume = verdict.candidate;
          this.ledger.takeOver(app, { volume, sentAt, why: takeOverWhy(app, volume, lost, since, skew) });
          return volume;
        }
        if (verdict.take === "none-of-many") {
          throw new AmbiguousTakeOverError(
            "POST",
            lost.path,
            `volumes named "${body.name}" in app ${app} that this client does not hold`,
            verdict.candidates.map((v) => ({
              id: v.id,
              detail: `${v.region}, ${v.zone}, created ${v.created_at}`,
            })),
            TAKE_OVER_WAY_OUT,
            lost,
          );
        }
        this.ledger.unknownOutcome(app, { name: body.name, region: body.region, sentAt, madeFrom: since });
        return undefined;
      } finally {
        lookEnded();
      }
    });
  }

  /**
   * Why a create's look took volume `volumeId` of `app` over after its answer was lost, or
   * undefined when the volume is what a create's answer returned (or not this client's). It is a
   * judgement: when the lost attempt made nothing, the volume may be another writer's, made at
   * the same time with the same name. Tell the user (the provider warns with it).
   */
  takenOver(app: string, volumeId: string): TakeOver | undefined {
    return this.ledger.takenOver(app, volumeId);
  }

  /**
   * The create attempts of this client in `app` whose outcome stayed unknown (no answer to trust,
   * and the look found no volume they made): each may have made a volume after all, which nothing
   * claims. Lets a caller tell its own possible leftovers from another run's.
   */
  uncertainCreates(app: string): readonly UnknownCreate[] {
    return this.ledger.unknownOutcomes(app);
  }

  /**
   * The app's volumes as they were listed at this client's first create there (the list the
   * lost-answer rule above relies on; no request of its own), or none before a create there.
   */
  listedBeforeCreates(app: string): Promise<Volume[]> {
    return this.ledger.listedBefore(app).catch(() => []);
  }

  /** Updates retention settings (PUT). */
  update(app: string, volumeId: string, body: UpdateVolumeRequest, opts?: CallOptions): Promise<Volume> {
    checkArgument(UpdateVolumeRequestSchema, body, "body");
    return this.reads.writing(
      app,
      this.transport.request({
        method: "PUT",
        path: apiPath`/v1/apps/${app}/volumes/${volumeId}`,
        body,
        schema: VolumeSchema,
        signal: opts?.signal,
      }),
    );
  }

  /** Deletes (destroys) a volume; returns it with state `destroyed`. Cannot be undone. */
  delete(app: string, volumeId: string, opts?: CallOptions): Promise<Volume> {
    return this.reads.writing(
      app,
      this.transport.request({
        method: "DELETE",
        path: apiPath`/v1/apps/${app}/volumes/${volumeId}`,
        schema: VolumeSchema,
        signal: opts?.signal,
      }),
    );
  }

  /**
   * Grows a volume to `sizeGb`; `needs_restart` says whether the attached machine must restart.
   * When the outcome is unknown (a lost answer, a 5xx), the volume is read before anything is
   * sent again: at `sizeGb` or more, the extend landed and that is returned, with `needs_restart`
   * true when a machine is attached (the answer that said was lost); else it is sent again (at
   * most 3 attempts). A repeat would be refused once the first one landed (volumes only grow).
   */
  extend(app: string, volumeId: string, sizeGb: number, opts?: CallOptions): Promise<ExtendVolumeResponse> {
    if (!Number.isInteger(sizeGb) || sizeGb <= 0) {
      throw new InvalidArgumentError(`sizeGb must be a positive integer (got ${sizeGb})`);
    }
    const send = () =>
      this.transport.request({
        method: "PUT",
        path: apiPath`/v1/apps/${app}/volumes/${volumeId}/extend`,
        body: { size_gb: sizeGb },
        schema: ExtendVolumeResponseSchema,
        signal: opts?.signal,
      });
    const look = async (): Promise<ExtendVolumeResponse | undefined> => {
      const volume = await this.get(app, volumeId, opts);
      return volume.size_gb >= sizeGb
        ? { volume, needs_restart: volume.attached_machine_id !== null }
        : undefined;
    };
    return this.reads.writing(app, sendLookingAfterLoss(send, look));
  }

  /** Lists a volume's snapshots. */
  listSnapshots(app: string, volumeId: string, opts?: CallOptions): Promise<Snapshot[]> {
    return this.transport.request({
      method: "GET",
      path: apiPath`/v1/apps/${app}/volumes/${volumeId}/snapshots`,
      schema: SnapshotListSchema,
      signal: opts?.signal,
    });
  }

  /**
   * Starts an on-demand snapshot (beta). Returns the backup; its `graph_id` is the id the
   * snapshot will have in {@link listSnapshots} (see {@link waitForSnapshot}). Never repeated
   * after an ambiguous failure: list the snapshots to see whether one was taken.
   */
  async createSnapshot(app: string, volumeId: string, opts?: CallOptions): Promise<Backup> {
    const res = await this.transport.request({
      method: "POST",
      path: apiPath`/v1/apps/${app}/volumes/${volumeId}/snapshots`,
      schema: OnDemandSnapshotResponseSchema,
      signal: opts?.signal,
    });
    return res.Msg.backup;
  }

  /**
   * Polls with backoff until the volume is in `state`. The TimeoutError names the last state seen.
   */
  async waitUntil(app: string, volumeId: string, state: VolumeState, opts?: WaitOptions): Promise<Volume> {
    let last: string | undefined;
    return pollUntil(
      opts,
      () =>
        new TimeoutError(
          `volume ${volumeId} of app ${app} did not reach state "${state}" within ${opts?.timeoutMs ?? DEFAULT_WAIT_MS} ms; last state seen: ${last === undefined ? "none (no answer)" : `"${last}"`}`,
        ),
      async (signal) => {
        const volume = await this.get(app, volumeId, { signal });
        last = volume.state;
        return volume.state === state ? volume : undefined;
      },
    );
  }

  /** Polls with backoff until snapshot `snapshotId` (a backup's `graph_id`) is listed. */
  async waitForSnapshot(
    app: string,
    volumeId: string,
    snapshotId: string,
    opts?: WaitOptions,
  ): Promise<Snapshot> {
    let seen: number | undefined;
    return pollUntil(
      opts,
      () =>
        new TimeoutError(
          `snapshot ${snapshotId} of volume ${volumeId} (app ${app}) was still not listed after ${opts?.timeoutMs ?? DEFAULT_WAIT_MS} ms (${seen ?? "no"} other snapshots listed)`,
        ),
      async (signal) => {
        const list = await this.listSnapshots(app, volumeId, { signal });
        seen = list.length;
        return list.find((s) => s.id === snapshotId);
      },
    );
  }
}
