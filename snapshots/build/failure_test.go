package build_test

import (
	"context"
	"errors"
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
	srv := fetchtest.NewServer(t, snaptest.SeedLeaderboard)
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
