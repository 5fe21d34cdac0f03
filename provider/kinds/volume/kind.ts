/**
 * `Volume`: its definition, the registry's row (../definition). What a volume is (./declaration,
 * ./mapping), the rules both doors apply (day-2 warnings, import ids) and `recover`'s; what it
 * does at the platform is ./runtime, what the testing mocks answer ./mock.
 * @module
 */
import { GONE_VOLUME_STATES } from "../../../sdk/schemas/volume-constants";
import { liveInputs } from "../../model/declaration";
import { given, type ImportRule, type InputWarning, known, type LifetimeRule } from "../../model/kind-rules";
import { grownElsewhereWarning } from "../../model/lifetime";
import { type KindRecovery, nonEmpty } from "../../model/recovery";
import { regionWarning } from "../../model/validation/region";
import type { RuntimeProvider } from "../../runtime/define";
import { volumeDeclaration } from "./declaration";

/**
 * A volume grown elsewhere beyond `sizeGb` (made from data: its snapshot or source may have been
 * larger); it names what silences it (`sizeGb` set to the platform's size). A program that names
 * another source than at the last `up` is warned about by the runtime's `check`, which sees the
 * previous inputs, once (./runtime).
 */
const lifetime: LifetimeRule = [
  {
    reads: ["name", "sizeGb"],
    given: ["sizeGb"],
    present: ["snapshotId", "sourceVolumeId"],
    warning(id, olds, news) {
      if (typeof olds.sizeGb !== "number" || typeof news.sizeGb !== "number") return undefined;
      const fromData = given(news.snapshotId) || given(news.sourceVolumeId);
      return grownElsewhereWarning(nameOf(olds), id, olds.sizeGb, news.sizeGb, fromData);
    },
  },
];

function nameOf(olds: Record<string, unknown>): string {
  return known(olds.name) ? olds.name : "";
}

/** `<app>/<volumeId>`; an imported volume records every live input, so the next preview plans nothing. */
const importing: ImportRule = {
  idName: "volumeId",
  state: (app) => ({ app, programInputs: liveInputs(volumeDeclaration) }),
};

/** A region code this release's list does not hold as a current region. */
const inputWarnings: readonly InputWarning[] = [{ input: "region", warning: regionWarning }];

/**
 * A pending create made the volume named like it, owned by no resource, attached to nothing,
 * created since the interrupted update began (in its region, when the program named one).
 */
const recovery: KindRecovery = {
  owned: (r) => r.id || undefined,
  async find(inputs, app, { platform, since, free }) {
    const name = nonEmpty(inputs.name);
    const region = nonEmpty(inputs.region);
    const candidates = (await platform.volumes(app)).filter(
      (v) =>
        v.name === name &&
        !GONE_VOLUME_STATES.has(v.state) &&
        v.attached_machine_id === null &&
        Date.parse(v.created_at) > since &&
        (!region || v.region === region) &&
        free(v.id),
    );
    if (candidates.length === 0) {
      return {
        none: `no unattached volume named "${name}" that the stack does not own was created in app ${app} since the interrupted update began`,
      };
    }
    return {
      candidates: candidates.map((v) => ({
        key: v.id,
        id: v.id,
        what: `volume ${v.id} "${v.name}" (${v.region}, created ${v.created_at})`,
        brief: `${v.id} (created ${v.created_at})`,
      })),
    };
  },
};

/** The volume kind. */
export const volumeKind = {
  key: "volume",
  type: "Volume",
  noun: "volume",
  declaration: volumeDeclaration,
  lifetime,
  inputWarnings,
  importing,
  recovery,
  clients: ["volumes"],
  runtime: (): RuntimeProvider => (require("./runtime") as typeof import("./runtime")).volume,
  mock: () => (require("./mock") as typeof import("./mock")).volumeMock,
} as const;
