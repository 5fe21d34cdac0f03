import type { VirtualClock } from "../clock";
import { notFound } from "../errors";
import type { ResolvedTiming } from "../options";
import type { TaskRecord } from "../tasks/registry";
import { TaskRegistry } from "../tasks/registry";
import { type CertificateRecord, CertificateStore } from "./certificates";
import type { StoreContext, StorePart } from "./context";
import { type DnsRecord, SimulatedDns } from "./dns";
import { type ClusterRecord, PostgresStore } from "./postgres";
import type { Seed, SeedApp } from "./seed";
import { type SnapshotRecord, type VolumeRecord, VolumeStore } from "./volumes";

/** Everything `--state FILE` keeps across restarts. */
export interface PersistedState {
  version: 1;
  /** Virtual time when saved: the clock never runs backwards across a restart. */
  saved_at: number;
  volumes: VolumeRecord[];
  snapshots: SnapshotRecord[];
  certificates: CertificateRecord[];
  tasks: TaskRecord[];
  clusters: ClusterRecord[];
  dns: DnsRecord[];
}

export interface StoreOptions {
  clock: VirtualClock;
  timing: ResolvedTiming;
  seed: Seed;
  zonesPerRegion: number;
}

/** All emulated platform state. No HTTP here: routes call these methods and map errors. */
export class Store {
  readonly ctx: StoreContext;
  readonly dns: SimulatedDns;
  readonly volumes: VolumeStore;
  readonly certificates: CertificateStore;
  readonly postgres: PostgresStore;
  readonly tasks: TaskRegistry;
  private listeners: (() => void)[] = [];
  private apps: Map<string, SeedApp>;

  constructor(options: StoreOptions) {
    this.ctx = { ...options, changed: () => this.emitChange() };
    this.dns = new SimulatedDns(this.ctx.changed);
    this.volumes = new VolumeStore(this.ctx);
    this.certificates = new CertificateStore(this.ctx, this.dns);
    this.postgres = new PostgresStore(this.ctx);
    this.tasks = new TaskRegistry(this.ctx);
    this.apps = new Map(options.seed.apps.map((a) => [a.name, a]));
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  requireApp(name: string): SeedApp {
    const app = this.apps.get(name);
    if (!app) throw notFound(`app "${name}" not found`);
    return app;
  }

  /** Every part, in the order of the state file's members. */
  private get parts(): StorePart<Partial<PersistedState>>[] {
    return [this.volumes, this.certificates, this.tasks, this.postgres, this.dns] as StorePart<
      Partial<PersistedState>
    >[];
  }

  /** Back to the seed: no volumes, snapshots, certificates, tasks or DNS records. */
  reset(): void {
    for (const part of this.parts) part.reset();
    this.emitChange();
  }

  serialize(): PersistedState {
    const state = { version: 1 as const, saved_at: this.ctx.clock.now() };
    return Object.assign(state, ...this.parts.map((part) => part.serialize())) as PersistedState;
  }

  load(state: PersistedState): void {
    this.ctx.clock.advanceTo(state.saved_at);
    for (const part of this.parts) part.load(state);
  }

  /** Everything, in wire shapes where one exists (GET /__emulator/state). */
  dump() {
    const clock = this.ctx.clock;
    const now = clock.now();
    this.volumes.purgeExpiredSnapshots(now);
    return {
      now: clock.iso(now),
      apps: this.ctx.seed.apps,
      volumes: [...this.volumes.volumes.values()].map((v) => ({
        app: v.app,
        ...this.volumes.view(v, false),
      })),
      snapshots: [...this.volumes.snapshots.values()].map((s) => ({
        id: s.id,
        app: s.app,
        volume_id: s.volume_id,
        size: s.size,
        retention_days: s.retention_days,
        created_at: clock.iso(s.created_at),
        listed: s.visible_at <= now,
      })),
      certificates: [...this.certificates.records.values()].map((c) =>
        this.certificates.get(c.app, c.hostname),
      ),
      tasks: this.tasks.list(),
      postgres: [...this.postgres.clusters.values()].map((c) => ({
        name: c.name,
        state: c.state,
        admin: c.admin,
        // Passwords stay inside: the login control tells whether one works.
        users: c.users.map(({ password: _, ...user }) => user),
      })),
      dns: this.dns.list(),
    };
  }

  private emitChange(): void {
    for (const l of this.listeners) l();
  }
}
