/**
 * What `pulumi-platform recover` will do about an interrupted `pulumi up`: for every pending
 * create in the stack's checkpoint, what it may have made at the platform that no resource of
 * the stack owns. Reading only; ./recover-checkpoint applies the plan.
 * @module
 */
import { GONE_VOLUME_STATES } from "../../sdk/schemas/volume-constants";
import { keyOfTypeToken, type ResourceKey } from "../registry";

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

/** An exported deployment (`pulumi stack export`, version 3). */
export interface ExportedDeployment {
  version: number;
  deployment: {
    resources?: CheckpointResource[];
    pending_operations?: { resource: CheckpointResource; type: string; [key: string]: unknown }[];
    [key: string]: unknown;
  };
}

/** Our resource kinds: their runtime keys (../registry). */
export type RecoverableKind = ResourceKey;

/** The kind of a checkpoint resource type, or undefined when it is not one of ours. */
export function kindOf(type: string): RecoverableKind | undefined {
  return keyOfTypeToken(type);
}

/** One pending create and what to do about it. */
export type PendingAction =
  /**
   * Something at the platform is this resource: record it in the stack with this id. `replacing`:
   * the pending create was a replacement of the resource of that URN (which then is deleted by the
   * next `up`, as the interrupted one would have done).
   */
  | { action: "import"; kind: RecoverableKind; urn: string; id: string; what: string; replacing?: true }
  /**
   * Nothing (identifiable) was made: drop the pending operation; the next `up` creates it.
   * `recreated`: a later `up` already created the resource again, so what the interrupted create
   * made is an orphan only the sweep can find.
   */
  | { action: "clear"; kind: RecoverableKind; urn: string; why: string; recreated?: true }
  /** More than one candidate: left pending, the user decides. */
  | { action: "ambiguous"; kind: RecoverableKind; urn: string; candidates: string[] };

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

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Ids (volumes) and `app/hostname/kind` keys (certificates) that resources of the stack own. */
function owned(resources: CheckpointResource[]): Set<string> {
  const keys = new Set<string>();
  for (const r of resources) {
    const kind = kindOf(r.type);
    const props = { ...(r.inputs ?? {}), ...(r.outputs ?? {}) };
    if (kind === "volume" && r.id) keys.add(r.id);
    if (kind === "acmeCertificate" || kind === "customCertificate") {
      keys.add(`${String(props.app)}/${String(props.hostname ?? r.id)}/${kind}`);
    }
  }
  return keys;
}

/**
 * The plan for every pending create of the deployment. A volume a pending create made is named
 * like it, owned by no resource, attached to nothing, and created after `since` when given (the
 * interrupted update's start, from its lock, else the end of the last update that completed).
 */
export async function planRecovery(
  exported: ExportedDeployment,
  platform: PlatformLookups,
  options: { since?: Date } = {},
): Promise<PendingAction[]> {
  const since = options.since?.getTime() ?? Number.NEGATIVE_INFINITY;
  const deployment = exported.deployment;
  const own = owned(deployment.resources ?? []);
  const plan: PendingAction[] = [];
  const claimed = new Set<string>();
  const existing = new Set((deployment.resources ?? []).map((r) => r.urn));
  for (const op of deployment.pending_operations ?? []) {
    const r = op.resource;
    const kind = kindOf(r.type);
    // Other providers' pending creates are theirs to resolve: left as they are.
    if (op.type !== "creating" || kind === undefined) continue;
    // The URN is in the stack already: the pending create replaced it (an input that replaces
    // changed), or a later `up` created it again. Only a replacement's create is found below: it
    // was made since the interrupted update began, and the stack does not own it.
    const replacing = existing.has(r.urn) ? ({ replacing: true } as const) : {};
    const cleared = (why: string): PendingAction =>
      existing.has(r.urn)
        ? {
            action: "clear",
            kind,
            urn: r.urn,
            why: "a later `pulumi up` created this resource again, or its replacement made nothing; what an interrupted create made is swept below",
            recreated: true,
          }
        : { action: "clear", kind, urn: r.urn, why };
    const inputs = r.inputs ?? {};
    const app = str(inputs.app);
    if (kind === "volume" && app) {
      const name = str(inputs.name);
      const region = str(inputs.region);
      const candidates = (await platform.volumes(app)).filter(
        (v) =>
          v.name === name &&
          !GONE_VOLUME_STATES.has(v.state) &&
          v.attached_machine_id === null &&
          Date.parse(v.created_at) > since &&
          (!region || v.region === region) &&
          !own.has(v.id) &&
          !claimed.has(v.id),
      );
      const [only] = candidates;
      if (only && candidates.length === 1) {
        claimed.add(only.id);
        plan.push({
          action: "import",
          kind,
          urn: r.urn,
          id: only.id,
          what: `volume ${only.id} "${only.name}" (${only.region}, created ${only.created_at})`,
          ...replacing,
        });
      } else if (candidates.length > 1) {
        plan.push({
          action: "ambiguous",
          kind,
          urn: r.urn,
          candidates: candidates.map((v) => `${v.id} (created ${v.created_at})`),
        });
      } else {
        plan.push(
          cleared(
            `no unattached volume named "${name}" that the stack does not own was created in app ${app} since the interrupted update began`,
          ),
        );
      }
      continue;
    }
    if ((kind === "acmeCertificate" || kind === "customCertificate") && app) {
      const hostname = str(inputs.hostname) ?? "";
      const key = `${app}/${hostname}/${kind}`;
      const found = await platform.hostname(app, hostname);
      const has = kind === "acmeCertificate" ? found?.acme : found?.custom;
      if (has && !own.has(key) && !claimed.has(key)) {
        claimed.add(key);
        const label = kind === "acmeCertificate" ? "ACME certificate" : "custom certificate";
        plan.push({
          action: "import",
          kind,
          urn: r.urn,
          id: hostname,
          what: `the ${label} of ${hostname}`,
          ...replacing,
        });
      } else {
        plan.push(
          cleared(
            has
              ? `${hostname} is owned by another resource of the stack`
              : `${hostname} holds no such certificate`,
          ),
        );
      }
      continue;
    }
    const why =
      kind === "volumeSnapshot"
        ? "an on-demand snapshot cannot be told apart from others; if one was taken, retention removes it"
        : kind === "postgresPasswordRotation"
          ? "a rotation leaves nothing to own; the next `pulumi up` rotates again and records the password"
          : "its inputs do not name an app";
    plan.push(cleared(why));
  }
  return plan;
}
