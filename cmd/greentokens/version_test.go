package main

import (
	"bytes"
	"encoding/json"
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/build"
)

// TestVersionJSON: version --json prints one object with every key of the
// documented set, in its order, and the values of the running code's
// generator (the record a build writes into the manifest).
func TestVersionJSON(t *testing.T) {
	code, stdout, stderr := runCLI(t, "version", "--json")
	if code != exitOK || stderr != "" {
		t.Fatalf("version --json: exit %d, stderr %q", code, stderr)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(stdout)))
	var keys []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("version --json does not print an object: %q", stdout)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"module", "version", "revision", "time", "modified", "go"}, keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	var got versionInfo
	strict := json.NewDecoder(bytes.NewReader([]byte(stdout)))
	strict.DisallowUnknownFields()
	if err := strict.Decode(&got); err != nil {
		t.Fatal(err)
	}
	g := build.ThisGenerator()
	want := versionInfo{Module: g.Module, Version: g.Version, Revision: g.Revision, Time: got.Time, Modified: g.Modified, Go: g.Go}
	if diff := cmp.Diff(want, got); diff != "" || got.Module == "" || got.Go == "" {
		t.Errorf("version --json (-want +got):\n%s", diff)
	}
}

// TestVersionOf: the commit time is the vcs.time Go stamped beside the
// revision; empty when none was.
func TestVersionOf(t *testing.T) {
	g := format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-20261130183850-4c91eaa0b1c2",
		Revision: "4c91eaa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6", Modified: true, Go: "go1.26.8"}
	stamped := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: g.Revision},
		{Key: "vcs.time", Value: "2026-11-30T18:38:50Z"}, {Key: "vcs.modified", Value: "true"}}
	want := versionInfo{Module: g.Module, Version: g.Version, Revision: g.Revision, Time: "2026-11-30T18:38:50Z", Modified: true, Go: g.Go}
	if diff := cmp.Diff(want, versionOf(g, stamped)); diff != "" {
		t.Errorf("stamped (-want +got):\n%s", diff)
	}
	if v := versionOf(format.Generator{Module: "m", Version: "(devel)"}, nil); v.Time != "" || v.Revision != "" {
		t.Errorf("unstamped: %+v", v)
	}
}
