/**
 * What `pulumi-platform recover` knows of a resource kind: what a pending create of it may have
 * made at the platform that no resource of the stack owns. Each kind's home holds its rule (its
 * definition's `recovery`); `ops/recover-plan` reads them from the registry. Reading only: the
 * platform is asked through {@link PlatformLookups}, the sdk in the command, anything in tests.
 * @module
 */

/** The parts of an exported checkpoint resource (`pulumi stack export`) recover reads. */
export interface CheckpointResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A volume as the platform lists it (the members recover and the sweep read). */
export interface ListedVolume {
  id: string;
  name: string;
  region: string;
  state: string;
  created_at: string;
  attached_machine_id: string | null;
}

/** What recover reads from the platform; the sdk in the command, anything in tests. */
export interface PlatformLookups {
  /** The app's volumes. */
  volumes(app: string): Promise<ListedVolume[]>;
  /** The hostname's kinds, or undefined when the hostname does not exist. */
  hostname(app: string, hostname: string): Promise<{ acme: boolean; custom: boolean } | undefined>;
}

/** What a pending create of one kind may have made: candidates, or why there is none. */
export type Finding = { candidates: Candidate[] } | { none: string };

/** One thing a pending create may have made: `what` names it in the plan, `brief` among others. */
export interface Candidate {
  key: string;
  id: string;
  what: string;
  brief: string;
}

/** What recover knows of one resource kind. */
export interface KindRecovery {
  /** The key of what a resource of the stack owns at the platform, when it owns something findable. */
  owned(resource: CheckpointResource, props: Record<string, unknown>): string | undefined;
  /**
   * What a pending create with these inputs may have made in `app`. `free(key)`: no resource of
   * the stack owns it and no other pending create claimed it.
   */
  find(
    inputs: Record<string, unknown>,
    app: string,
    context: { platform: PlatformLookups; since: number; free: (key: string) => boolean },
  ): Promise<Finding>;
}

/** A non-empty string, else undefined. */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A kind whose create leaves nothing recover could tell apart: its pending create is dropped. */
export function leavesNothing(why: string): KindRecovery {
  return { owned: () => undefined, find: async () => ({ none: why }) };
}
