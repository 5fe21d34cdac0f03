/**
 * `Volume`: its row in the registry. What a volume is (./declaration, ./mapping) and the rules
 * both doors apply (day-2 warnings, import ids); what it does at the platform is ./runtime.
 * @module
 */
import { liveInputs } from "../../model/declaration";
import { given, type ImportRule, known, type LifetimeRule } from "../../model/kind-rules";
import {
  forkSourceChangedWarning,
  grownElsewhereWarning,
  restoreSourceChangedWarning,
} from "../../model/lifetime";
import { volumeDeclaration } from "./declaration";

/**
 * A volume grown elsewhere beyond `sizeGb` (made from data: its snapshot or source may have been
 * larger), and a program that names another source than the volume was forked or restored from.
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
  {
    reads: ["name", "sourceVolumeId"],
    given: ["sourceVolumeId"],
    warning: (id, olds, news) =>
      known(olds.sourceVolumeId) && known(news.sourceVolumeId)
        ? forkSourceChangedWarning(nameOf(olds), id, olds.sourceVolumeId, news.sourceVolumeId)
        : undefined,
  },
  {
    reads: ["name", "snapshotId"],
    given: ["snapshotId"],
    warning: (id, olds, news) =>
      known(olds.snapshotId) && known(news.snapshotId)
        ? restoreSourceChangedWarning(nameOf(olds), id, olds.snapshotId, news.snapshotId)
        : undefined,
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

/** The volume kind. */
export const volumeKind = {
  key: "volume",
  type: "Volume",
  declaration: volumeDeclaration,
  lifetime,
  importing,
} as const;
