import type { RotatePasswordResponse } from "../../sdk/schemas";
import {
  isSystemPostgresUser,
  POSTGRES_USERNAME_PATTERN,
  RESERVED_POSTGRES_USERS,
} from "../../sdk/schemas/postgres-users";
import { strongPassword } from "../../sdk/simulation/ids";
import { gone, invalid, notFound, unavailable } from "../errors";
import type { StoreContext, StorePart } from "./context";

export type ClusterState = "ready" | "deleting" | "deleted";

/**
 * A user of a cluster. `password` is its current password (a seeded user's is one nobody was
 * told); state files written before it existed have none, and then no login succeeds until a
 * rotation.
 */
export interface ClusterUser {
  name: string;
  reserved: boolean;
  rotations: number;
  sessions_killed: number;
  password?: string;
}

export interface ClusterRecord {
  name: string;
  state: ClusterState;
  users: ClusterUser[];
  admin: { available: boolean; retry_after_seconds: number };
}

/** Postgres clusters and their users (spec 4.1, 7). */
export class PostgresStore implements StorePart<{ clusters: ClusterRecord[] }> {
  readonly clusters = new Map<string, ClusterRecord>();

  constructor(private readonly ctx: StoreContext) {
    this.reset();
  }

  /** The seeded clusters, ready, with available admin components. */
  reset(): void {
    this.clusters.clear();
    for (const c of this.ctx.seed.clusters) {
      this.clusters.set(c.name, {
        name: c.name,
        state: c.state,
        users: c.users.map((u) => ({ ...u, rotations: 0, sessions_killed: 0, password: strongPassword() })),
        admin: { available: true, retry_after_seconds: 5 },
      });
    }
  }

  serialize() {
    return { clusters: [...this.clusters.values()] };
  }

  /** Seeded clusters keep their saved state and users; clusters no longer seeded are kept too. */
  load(state: { clusters: ClusterRecord[] }): void {
    for (const c of state.clusters) this.clusters.set(c.name, c);
  }

  /** Checks in the order a caller can act on: cluster, its state, the admin component, the user. */
  rotate(clusterName: string, username: string, killSessions: boolean): RotatePasswordResponse {
    const cluster = this.find(clusterName);
    if (cluster.state === "deleted") throw gone(`postgres cluster "${clusterName}" has been deleted`);
    if (cluster.state === "deleting") throw gone(`postgres cluster "${clusterName}" is being deleted`);
    if (!cluster.admin.available) {
      throw unavailable(
        `the admin component of postgres cluster "${clusterName}" is unavailable; retry later`,
        cluster.admin.retry_after_seconds,
      );
    }
    if (!POSTGRES_USERNAME_PATTERN.test(username)) {
      throw invalid(
        `username "${username}" is malformed: use 1 to 63 lowercase letters, digits, "_" or "$", not starting with a digit`,
      );
    }
    const user = cluster.users.find((u) => u.name === username);
    if (user?.reserved || (!user && RESERVED_POSTGRES_USERS.includes(username))) {
      throw invalid(`user "${username}" is reserved: its password is managed by the platform`);
    }
    if (isSystemPostgresUser(username)) {
      throw invalid(`user "${username}" is a system user and cannot be rotated`);
    }
    if (!user) throw notFound(`user "${username}" not found in cluster "${clusterName}"`);
    user.rotations++;
    user.password = strongPassword();
    if (killSessions) user.sessions_killed++;
    this.ctx.changed();
    return { data: { username, password: user.password } };
  }

  /**
   * Whether `password` is `username`'s current password: what an app's next connection would be
   * told. A cluster that does not exist is a 404; a user that does not exist just fails to log in.
   */
  login(clusterName: string, username: string, password: string): boolean {
    const user = this.find(clusterName).users.find((u) => u.name === username);
    return user?.password !== undefined && user.password === password;
  }

  setState(clusterName: string, state: ClusterState): ClusterRecord {
    const cluster = this.find(clusterName);
    cluster.state = state;
    this.ctx.changed();
    return cluster;
  }

  setAdmin(clusterName: string, available: boolean, retryAfterSeconds?: number): ClusterRecord {
    const cluster = this.find(clusterName);
    cluster.admin = {
      available,
      retry_after_seconds: retryAfterSeconds ?? cluster.admin.retry_after_seconds,
    };
    this.ctx.changed();
    return cluster;
  }

  private find(name: string): ClusterRecord {
    const cluster = this.clusters.get(name);
    if (!cluster) throw notFound(`postgres cluster "${name}" not found`);
    return cluster;
  }
}
