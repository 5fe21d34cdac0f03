// Package program is the program under test: every kind of the platform package, as a Go team
// writes it. program_test.go runs it under platformtest's mocks.
package program

import (
	_ "embed"

	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// A self-signed certificate of shop.example.com, valid from 2026-11-29 for ten years.
var (
	//go:embed shop.crt.pem
	shopChain string
	//go:embed shop.key.pem
	shopKey string
)

// Settings are what a test varies.
type Settings struct {
	App      string
	SizeGb   int
	Hostname string
}

// Resources are what Build declares.
type Resources struct {
	Data     *platform.Volume
	Nightly  *platform.VolumeSnapshot
	Restored *platform.Volume
	Www      *platform.AcmeCertificate
	Shop     *platform.CustomCertificate
	Db       *platform.PostgresPasswordRotation
}

// Build declares a volume, its snapshot, a volume restored from it, two certificates and a rotation.
func Build(ctx *pulumi.Context, s Settings) (*Resources, error) {
	r := &Resources{}
	var err error
	if r.Data, err = platform.NewVolume(ctx, "data", &platform.VolumeArgs{
		App: pulumi.String(s.App), Name: pulumi.String("data"), Region: pulumi.String("iad"),
		SizeGb: pulumi.Int(s.SizeGb),
	}); err != nil {
		return nil, err
	}
	if r.Nightly, err = platform.NewVolumeSnapshot(ctx, "nightly", &platform.VolumeSnapshotArgs{
		App: pulumi.String(s.App), VolumeId: r.Data.VolumeId,
	}); err != nil {
		return nil, err
	}
	if r.Restored, err = platform.NewVolume(ctx, "restored", &platform.VolumeArgs{
		App: pulumi.String(s.App), Name: pulumi.String("restored"), Region: pulumi.String("iad"),
		SnapshotId: r.Nightly.SnapshotId,
	}); err != nil {
		return nil, err
	}
	if r.Www, err = platform.NewAcmeCertificate(ctx, "www", &platform.AcmeCertificateArgs{
		App: pulumi.String(s.App), Hostname: pulumi.String(s.Hostname),
	}); err != nil {
		return nil, err
	}
	if r.Shop, err = platform.NewCustomCertificate(ctx, "shop", &platform.CustomCertificateArgs{
		App: pulumi.String(s.App), Hostname: pulumi.String("shop.example.com"),
		Fullchain: pulumi.String(shopChain), PrivateKey: pulumi.String(shopKey),
	}); err != nil {
		return nil, err
	}
	if r.Db, err = platform.NewPostgresPasswordRotation(ctx, "db", &platform.PostgresPasswordRotationArgs{
		ClusterId: pulumi.String("pg-main"), Username: pulumi.String("app_user"),
		AlternateUsername: pulumi.String("app_user_b"),
	}); err != nil {
		return nil, err
	}
	return r, nil
}
