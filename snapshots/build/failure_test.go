package build_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/fetch/fetchtest"
)

// TestFetchFailureKinds: each way a fetch fails gets its kind (and so its
// exit code), whichever file it hits, and nothing is written.
func TestFetchFailureKinds(t *testing.T) {
	srv := fetchtest.NewServer(t, snaptest.SmallLeaderboard(t))
	srv.Map(fetchtest.EmberPath, snaptest.SampleEmber)
	for _, tc := range []struct {
		name  string
		opts  fetch.HTTPOptions
		fault func()
		ctx   func() context.Context
		want  error
	}{
		{name: "Ember over the size cap", opts: fetch.HTTPOptions{MaxBytesCSV: 1000}, want: failure.ErrUpstreamData},
		{name: "task file over the size cap", opts: fetch.HTTPOptions{MaxBytes: 1000}, want: failure.ErrUpstreamData},
		{name: "Ember 404", fault: func() { srv.Fault(fetchtest.EmberPath, fetchtest.Fault{Status: 404}) }, want: failure.ErrUpstream},
		{name: "Ember not in Ember's layout", fault: func() {
			srv.Fault(fetchtest.EmberPath, fetchtest.Fault{Body: []byte("Area,Year\nWorld,2024\n")})
		}, want: failure.ErrUpstreamData},
		{name: "cancelled", ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, want: failure.ErrInterrupted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.fault != nil {
				tc.fault()
				t.Cleanup(func() { srv.ClearFaults(fetchtest.EmberPath) })
			}
			ctx := context.Background()
			if tc.ctx != nil {
				ctx = tc.ctx()
			}
			out := t.TempDir()
			_, err := build.Build(ctx, build.Options{Out: out, Date: snaptest.SeedDate, Source: srv.Source(tc.opts)})
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v; want %v", err, tc.want)
			}
			snaptest.AssertEmpty(t, out)
		})
	}
}

// TestEmberLineBound: an Ember CSV with a record of 6 MB and no line end,
// sent gzip-encoded (its body a few kilobytes) or read from a local file,
// fails the build as bad upstream data (exit 4), naming the source and
// the line, with nothing written.
func TestEmberLineBound(t *testing.T) {
	header, err := os.ReadFile(snaptest.SampleEmber)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(header, []byte("\n"))
	body := append(append(append([]byte(nil), first...), "\nWorld,,2024,Region,"...), bytes.Repeat([]byte("x"), 6<<20)...)

	srv := fetchtest.NewServer(t, snaptest.SmallLeaderboard(t))
	srv.Map(fetchtest.EmberPath, snaptest.SampleEmber)
	srv.Fault(fetchtest.EmberPath, fetchtest.Fault{Body: body, Gzip: true})
	local := filepath.Join(t.TempDir(), "ember.csv")
	if err := os.WriteFile(local, body, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		src   fetch.Source
		names string
	}{
		{"gzip-encoded", srv.Source(fetch.HTTPOptions{}), fetchtest.EmberPath},
		{"a local file", fetch.Dir{Leaderboard: snaptest.SmallLeaderboard(t), Ember: local, Origins: fetch.DefaultOrigins()}, local},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			_, err := build.Build(context.Background(), build.Options{Out: out, Date: snaptest.SeedDate, Retrieved: snaptest.SeedFetched, Source: tc.src})
			for _, want := range []string{tc.names, "ember line 2: a line too long: over 65536 bytes"} {
				if !errors.Is(err, failure.ErrUpstreamData) || !strings.Contains(fmt.Sprint(err), want) {
					t.Errorf("got %v; want failure.ErrUpstreamData saying %q", err, want)
				}
			}
			snaptest.AssertEmpty(t, out)
		})
	}
}
