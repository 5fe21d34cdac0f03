package main

import (
	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		data, err := platform.NewVolume(ctx, "data", &platform.VolumeArgs{
			App:    pulumi.String("demo-app"),
			Name:   pulumi.String("data"),
			Region: pulumi.String("iad"),
		})
		if err != nil {
			return err
		}
		snapshot, err := platform.NewVolumeSnapshot(ctx, "data-snapshot", &platform.VolumeSnapshotArgs{
			App:      pulumi.String("demo-app"),
			VolumeId: data.VolumeId,
		})
		if err != nil {
			return err
		}
		ctx.Export("snapshotId", snapshot.SnapshotId)
		return nil
	})
}
