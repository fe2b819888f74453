package site

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/store"
)

const (
	seedDate = sample.SeedDate
	// seedGrid holds the seven grid values of the seed page (Ember's
	// September 2026 release, 2024), in Ember's layout.
	seedGrid = "../render/testdata/ember-seed-2024.csv"
)

var seed struct {
	once sync.Once
	root string
	dir  string
	err  error
}

// seedSnapshot builds, once per test binary, the snapshot of the seed
// leaderboard version with the seed page's grids (grid year pinned to 2024),
// and returns its folder. Tests must not change it.
func seedSnapshot(t testing.TB) string {
	t.Helper()
	seed.once.Do(func() {
		seed.root, seed.err = os.MkdirTemp("", "greentokens-site-")
		if seed.err != nil {
			return
		}
		var res *build.Result
		res, seed.err = build.Build(context.Background(), build.Options{
			Out: seed.root, Date: seedDate, Retrieved: "2026-09-26", GridYear: 2024, EmberRelease: "September 2026",
			Source: fetch.Dir{Leaderboard: sample.Leaderboard(), Ember: seedGrid, Origins: fetch.DefaultOrigins()},
		})
		if seed.err == nil {
			seed.dir = res.Dir
		}
	})
	if seed.err != nil {
		t.Fatal(seed.err)
	}
	return seed.dir
}

func openSeed(t testing.TB) *Site {
	t.Helper()
	s, err := newSeed(t, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newSeed makes the site of the seed snapshot with opts, the snapshot
// loaded as the site command loads it (store.Load, then
// catalog.FromLoaded) once per test binary: a loaded snapshot is read-only,
// shared by every request of a server as by these tests.
func newSeed(t testing.TB, opts Options) (*Site, error) {
	t.Helper()
	dir := seedSnapshot(t)
	loaded.once.Do(func() {
		var ls *store.Release
		if ls, loaded.err = store.LoadDir(context.Background(), dir); loaded.err == nil {
			loaded.snap, loaded.err = catalog.FromLoaded(ls)
		}
	})
	if loaded.err != nil {
		t.Fatal(loaded.err)
	}
	return New(loaded.snap, opts)
}

// loaded is the seed snapshot as newSeed loads it, once.
var loaded struct {
	once sync.Once
	snap *catalog.Snapshot
	err  error
}

func TestMain(m *testing.M) {
	code := sample.Run(m)
	if seed.root != "" {
		os.RemoveAll(seed.root)
	}
	os.Exit(code)
}
