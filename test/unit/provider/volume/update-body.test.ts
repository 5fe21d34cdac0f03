import { describe, expect, it } from "vitest";
import { volumeDeclaration } from "../../../../provider/kinds/volume/declaration";
import { updateBody } from "../../../../provider/model/declaration";

// The in-place PUT body comes from the declaration: its `update` inputs, by their wire names.
describe("a Volume's update body", () => {
  const inputs = {
    app: "demo-app",
    name: "data",
    sizeGb: 10,
    snapshotRetention: 7,
    autoBackupEnabled: false,
  };

  it("sends each update input that differs from the platform's value, under its wire name", () => {
    expect(
      updateBody(volumeDeclaration, inputs, { snapshot_retention: 5, auto_backup_enabled: true }),
    ).toEqual({
      snapshot_retention: 7,
      auto_backup_enabled: false,
    });
  });

  it("sends nothing the platform already has, and never a replace or special input (sizeGb goes to extend)", () => {
    expect(
      updateBody(volumeDeclaration, inputs, { snapshot_retention: 7, auto_backup_enabled: false }),
    ).toEqual({});
    expect(
      updateBody(volumeDeclaration, { app: "demo-app", name: "data" }, { snapshot_retention: 5 }),
    ).toEqual({});
  });

  it("compares with the platform's answer itself, so every updatable input is compared with no list of fields", () => {
    // A whole wire volume as the platform answers it: only the update inputs' members decide.
    const answered = {
      id: "vol_1",
      size_gb: 3,
      snapshot_retention: 7,
      auto_backup_enabled: true,
      state: "created",
    };
    expect(updateBody(volumeDeclaration, inputs, answered)).toEqual({ auto_backup_enabled: false });
  });
});
