// The Go quickstart as an ordinary `runtime: go` project: `pulumi up` in this directory (the
// official CLI's Go language host builds and runs it). The program is quickstart.Program, which
// the Automation API driver in ./automation runs as an inline program too (no Go language host).
// Built and vetted by `npm run gen-sdks -- --check`; run through the engine by
// test/e2e/go-quickstart.test.ts (through the driver).
package main

import (
	"github.com/pulumi-platform/pulumi-platform/examples/go-quickstart/quickstart"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(quickstart.Program)
}
