package main

import (
	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Change `rotation` to rotate again; each rotation alternates between the two users.
		rotation, err := platform.NewPostgresPasswordRotation(ctx, "app-user-password", &platform.PostgresPasswordRotationArgs{
			ClusterId:         pulumi.String("demo-pg"),
			Username:          pulumi.String("app_user"),
			AlternateUsername: pulumi.String("app_user_b"),
			Triggers:          pulumi.StringMap{"rotation": pulumi.String("2026-01")},
		})
		if err != nil {
			return err
		}
		ctx.Export("username", rotation.Username)
		return nil
	})
}
