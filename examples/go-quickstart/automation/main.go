// Command automation runs the Go quickstart's program (quickstart.Program) through the Pulumi
// engine as an Automation API inline program: this process serves the language runtime and the
// CLI connects to it, so no Go language host (pulumi-language-go) is needed, only the `pulumi`
// CLI and the plugin pulumi-resource-platform.
//
//	go run ./automation [-stack dev] [-work-dir .pulumi-inline] [-plugin-dir ../..] [-show-secrets] <command>
//
// Commands: preview [-expect-no-changes] | up | refresh [-expect-no-changes] | destroy |
// set-config [-secret] <key> <value> | outputs. Each prints one JSON object on stdout: the
// command, ok, the change summary (`changes`: operation → count), the stack's outputs
// (`outputs`: name → {value, secret}; a secret's value is "[secret]" unless -show-secrets) and,
// when it failed, `error` (the CLI's message). The engine's progress goes to stderr. The exit
// status is 0 on success, 1 when the command failed, 2 on a usage error.
//
// The backend, the passphrase and the Pulumi home are the CLI's usual environment
// (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, PULUMI_HOME). PULUMI_PLATFORM_CLI_DIR, when set,
// names the directory holding the `pulumi` to run (put first on PATH); otherwise `pulumi` is
// found on PATH. The stack's settings (Pulumi.yaml, written by this driver, and
// Pulumi.<stack>.yaml, its config) live in -work-dir.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/pulumi-platform/pulumi-platform/examples/go-quickstart/quickstart"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

// The project the inline program runs as; its name is the namespace of the program's config
// (`go-quickstart:sizeGb`), as with the example's Pulumi.yaml.
const projectName = "go-quickstart"

// output is one stack output as printed.
type output struct {
	Value  any  `json:"value"`
	Secret bool `json:"secret"`
}

// result is what every command prints on stdout.
type result struct {
	Command string            `json:"command"`
	OK      bool              `json:"ok"`
	Changes map[string]int    `json:"changes,omitempty"`
	Outputs map[string]output `json:"outputs,omitempty"`
	Error   string            `json:"error,omitempty"`
}

type options struct {
	stack       string
	workDir     string
	pluginDir   string
	showSecrets bool
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(stderr io.Writer, global *flag.FlagSet) {
	fmt.Fprintln(stderr, "usage: automation [flags] preview [-expect-no-changes] | up | refresh [-expect-no-changes] | destroy | set-config [-secret] <key> <value> | outputs")
	global.SetOutput(stderr)
	global.PrintDefaults()
}

func run(args []string, stdout, stderr io.Writer) int {
	var opts options
	global := flag.NewFlagSet("automation", flag.ContinueOnError)
	global.SetOutput(io.Discard)
	global.StringVar(&opts.stack, "stack", "dev", "the stack's name")
	global.StringVar(&opts.workDir, "work-dir", ".pulumi-inline", "the directory of the stack's settings (Pulumi.yaml, Pulumi.<stack>.yaml), created when missing")
	global.StringVar(&opts.pluginDir, "plugin-dir", os.Getenv("PULUMI_PLATFORM_PLUGIN_DIR"),
		"the directory holding pulumi-resource-platform, named in the project's plugins.providers (default $PULUMI_PLATFORM_PLUGIN_DIR; empty: the engine finds the plugin on PATH or in its plugin cache)")
	global.BoolVar(&opts.showSecrets, "show-secrets", false, "print the values of secret outputs")
	if err := global.Parse(args); err != nil || global.NArg() == 0 {
		usage(stderr, global)
		return 2
	}
	command, rest := global.Arg(0), global.Args()[1:]

	sub := flag.NewFlagSet(command, flag.ContinueOnError)
	sub.SetOutput(stderr)
	expectNoChanges := false
	secret := false
	switch command {
	case "preview", "refresh":
		sub.BoolVar(&expectNoChanges, "expect-no-changes", false, "fail when the command would change anything")
	case "set-config":
		sub.BoolVar(&secret, "secret", false, "store the value as a secret")
	case "up", "destroy", "outputs":
	default:
		usage(stderr, global)
		return 2
	}
	if err := sub.Parse(rest); err != nil {
		return 2
	}
	if (command == "set-config") != (sub.NArg() == 2) || (command != "set-config" && sub.NArg() != 0) {
		usage(stderr, global)
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res := result{Command: command}
	err := execute(ctx, opts, command, sub.Args(), expectNoChanges, secret, stderr, &res)
	res.OK = err == nil
	if err != nil {
		res.Error = err.Error()
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if encErr := enc.Encode(res); encErr != nil {
		fmt.Fprintln(stderr, encErr)
		return 1
	}
	if err != nil {
		return 1
	}
	return 0
}

// project is the inline program's project settings: the plugin named by directory when one is
// given, as the example's Pulumi.yaml does (`plugins.providers`).
func project(pluginDir string) (workspace.Project, error) {
	proj := workspace.Project{
		Name:    projectName,
		Runtime: workspace.NewProjectRuntimeInfo("go", nil),
	}
	if pluginDir != "" {
		abs, err := filepath.Abs(pluginDir)
		if err != nil {
			return proj, err
		}
		if _, err := os.Stat(filepath.Join(abs, "pulumi-resource-platform")); err != nil {
			return proj, fmt.Errorf("-plugin-dir %s holds no pulumi-resource-platform: %w", abs, err)
		}
		proj.Plugins = &workspace.Plugins{
			Providers: []workspace.PluginOptions{{Name: "platform", Path: abs}},
		}
	}
	return proj, nil
}

// stackFor selects (or creates) the stack with the inline program, in a workspace on -work-dir.
func stackFor(ctx context.Context, opts options) (auto.Stack, error) {
	if dir := os.Getenv("PULUMI_PLATFORM_CLI_DIR"); dir != "" {
		// The CLI there first: its `pulumi`, and what the engine looks up beside it.
		if err := os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
			return auto.Stack{}, err
		}
	}
	cli, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{})
	if err != nil {
		return auto.Stack{}, err
	}
	workDir, err := filepath.Abs(opts.workDir)
	if err != nil {
		return auto.Stack{}, err
	}
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		return auto.Stack{}, err
	}
	proj, err := project(opts.pluginDir)
	if err != nil {
		return auto.Stack{}, err
	}
	return auto.UpsertStackInlineSource(ctx, opts.stack, projectName, quickstart.Program,
		auto.WorkDir(workDir), auto.Project(proj), auto.Pulumi(cli))
}

func execute(ctx context.Context, opts options, command string, args []string, expectNoChanges, secret bool,
	progress io.Writer, res *result,
) error {
	stack, err := stackFor(ctx, opts)
	if err != nil {
		return err
	}
	switch command {
	case "preview":
		popts := []optpreview.Option{optpreview.ProgressStreams(progress)}
		if expectNoChanges {
			popts = append(popts, optpreview.ExpectNoChanges())
		}
		preview, err := stack.Preview(ctx, popts...)
		if err != nil {
			return err
		}
		res.Changes = map[string]int{}
		for op, n := range preview.ChangeSummary {
			res.Changes[string(op)] = n
		}
		return nil
	case "up":
		up, err := stack.Up(ctx, optup.ProgressStreams(progress))
		if err != nil {
			return err
		}
		res.Changes = changes(up.Summary)
		res.Outputs = outputs(up.Outputs, opts.showSecrets)
		return nil
	case "refresh":
		ropts := []optrefresh.Option{optrefresh.ProgressStreams(progress)}
		if expectNoChanges {
			ropts = append(ropts, optrefresh.ExpectNoChanges())
		}
		refresh, err := stack.Refresh(ctx, ropts...)
		if err != nil {
			return err
		}
		res.Changes = changes(refresh.Summary)
		return stackOutputs(ctx, stack, opts, res)
	case "destroy":
		destroy, err := stack.Destroy(ctx, optdestroy.ProgressStreams(progress))
		if err != nil {
			return err
		}
		res.Changes = changes(destroy.Summary)
		return nil
	case "set-config":
		return stack.SetConfig(ctx, args[0], auto.ConfigValue{Value: args[1], Secret: secret})
	case "outputs":
		return stackOutputs(ctx, stack, opts, res)
	}
	return errors.New("unknown command " + command)
}

func stackOutputs(ctx context.Context, stack auto.Stack, opts options, res *result) error {
	outs, err := stack.Outputs(ctx)
	if err != nil {
		return err
	}
	res.Outputs = outputs(outs, opts.showSecrets)
	return nil
}

func changes(summary auto.UpdateSummary) map[string]int {
	if summary.ResourceChanges == nil {
		return map[string]int{}
	}
	return *summary.ResourceChanges
}

func outputs(outs auto.OutputMap, showSecrets bool) map[string]output {
	printed := make(map[string]output, len(outs))
	for k, v := range outs {
		if v.Secret && !showSecrets {
			printed[k] = output{Value: "[secret]", Secret: true}
			continue
		}
		printed[k] = output{Value: v.Value, Secret: v.Secret}
	}
	return printed
}
