/**
 * `Volume`: its row in the registry. What a volume is (./declaration, ./mapping) and the rules
 * both doors apply (day-2 warnings, import ids); what it does at the platform is ./runtime.
 * @module
 */
import { liveInputs } from "../../model/declaration";
import { given, type ImportRule, type InputWarning, known, type LifetimeRule } from "../../model/kind-rules";
import { grownElsewhereWarning } from "../../model/lifetime";
import { regionWarning } from "../../model/validation/region";
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

/** The volume kind. */
export const volumeKind = {
  key: "volume",
  type: "Volume",
  declaration: volumeDeclaration,
  lifetime,
  inputWarnings,
  importing,
} as const;
