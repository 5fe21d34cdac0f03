package main

import (
	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// pulumi config set fullchain -- "$(cat fullchain.pem)"
		// pulumi config set --secret privateKey -- "$(cat privkey.pem)"
		cfg := config.New(ctx, "")
		api, err := platform.NewCustomCertificate(ctx, "api", &platform.CustomCertificateArgs{
			App:        pulumi.String("demo-app"),
			Hostname:   pulumi.String("api.example.com"),
			Fullchain:  pulumi.String(cfg.Require("fullchain")),
			PrivateKey: cfg.RequireSecret("privateKey"),
		})
		if err != nil {
			return err
		}
		ctx.Export("status", api.Status)
		return nil
	})
}
