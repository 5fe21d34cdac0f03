package program

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pulumi-platform/pulumi-platform/sdk-gen/go/platform/platformtest"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// The certificate beside this file is valid from 2026-11-29 for ten years.
var now = time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC)

func mocks(t *testing.T) *platformtest.Mocks {
	t.Helper()
	m, err := platformtest.NewMocks(platformtest.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// outputsOf is every output field of a resource, by name.
func outputsOf(prefix string, res any, into map[string]pulumi.Output) {
	v := reflect.ValueOf(res).Elem()
	for i := 0; i < v.NumField(); i++ {
		if out, ok := v.Field(i).Interface().(pulumi.Output); ok && v.Type().Field(i).IsExported() {
			into[prefix+"."+v.Type().Field(i).Name] = out
		}
	}
}

// text is a string output's value, optional (a pointer) or not.
func text(v any) any {
	if p, ok := v.(*string); ok && p != nil {
		return *p
	}
	return v
}

func TestEveryOutputOfEveryKindResolvesRealistically(t *testing.T) {
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		r, err := Build(ctx, Settings{App: "demo-app", SizeGb: 3, Hostname: "www.example.com"})
		if err != nil {
			return err
		}
		all := map[string]pulumi.Output{}
		outputsOf("data", r.Data, all)
		outputsOf("nightly", r.Nightly, all)
		outputsOf("restored", r.Restored, all)
		outputsOf("www", r.Www, all)
		outputsOf("shop", r.Shop, all)
		outputsOf("db", r.Db, all)
		names := make([]string, 0, len(all))
		outs := make([]any, 0, len(all))
		for name, out := range all {
			names = append(names, name)
			outs = append(outs, out)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		pulumi.All(outs...).ApplyT(func(values []any) error {
			defer wg.Done()
			got := map[string]any{}
			for i, name := range names {
				got[name] = values[i]
			}
			if len(got) < 60 {
				t.Errorf("only %d outputs", len(got))
			}
			if id, _ := got["data.VolumeId"].(string); !strings.HasPrefix(id, "vol_") {
				t.Errorf("data.VolumeId = %v", got["data.VolumeId"])
			}
			if got["data.State"] != "created" || got["data.SizeGb"] != 3 {
				t.Errorf("data: state %v, sizeGb %v", got["data.State"], got["data.SizeGb"])
			}
			if text(got["restored.SnapshotId"]) != got["nightly.SnapshotId"] {
				t.Errorf("restored from %v, snapshot %v", got["restored.SnapshotId"], got["nightly.SnapshotId"])
			}
			if text(got["shop.Issuer"]) != "shop.example.com" || got["www.Hostname"] != "www.example.com" {
				t.Errorf("certificates: issuer %v, hostname %v", got["shop.Issuer"], got["www.Hostname"])
			}
			if p, _ := got["db.Password"].(string); len(p) < 16 {
				t.Errorf("db.Password %q", p)
			}
			return nil
		})
		wg.Wait()
		if !pulumi.IsSecret(r.Db.Password) {
			t.Error("db.Password is not secret")
		}
		return nil
	}, pulumi.WithMocks("project", "stack", mocks(t)))
	if err != nil {
		t.Fatal(err)
	}
}

// refused runs Build with s and returns the error the run fails with.
func refused(t *testing.T, s Settings) string {
	t.Helper()
	m := mocks(t)
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		_, err := Build(ctx, s)
		return err
	}, pulumi.WithMocks("project", "stack", m))
	if err == nil {
		t.Fatal("the run passed")
	}
	if len(m.CheckFailures()) == 0 {
		t.Fatalf("no check failure; the run failed with %v", err)
	}
	t.Log(err)
	return err.Error()
}

func TestANegativeSizeFailsWithPreviewsMessage(t *testing.T) {
	msg := refused(t, Settings{App: "bad-size", SizeGb: -1, Hostname: "www.example.com"})
	want := "platform:index:Volume resource 'data': property sizeGb value {-1} has a problem"
	if !strings.Contains(msg, want) {
		t.Errorf("got %q, want it to contain %q", msg, want)
	}
}

func TestABadHostnameFailsWithPreviewsMessage(t *testing.T) {
	msg := refused(t, Settings{App: "bad-host", SizeGb: 3, Hostname: "not a hostname"})
	want := "platform:index:AcmeCertificate resource 'www': property hostname value {not a hostname} has a problem"
	if !strings.Contains(msg, want) {
		t.Errorf("got %q, want it to contain %q", msg, want)
	}
}
