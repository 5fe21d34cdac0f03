// Package quickstart is the Go quickstart's program as a function, so that two programs run it:
// the example's main.go (`pulumi.Run(quickstart.Program)`, an ordinary `runtime: go` project for
// `pulumi up` with the Go language host) and the Automation API driver in ../automation (an
// inline program: its own process serves the language runtime, no Go language host needed).
//
// On the SDK generated from the plugin's schema (sdk-gen/go), in one `pulumi up`: a volume, an
// on-demand snapshot of it and a volume restored from the snapshot (each output feeds the next
// input as it is: `VolumeId` and `SnapshotId` are typed `pulumi.StringOutput`, no cast), an ACME
// certificate for a hostname, and a Postgres password rotation alternating between two users
// (the password a secret output).
package quickstart

import (
	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// get reads the project config `key`, or `fallback` when it is not set.
func get(cfg *config.Config, key, fallback string) string {
	if v := cfg.Get(key); v != "" {
		return v
	}
	return fallback
}

// Program declares the quickstart's resources and exports what its tests read. Config (all
// optional): app (demo-app), region (iad), sizeGb (3), hostname (*.go.example.com), clusterId
// (demo-pg), username (app_user), alternateUsername (app_user_b): the emulator's seed has them.
func Program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	app := get(cfg, "app", "demo-app")
	region := get(cfg, "region", "iad")
	// The data volume's size: raise it and `pulumi up` grows the volume in place; lower it and
	// `pulumi preview` rejects it (volumes only grow), naming sizeGb.
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

	// Change snapshotRun to take the snapshot again.
	snapshot, err := platform.NewVolumeSnapshot(ctx, "data-snapshot", &platform.VolumeSnapshotArgs{
		App:      pulumi.String(app),
		VolumeId: data.VolumeId,
		Triggers: pulumi.StringMap{"run": pulumi.String(get(cfg, "snapshotRun", "1"))},
	})
	if err != nil {
		return err
	}

	// ReplaceWith: restored again from the new snapshot whenever the snapshot is taken again.
	restored, err := platform.NewVolume(ctx, "restored", &platform.VolumeArgs{
		App:        pulumi.String(app),
		Name:       pulumi.String("data_restored"),
		Region:     pulumi.String(region),
		SnapshotId: snapshot.SnapshotId,
	}, pulumi.ReplaceWith([]pulumi.Resource{snapshot}))
	if err != nil {
		return err
	}

	// The certificate is requested, not waited for: issuance needs the DNS records its outputs
	// name (acmeChallengeRecord for a wildcard), which a program creates at its DNS provider.
	cert, err := platform.NewAcmeCertificate(ctx, "cert", &platform.AcmeCertificateArgs{
		App:      pulumi.String(app),
		Hostname: pulumi.String(get(cfg, "hostname", "*.go.example.com")),
	})
	if err != nil {
		return err
	}

	// Rotations alternate between two users: the credential apps hold stays valid until the
	// next rotation (docs/rotation.md).
	rotation, err := platform.NewPostgresPasswordRotation(ctx, "db-password", &platform.PostgresPasswordRotationArgs{
		ClusterId:         pulumi.String(get(cfg, "clusterId", "demo-pg")),
		Username:          pulumi.String(get(cfg, "username", "app_user")),
		AlternateUsername: pulumi.String(get(cfg, "alternateUsername", "app_user_b")),
	})
	if err != nil {
		return err
	}

	ctx.Export("app", data.App)
	ctx.Export("volumeId", data.VolumeId)
	ctx.Export("sizeGb", data.SizeGb)
	ctx.Export("snapshotId", snapshot.SnapshotId)
	// A lookup answers its fields: .Name(), as the platform reports the volume.
	looked := platform.LookupVolumeOutput(ctx, platform.LookupVolumeOutputArgs{App: data.App, VolumeId: data.VolumeId})
	ctx.Export("lookedUpName", looked.Name())
	ctx.Export("restoredVolumeId", restored.VolumeId)
	ctx.Export("restoredFrom", restored.SnapshotId)
	ctx.Export("restoredState", restored.State)
	ctx.Export("certHostname", cert.Hostname)
	ctx.Export("certStatus", cert.Status)
	ctx.Export("acmeChallengeRecord", cert.AcmeChallengeRecord)
	ctx.Export("dbUsername", rotation.Username)
	ctx.Export("dbPreviousUsername", rotation.PreviousUsername)
	// A secret output (the SDK marks `password` secret): encrypted in the state, hidden in the CLI.
	ctx.Export("dbPassword", rotation.Password)
	return nil
}
