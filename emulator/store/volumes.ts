import type {
  Backup,
  ExtendVolumeResponse,
  OnDemandSnapshotResponse,
  Snapshot,
  Volume,
} from "../../sdk/schemas";
import { isKnownRegion, PLATFORM_REGIONS } from "../../sdk/schemas/regions";
import { SNAPSHOT_RETENTION_DEFAULT } from "../../sdk/schemas/volume-constants";
import { randomId, stableHex } from "../../sdk/simulation/ids";
import { conflict, invalid, notFound, unprocessable } from "../errors";
import type {
  CreateVolumeBody as CreateVolumeRequest,
  UpdateVolumeBody as UpdateVolumeRequest,
} from "../requests";
import type { StoreContext, StorePart } from "./context";

export interface VolumeRecord {
  id: string;
  app: string;
  name: string;
  state: "created" | "restoring";
  size_gb: number;
  region: string;
  zone: string;
  encrypted: boolean;
  fstype: string;
  attached_machine_id: string | null;
  attached_alloc_id: string | null;
  created_at: number;
  snapshot_retention: number;
  auto_backup_enabled: boolean;
  host_dedication_key: string;
  machines_only: boolean;
  require_unique_zone: boolean;
  /** While restoring: virtual time at which the volume becomes `created`. */
  ready_at: number | null;
}

export interface SnapshotRecord {
  id: string;
  app: string;
  volume_id: string;
  backup_id: string;
  region: string;
  size_gb: number;
  size: number;
  digest: string;
  created_at: number;
  retention_days: number;
  /** Virtual time from which the snapshot shows in the list and can be restored. */
  visible_at: number;
}

const GIB = 1024 ** 3;
const BLOCK_SIZE = 4096;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Volumes and their snapshots (spec 4.3, 3.1, 3.4). */
export class VolumeStore implements StorePart<{ volumes: VolumeRecord[]; snapshots: SnapshotRecord[] }> {
  readonly volumes = new Map<string, VolumeRecord>();
  readonly snapshots = new Map<string, SnapshotRecord>();

  constructor(private readonly ctx: StoreContext) {}

  reset(): void {
    this.volumes.clear();
    this.snapshots.clear();
  }

  serialize() {
    return { volumes: [...this.volumes.values()], snapshots: [...this.snapshots.values()] };
  }

  load(state: { volumes: VolumeRecord[]; snapshots: SnapshotRecord[] }): void {
    for (const v of state.volumes) this.volumes.set(v.id, v);
    for (const s of state.snapshots) this.snapshots.set(s.id, s);
  }

  list(app: string): Volume[] {
    const out: Volume[] = [];
    for (const v of this.volumes.values()) if (v.app === app) out.push(this.view(v, false));
    return out;
  }

  get(app: string, id: string): Volume {
    return this.view(this.find(app, id), false);
  }

  create(app: string, region: string, req: CreateVolumeRequest): Volume {
    if (req.snapshot_id && req.source_volume_id) {
      throw invalid("snapshot_id and source_volume_id cannot be combined: create from one or the other");
    }
    if (req.region !== undefined && !isKnownRegion(req.region)) {
      throw invalid(
        `region "${req.region}" is not a region of the platform (${PLATFORM_REGIONS.join(", ")})`,
      );
    }
    const now = this.ctx.clock.now();
    let size = req.size_gb ?? 3;
    let state: VolumeRecord["state"] = "created";
    let readyAt: number | null = null;
    let encrypted = req.encrypted ?? true;
    if (req.snapshot_id) {
      if (!req.region)
        throw invalid("region is required when creating a volume from a snapshot (snapshot_id)");
      const snap = this.findSnapshot(req.snapshot_id);
      size = req.size_gb ?? snap.size_gb;
      if (size < snap.size_gb) {
        throw invalid(`size_gb ${size} is smaller than snapshot "${snap.id}" (${snap.size_gb} GB)`);
      }
      state = "restoring";
      readyAt = now + this.ctx.timing.restoreDelayMs;
    } else if (req.source_volume_id) {
      const source = this.find(app, req.source_volume_id);
      region = req.region ?? source.region;
      size = req.size_gb ?? source.size_gb;
      encrypted = req.encrypted ?? source.encrypted;
      if (size < source.size_gb) {
        throw invalid(`size_gb ${size} is smaller than source volume "${source.id}" (${source.size_gb} GB)`);
      }
    }
    region = req.region ?? region;
    const requireUniqueZone = req.require_unique_zone ?? true;
    const record: VolumeRecord = {
      id: randomId("vol_"),
      app,
      name: req.name,
      state,
      size_gb: size,
      region,
      zone: this.pickZone(app, req.name, region, requireUniqueZone),
      encrypted,
      fstype: req.fstype ?? "ext4",
      attached_machine_id: null,
      attached_alloc_id: null,
      created_at: now,
      snapshot_retention: req.snapshot_retention ?? SNAPSHOT_RETENTION_DEFAULT,
      auto_backup_enabled: req.auto_backup_enabled ?? true,
      host_dedication_key: req.compute?.host_dedication_id ?? "",
      machines_only: req.machines_only ?? false,
      require_unique_zone: requireUniqueZone,
      ready_at: readyAt,
    };
    this.volumes.set(record.id, record);
    this.ctx.changed();
    return this.view(record, true);
  }

  update(app: string, id: string, req: UpdateVolumeRequest): Volume {
    const v = this.find(app, id);
    if (req.auto_backup_enabled !== undefined) v.auto_backup_enabled = req.auto_backup_enabled;
    if (req.snapshot_retention !== undefined) v.snapshot_retention = req.snapshot_retention;
    this.ctx.changed();
    return this.view(v, false);
  }

  extend(app: string, id: string, sizeGb: number): ExtendVolumeResponse {
    const v = this.find(app, id);
    if (v.state === "restoring")
      throw conflict(`volume "${id}" is still restoring; extend it once it is created`);
    if (sizeGb <= v.size_gb) {
      throw invalid(
        `volumes can only grow: size_gb ${sizeGb} is not larger than the current size of ${v.size_gb} GB`,
      );
    }
    v.size_gb = sizeGb;
    this.ctx.changed();
    return { volume: this.view(v, true), needs_restart: v.attached_machine_id !== null };
  }

  destroy(app: string, id: string): Volume {
    const v = this.find(app, id);
    this.volumes.delete(id);
    this.ctx.changed();
    return { ...this.view(v, true), state: "destroyed" };
  }

  listSnapshots(app: string, id: string): Snapshot[] {
    this.find(app, id);
    const now = this.ctx.clock.now();
    this.purgeExpiredSnapshots(now);
    const out: Snapshot[] = [];
    for (const s of this.snapshots.values()) {
      if (s.volume_id !== id || s.visible_at > now) continue;
      out.push({
        id: s.id,
        size: s.size,
        digest: s.digest,
        created_at: this.ctx.clock.iso(s.created_at),
        retention_days: s.retention_days,
      });
    }
    return out;
  }

  createSnapshot(app: string, id: string): OnDemandSnapshotResponse {
    const v = this.find(app, id);
    const now = this.ctx.clock.now();
    const snap: SnapshotRecord = {
      id: randomId("vs_"),
      app,
      volume_id: v.id,
      backup_id: randomId("bkp_"),
      region: v.region,
      size_gb: v.size_gb,
      size: usedBytes(v.size_gb),
      digest: "",
      created_at: now,
      retention_days: v.snapshot_retention,
      visible_at: now + this.ctx.timing.snapshotListDelayMs,
    };
    snap.digest = `sha256:${stableHex(64, snap.id)}`;
    this.snapshots.set(snap.id, snap);
    this.ctx.changed();
    const iso = this.ctx.clock.iso(now);
    const backup: Backup = {
      id: snap.backup_id,
      app_id: app,
      volume_id: v.id,
      state: "prepare",
      type: "BACKUP_TYPE_ON_DEMAND",
      message: "",
      created_at: iso,
      updated_at: iso,
      finished_at: null,
      graph_id: snap.id,
    };
    return { Msg: { backup } };
  }

  attach(id: string, machineId: string): Volume {
    const v = this.findAny(id);
    v.attached_machine_id = machineId;
    this.ctx.changed();
    return this.view(v, false);
  }

  detach(id: string): Volume {
    const v = this.findAny(id);
    v.attached_machine_id = null;
    v.attached_alloc_id = null;
    this.ctx.changed();
    return this.view(v, false);
  }

  /** The wire shape. `fresh` gives the zeroed block fields of create/restore/extend/destroy responses. */
  view(v: VolumeRecord, fresh: boolean): Volume {
    if (v.state === "restoring" && v.ready_at !== null && this.ctx.clock.now() >= v.ready_at) {
      v.state = "created";
      v.ready_at = null;
    }
    const zero = fresh || v.state === "restoring";
    const blocks = zero ? 0 : (v.size_gb * GIB) / BLOCK_SIZE;
    const blocksFree = zero ? 0 : Math.floor(blocks * 0.97);
    return {
      id: v.id,
      name: v.name,
      state: v.state,
      size_gb: v.size_gb,
      region: v.region,
      zone: v.zone,
      encrypted: v.encrypted,
      attached_machine_id: v.attached_machine_id,
      attached_alloc_id: v.attached_alloc_id,
      created_at: this.ctx.clock.iso(v.created_at),
      blocks,
      block_size: zero ? 0 : BLOCK_SIZE,
      blocks_free: blocksFree,
      blocks_avail: zero ? 0 : blocksFree - Math.floor(blocks * 0.05),
      fstype: zero ? "" : v.fstype,
      snapshot_retention: v.snapshot_retention,
      auto_backup_enabled: v.auto_backup_enabled,
      host_dedication_key: v.host_dedication_key,
    };
  }

  zonesOf(region: string): string[] {
    return Array.from({ length: this.ctx.zonesPerRegion }, (_, i) => stableHex(4, "zone", region, String(i)));
  }

  private pickZone(app: string, name: string, region: string, unique: boolean): string {
    const zones = this.zonesOf(region);
    const counts = new Map(zones.map((z) => [z, 0]));
    const taken = new Set<string>();
    for (const v of this.volumes.values()) {
      if (v.region !== region) continue;
      counts.set(v.zone, (counts.get(v.zone) ?? 0) + 1);
      if (v.app === app && v.name === name) taken.add(v.zone);
    }
    const candidates = unique ? zones.filter((z) => !taken.has(z)) : zones;
    if (candidates.length === 0) {
      throw unprocessable(
        `no unique zone left for volume name "${name}" in region "${region}": all ${zones.length} zones ` +
          `already hold a volume of that name (set require_unique_zone to false to share a zone)`,
      );
    }
    // Least-loaded zone first, so placement is deterministic and spreads volumes.
    return candidates.reduce((best, z) => ((counts.get(z) ?? 0) < (counts.get(best) ?? 0) ? z : best));
  }

  private find(app: string, id: string): VolumeRecord {
    const v = this.volumes.get(id);
    if (!v || v.app !== app) throw notFound(`volume "${id}" not found in app "${app}"`);
    return v;
  }

  private findAny(id: string): VolumeRecord {
    const v = this.volumes.get(id);
    if (!v) throw notFound(`volume "${id}" not found`);
    return v;
  }

  private findSnapshot(id: string): SnapshotRecord {
    const now = this.ctx.clock.now();
    this.purgeExpiredSnapshots(now);
    const s = this.snapshots.get(id);
    if (!s) throw notFound(`snapshot "${id}" not found`);
    if (s.visible_at > now) throw conflict(`snapshot "${id}" is not ready yet; retry in a moment`);
    return s;
  }

  /** Retention counts in virtual days, whether or not the source volume still exists. */
  purgeExpiredSnapshots(now: number): void {
    for (const s of this.snapshots.values()) {
      if (s.created_at + s.retention_days * DAY_MS <= now) {
        this.snapshots.delete(s.id);
        this.ctx.changed();
      }
    }
  }
}

function usedBytes(sizeGb: number): number {
  // A young volume holds a little data: about 3% of its size (the filesystem's own overhead).
  return Math.floor(sizeGb * GIB * 0.03);
}
