/**
 * `VolumeSnapshot`: its row in the registry. What a snapshot is (./declaration, ./mapping) and the
 * rules both doors apply; what it does at the platform is ./runtime.
 * @module
 */
import { type ImportRule, known, type LifetimeRule } from "../../model/kind-rules";
import { snapshotSourceChangedWarning } from "../../model/lifetime";
import { leavesNothing } from "../../model/recovery";
import type { RuntimeProvider } from "../../runtime/define";
import { volumeSnapshotDeclaration } from "./declaration";

/**
 * A program that names another volume than the snapshot was taken of: when the declared rule of
 * `volumeId` (the plan's) makes that a `warn`.
 */
const lifetime: LifetimeRule = [
  {
    reads: ["volumeId"],
    given: ["volumeId"],
    warning: (id, olds, news) =>
      known(olds.volumeId) &&
      known(news.volumeId) &&
      volumeSnapshotDeclaration.inputs.volumeId.decide?.({ id, olds, news }) === "warn"
        ? snapshotSourceChangedWarning(id, olds.volumeId, news.volumeId)
        : undefined,
  },
];

/** Refused: declaring a snapshot takes a new one. */
const importing: ImportRule = {
  refusal: () =>
    "a VolumeSnapshot cannot be imported: declaring one takes a new snapshot of a volume. Declare it in the program to take one; existing snapshots are read with the listSnapshots function.",
};

/**
 * The snapshot kind. A program constructs the component `VolumeSnapshot`
 * (`platform:index:VolumeSnapshot`), whose child is the resource that takes the snapshot: the key
 * is named after the component, the type after the request the child makes.
 */
export const volumeSnapshotKind = {
  key: "volumeSnapshot",
  type: "VolumeSnapshotRequest",
  declaration: volumeSnapshotDeclaration,
  component: "VolumeSnapshot",
  noun: "snapshot",
  lifetime,
  importing,
  recovery: leavesNothing(
    "an on-demand snapshot cannot be told apart from others; if one was taken, retention removes it",
  ),
  clients: ["volumes"],
  runtime: (): RuntimeProvider => (require("./runtime") as typeof import("./runtime")).volumeSnapshot,
  mock: () => (require("./mock") as typeof import("./mock")).volumeSnapshotMock,
} as const;
