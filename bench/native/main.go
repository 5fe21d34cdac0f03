// The engine bench's native control: a Pulumi provider written in Go with pulumi-go-provider,
// whose one resource, platformnative:index:Volume, makes the same requests as the bench's `io`
// control (one POST per create, one GET per read, one DELETE per delete, answers mapped without
// validation). Volume/native is what our provider costs next to how providers are usually
// written. bench/engine.mjs builds it into ~/.cache/pulumi-platform (never into the repository).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/pulumi/pulumi-go-provider/infer"
)

// Config is the provider's configuration (`platformnative:apiUrl`, `platformnative:apiToken`),
// falling back to PLATFORM_API_URL and PLATFORM_API_TOKEN.
type Config struct {
	APIURL   string `pulumi:"apiUrl,optional"`
	APIToken string `pulumi:"apiToken,optional" provider:"secret"`
}

func (c *Config) Configure(context.Context) error {
	if c.APIURL == "" {
		c.APIURL = os.Getenv("PLATFORM_API_URL")
	}
	if c.APIToken == "" {
		c.APIToken = os.Getenv("PLATFORM_API_TOKEN")
	}
	if c.APIURL == "" || c.APIToken == "" {
		return fmt.Errorf("platformnative: set apiUrl and apiToken (or PLATFORM_API_URL and PLATFORM_API_TOKEN)")
	}
	c.APIURL = strings.TrimRight(c.APIURL, "/")
	return nil
}

type Volume struct{}

type VolumeArgs struct {
	App    string `pulumi:"app" provider:"replaceOnChanges"`
	Name   string `pulumi:"name" provider:"replaceOnChanges"`
	Region string `pulumi:"region" provider:"replaceOnChanges"`
	SizeGb int    `pulumi:"sizeGb" provider:"replaceOnChanges"`
}

// VolumeState has the outputs of the `io` control (a Volume's names and values).
type VolumeState struct {
	VolumeArgs
	VolumeID          string  `pulumi:"volumeId"`
	State             string  `pulumi:"state"`
	Zone              string  `pulumi:"zone"`
	Encrypted         bool    `pulumi:"encrypted"`
	AttachedMachineID *string `pulumi:"attachedMachineId,optional"`
	AttachedAllocID   *string `pulumi:"attachedAllocId,optional"`
	CreatedAt         string  `pulumi:"createdAt"`
	Blocks            int     `pulumi:"blocks"`
	BlockSize         int     `pulumi:"blockSize"`
	BlocksFree        int     `pulumi:"blocksFree"`
	BlocksAvail       int     `pulumi:"blocksAvail"`
	Fstype            string  `pulumi:"fstype"`
	SnapshotRetention int     `pulumi:"snapshotRetention"`
	AutoBackupEnabled bool    `pulumi:"autoBackupEnabled"`
	HostDedicationKey string  `pulumi:"hostDedicationKey"`
	NeedsRestart      bool    `pulumi:"needsRestart"`
}

// wireVolume is the platform's volume (spec 2.2), only the members the outputs use.
type wireVolume struct {
	ID                string  `json:"id"`
	Name              string  `json:"name"`
	State             string  `json:"state"`
	SizeGb            int     `json:"size_gb"`
	Region            string  `json:"region"`
	Zone              string  `json:"zone"`
	Encrypted         bool    `json:"encrypted"`
	AttachedMachineID *string `json:"attached_machine_id"`
	AttachedAllocID   *string `json:"attached_alloc_id"`
	CreatedAt         string  `json:"created_at"`
	Blocks            int     `json:"blocks"`
	BlockSize         int     `json:"block_size"`
	BlocksFree        int     `json:"blocks_free"`
	BlocksAvail       int     `json:"blocks_avail"`
	Fstype            string  `json:"fstype"`
	SnapshotRetention int     `json:"snapshot_retention"`
	AutoBackupEnabled bool    `json:"auto_backup_enabled"`
	HostDedicationKey string  `json:"host_dedication_key"`
}

func outputs(v wireVolume, in VolumeArgs) VolumeState {
	return VolumeState{
		VolumeArgs:        VolumeArgs{App: in.App, Name: v.Name, Region: v.Region, SizeGb: v.SizeGb},
		VolumeID:          v.ID,
		State:             v.State,
		Zone:              v.Zone,
		Encrypted:         v.Encrypted,
		AttachedMachineID: v.AttachedMachineID,
		AttachedAllocID:   v.AttachedAllocID,
		CreatedAt:         v.CreatedAt,
		Blocks:            v.Blocks,
		BlockSize:         v.BlockSize,
		BlocksFree:        v.BlocksFree,
		BlocksAvail:       v.BlocksAvail,
		Fstype:            v.Fstype,
		SnapshotRetention: v.SnapshotRetention,
		AutoBackupEnabled: v.AutoBackupEnabled,
		HostDedicationKey: v.HostDedicationKey,
	}
}

func volumePath(app, id string) string {
	p := "/v1/apps/" + url.PathEscape(app) + "/volumes"
	if id != "" {
		p += "/" + url.PathEscape(id)
	}
	return p
}

// call makes one request (no retries) and decodes the answer into out; a 404 is returned as
// found=false rather than an error.
func call(ctx context.Context, method, path string, body any, out any) (found bool, err error) {
	cfg := infer.GetConfig[Config](ctx)
	var reader io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return false, err
		}
		reader = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, cfg.APIURL+path, reader)
	if err != nil {
		return false, err
	}
	req.Header.Set("Authorization", "Bearer "+cfg.APIToken)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return false, err
	}
	if res.StatusCode == http.StatusNotFound {
		return false, nil
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return false, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, data)
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			return false, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return true, nil
}

func (Volume) Create(ctx context.Context, req infer.CreateRequest[VolumeArgs]) (infer.CreateResponse[VolumeState], error) {
	in := req.Inputs
	if req.DryRun {
		return infer.CreateResponse[VolumeState]{Output: VolumeState{VolumeArgs: in}}, nil
	}
	var v wireVolume
	body := map[string]any{"name": in.Name, "region": in.Region, "size_gb": in.SizeGb}
	found, err := call(ctx, http.MethodPost, volumePath(in.App, ""), body, &v)
	if err == nil && !found {
		err = fmt.Errorf("POST %s: 404", volumePath(in.App, ""))
	}
	if err != nil {
		return infer.CreateResponse[VolumeState]{}, err
	}
	return infer.CreateResponse[VolumeState]{ID: v.ID, Output: outputs(v, in)}, nil
}

func (Volume) Read(ctx context.Context, req infer.ReadRequest[VolumeArgs, VolumeState]) (infer.ReadResponse[VolumeArgs, VolumeState], error) {
	var v wireVolume
	found, err := call(ctx, http.MethodGet, volumePath(req.State.App, req.ID), nil, &v)
	if err != nil {
		return infer.ReadResponse[VolumeArgs, VolumeState]{}, err
	}
	if !found || v.State == "destroyed" {
		return infer.ReadResponse[VolumeArgs, VolumeState]{}, nil // gone: the engine drops it
	}
	return infer.ReadResponse[VolumeArgs, VolumeState]{ID: req.ID, Inputs: req.Inputs, State: outputs(v, req.State.VolumeArgs)}, nil
}

func (Volume) Delete(ctx context.Context, req infer.DeleteRequest[VolumeState]) (infer.DeleteResponse, error) {
	_, err := call(ctx, http.MethodDelete, volumePath(req.State.App, req.ID), nil, nil)
	return infer.DeleteResponse{}, err
}

func main() {
	provider, err := infer.NewProviderBuilder().
		WithNamespace("bench").
		WithConfig(infer.Config(Config{})).
		WithResources(infer.Resource(Volume{})).
		Build()
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %s\n", err)
		os.Exit(1)
	}
	if err := provider.Run(context.Background(), "platformnative", "0.1.0"); err != nil {
		fmt.Fprintf(os.Stderr, "error: %s\n", err)
		os.Exit(1)
	}
}
