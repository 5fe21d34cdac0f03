// Package platformtest gives unit tests of a Pulumi Go program that uses the platform package
// mocks (pulumi.WithMocks) in which each of the package's resources is checked as `pulumi
// preview` checks it and gets the outputs a create at the platform would give (ids in the
// platform's shapes, states, a certificate's DNS requirements, a secret password).
//
// Both come from the provider plugin itself (pulumi-resource-platform: the same checks and mocks
// as the TypeScript pulumi-platform/testing), which NewMocks starts and Close stops; the platform
// is never called. Every other resource and call goes to Options.Others.
//
//	mocks, err := platformtest.NewMocks(platformtest.Options{})
//	defer mocks.Close()
//	err = pulumi.RunErr(program, pulumi.WithMocks("project", "stack", mocks))
//
// A resource whose inputs break a rule fails its registration with the lines preview prints
// (a *CheckError), so pulumi.RunErr returns that error.
//
// The plugin is found, in this order: Options.Plugin, the PULUMI_PLATFORM_PLUGIN environment
// variable (a path), pulumi-resource-platform on PATH, then the plugin installed by `pulumi plugin
// install` at this SDK's version under $PULUMI_HOME/plugins (default ~/.pulumi).
package platformtest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform/internal"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"
)

const (
	mockFunction = "platform:testing:mock"
	pluginName   = "pulumi-resource-platform"
)

// Options of NewMocks; the zero value is the defaults.
type Options struct {
	// Others mocks every resource and call that is not this package's; by default a resource's
	// state is its inputs and its id "<name>_id", and a call returns its arguments.
	Others pulumi.MockResourceMonitor
	// Now is the time the platform answers at (a rotation's rotatedAt, a certificate's
	// expiresInDays); default: time.Now.
	Now func() time.Time
	// Region of a volume that names none; default "iad".
	Region string
	// Org is the organization in a hostname's ownership TXT value; default "personal".
	Org string
	// Plugin is the plugin's path; default: FindPlugin.
	Plugin string
}

// CheckError is a resource whose inputs break a rule: the lines `pulumi preview` prints.
type CheckError struct {
	Failures []string
}

func (e *CheckError) Error() string { return strings.Join(e.Failures, "\n") }

// Mocks is a pulumi.MockResourceMonitor backed by the plugin.
type Mocks struct {
	options Options
	process *exec.Cmd
	conn    *grpc.ClientConn
	client  pulumirpc.ResourceProviderClient

	mu            sync.Mutex
	checkFailures []string
}

var _ pulumi.MockResourceMonitor = (*Mocks)(nil)

// FindPlugin is the path of pulumi-resource-platform the mocks start (see the package's text).
func FindPlugin() (string, error) {
	if named := os.Getenv("PULUMI_PLATFORM_PLUGIN"); named != "" {
		return named, nil
	}
	if onPath, err := exec.LookPath(pluginName); err == nil {
		return onPath, nil
	}
	version, err := internal.PkgVersion()
	if err != nil {
		return "", err
	}
	home := os.Getenv("PULUMI_HOME")
	if home == "" {
		userHome, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		home = filepath.Join(userHome, ".pulumi")
	}
	installed := filepath.Join(home, "plugins", "resource-platform-v"+version.String(), pluginName)
	if info, err := os.Stat(installed); err == nil && !info.IsDir() {
		return installed, nil
	}
	return "", fmt.Errorf("platformtest: no %s: set PULUMI_PLATFORM_PLUGIN to its path, put it on PATH, "+
		"or install it (pulumi plugin install resource platform %s --file <archive>)", pluginName, version)
}

// NewMocks starts the plugin and returns mocks that ask it; Close stops it.
func NewMocks(options Options) (*Mocks, error) {
	path := options.Plugin
	if path == "" {
		found, err := FindPlugin()
		if err != nil {
			return nil, err
		}
		path = found
	}
	process := exec.Command(path)
	process.Stderr = os.Stderr
	stdout, err := process.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := process.Start(); err != nil {
		return nil, fmt.Errorf("platformtest: starting %s: %w", path, err)
	}
	port, err := bufio.NewReader(stdout).ReadString('\n')
	port = strings.TrimSpace(port)
	if err != nil || port == "" {
		_ = process.Process.Kill()
		_ = process.Wait()
		return nil, fmt.Errorf("platformtest: %s printed no port (got %q)", path, port)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+port, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		_ = process.Process.Kill()
		_ = process.Wait()
		return nil, err
	}
	return &Mocks{
		options: options,
		process: process,
		conn:    conn,
		client:  pulumirpc.NewResourceProviderClient(conn),
	}, nil
}

// Close stops the plugin.
func (m *Mocks) Close() error {
	_ = m.conn.Close()
	_ = m.process.Process.Kill()
	_ = m.process.Wait()
	return nil
}

// CheckFailures is every check failure met so far, as `pulumi preview` prints it, oldest first.
func (m *Mocks) CheckFailures() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.checkFailures...)
}

// NewResource answers the package's resources from the plugin, others from Options.Others.
func (m *Mocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	if !strings.HasPrefix(args.TypeToken, "platform:") || !args.Custom {
		if m.options.Others != nil {
			return m.options.Others.NewResource(args)
		}
		id := args.ID
		if id == "" {
			id = args.Name + "_id"
		}
		return id, args.Inputs, nil
	}
	inputs, err := plugin.MarshalProperties(args.Inputs, plugin.MarshalOptions{KeepSecrets: true, KeepUnknowns: true})
	if err != nil {
		return "", nil, err
	}
	question := map[string]any{"type": args.TypeToken, "name": args.Name}
	if m.options.Now != nil {
		question["now"] = m.options.Now().UTC().Format(time.RFC3339Nano)
	}
	if m.options.Region != "" {
		question["region"] = m.options.Region
	}
	if m.options.Org != "" {
		question["org"] = m.options.Org
	}
	asked, err := structpb.NewStruct(question)
	if err != nil {
		return "", nil, err
	}
	asked.Fields["inputs"] = structpb.NewStructValue(inputs)
	resp, err := m.client.Invoke(context.Background(), &pulumirpc.InvokeRequest{Tok: mockFunction, Args: asked})
	if err != nil {
		return "", nil, err
	}
	answer := resp.GetReturn().GetFields()
	if failures := answer["failures"].GetListValue().GetValues(); len(failures) > 0 {
		lines := make([]string, 0, len(failures))
		for _, line := range failures {
			lines = append(lines, line.GetStringValue())
		}
		m.mu.Lock()
		m.checkFailures = append(m.checkFailures, lines...)
		m.mu.Unlock()
		return "", nil, &CheckError{Failures: lines}
	}
	state, err := plugin.UnmarshalProperties(answer["state"].GetStructValue(), plugin.MarshalOptions{KeepSecrets: true})
	if err != nil {
		return "", nil, err
	}
	for _, name := range answer["secrets"].GetListValue().GetValues() {
		key := resource.PropertyKey(name.GetStringValue())
		if value, ok := state[key]; ok {
			state[key] = resource.MakeSecret(value)
		}
	}
	return answer["id"].GetStringValue(), state, nil
}

// Call goes to Options.Others; by default it returns its arguments.
func (m *Mocks) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	if m.options.Others != nil {
		return m.options.Others.Call(args)
	}
	return args.Args, nil
}
