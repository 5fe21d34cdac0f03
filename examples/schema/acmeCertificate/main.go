package main

import (
	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		wildcard, err := platform.NewAcmeCertificate(ctx, "wildcard", &platform.AcmeCertificateArgs{
			App:      pulumi.String("demo-app"),
			Hostname: pulumi.String("*.example.com"),
		})
		if err != nil {
			return err
		}
		ctx.Export("status", wildcard.Status)
		return nil
	})
}
