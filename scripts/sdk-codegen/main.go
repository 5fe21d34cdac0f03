// Command sdk-codegen writes the Go and Python SDKs of a package schema with Pulumi's own code
// generators (github.com/pulumi/pulumi/pkg/v3/codegen at the CLI's version), the code that
// `pulumi package gen-sdk --language go|python` runs inside the language hosts. Used by
// scripts/gen-sdks.js: the hosts cannot be built here, and their code generation is this call.
//
//	sdk-codegen <schema.json> <language> <out-dir>
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noLoader refuses every package: the schema references no other package.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, version *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema references package %s: not supported", pkg)
}

func (noLoader) LoadPackageReference(pkg string, version *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema references package %s: not supported", pkg)
}

func (noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema references package %s: not supported", d.Name)
}

func (noLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema references package %s: not supported", d.Name)
}

func run(schemaPath, language, out string) error {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return err
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return errors.New(diags.Error())
	}
	var files map[string][]byte
	switch language {
	case "go":
		files, err = gogen.GeneratePackage("pulumi-language-go", pkg, nil)
	case "python":
		files, err = pygen.GeneratePackage("pulumi-language-python", pkg, nil, noLoader{})
	default:
		err = fmt.Errorf("unsupported language %q (go, python)", language)
	}
	if err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: sdk-codegen <schema.json> <go|python> <out-dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "sdk-codegen:", err)
		os.Exit(1)
	}
}
