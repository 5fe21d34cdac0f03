/**
 * The day-2 warnings the dynamic classes print from the program (../program/resources/
 * lifetime-warnings: a custom certificate about to expire, a volume grown outside the stack, a
 * fork, restore or snapshot whose program now names another source), computed here from the same
 * recorded outputs, which the plugin gets at `diff` (every preview and up, for every resource in
 * the stack). The texts are the model's (../model/lifetime), so both doors print the same words.
 * @module
 */
import {
  certificateExpiryWarning,
  DEFAULT_EXPIRY_WARNING_DAYS,
  forkSourceChangedWarning,
  grownElsewhereWarning,
  restoreSourceChangedWarning,
  snapshotSourceChangedWarning,
} from "../model/lifetime";
import type { ResourceKey } from "../kinds/registry";
import { isUnknown } from "../model/validation/common";

type Props = Record<string, unknown>;

function known(value: unknown): value is string {
  return typeof value === "string" && !isUnknown(value);
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * The warnings about the resource `id` of kind `key`: `olds` are its recorded outputs, `news` the
 * program's checked inputs (which may hold unknowns at preview).
 */
export function lifetimeWarnings(
  key: ResourceKey,
  id: string,
  olds: Props,
  news: Props,
  now: Date,
): string[] {
  const warnings: (string | undefined)[] = [];
  switch (key) {
    case "customCertificate": {
      const days =
        typeof news.expiryWarningDays === "number" ? news.expiryWarningDays : DEFAULT_EXPIRY_WARNING_DAYS;
      if (known(olds.hostname) && known(olds.expiresAt))
        warnings.push(certificateExpiryWarning(olds.hostname, olds.expiresAt, now, days));
      break;
    }
    case "volume": {
      const name = known(olds.name) ? olds.name : "";
      if (typeof olds.sizeGb === "number" && typeof news.sizeGb === "number") {
        const fromData = given(news.snapshotId) || given(news.sourceVolumeId);
        warnings.push(grownElsewhereWarning(name, id, olds.sizeGb, news.sizeGb, fromData));
      }
      if (known(olds.sourceVolumeId) && known(news.sourceVolumeId))
        warnings.push(forkSourceChangedWarning(name, id, olds.sourceVolumeId, news.sourceVolumeId));
      if (known(olds.snapshotId) && known(news.snapshotId))
        warnings.push(restoreSourceChangedWarning(name, id, olds.snapshotId, news.snapshotId));
      break;
    }
    case "volumeSnapshot":
      if (known(olds.volumeId) && known(news.volumeId))
        warnings.push(snapshotSourceChangedWarning(id, olds.volumeId, news.volumeId));
      break;
    default:
      break;
  }
  return warnings.filter((w): w is string => w !== undefined);
}
