// The quickstart's volume chain in Go, on the SDK generated from the plugin's schema
// (sdk-gen/go): a volume, an on-demand snapshot of it, and a volume restored from the snapshot,
// in one `pulumi up`. Each output feeds the next input as it is: `volumeId` and `snapshotId` are
// typed `pulumi.StringOutput`, no cast. The data volume's size is the config `sizeGb` (default 3).
// Checked by `npm run gen-sdks -- --check` (go build, go vet) and run through the engine, the Go
// language host and the plugin against the emulator by test/e2e/go-quickstart.test.ts
// (docs/overview.md, docs/plugin.md).
package main

import (
	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		app := cfg.Get("app")
		if app == "" {
			app = "demo-app"
		}
		region := cfg.Get("region")
		if region == "" {
			region = "iad"
		}
		// The data volume's size: raise it and `pulumi up` grows the volume in place; lower it
		// and `pulumi preview` rejects it (volumes only grow), naming sizeGb.
		sizeGb := cfg.GetInt("sizeGb")
		if sizeGb == 0 {
			sizeGb = 3
		}

		data, err := platform.NewVolume(ctx, "data", &platform.VolumeArgs{
			App:               pulumi.String(app),
			Name:              pulumi.String("data"),
			Region:            pulumi.String(region),
			SizeGb:            pulumi.Int(sizeGb),
			SnapshotRetention: pulumi.Int(7),
		})
		if err != nil {
			return err
		}

		snapshot, err := platform.NewVolumeSnapshot(ctx, "data-snapshot", &platform.VolumeSnapshotArgs{
			App:      pulumi.String(app),
			VolumeId: data.VolumeId,
		})
		if err != nil {
			return err
		}

		restored, err := platform.NewVolume(ctx, "restored", &platform.VolumeArgs{
			App:        pulumi.String(app),
			Name:       pulumi.String("data_restored"),
			Region:     pulumi.String(region),
			SnapshotId: snapshot.SnapshotId,
		})
		if err != nil {
			return err
		}

		ctx.Export("volumeId", data.VolumeId)
		ctx.Export("snapshotId", snapshot.SnapshotId)
		ctx.Export("restoredVolumeId", restored.VolumeId)
		ctx.Export("restoredFrom", restored.SnapshotId)
		ctx.Export("restoredState", restored.State)
		ctx.Export("sizeGb", data.SizeGb)
		ctx.Export("app", data.App)
		return nil
	})
}
