// Package catalogtest builds real snapshots for the tests of the catalog,
// the HTTP API and the MCP server: the leaderboard version the seeds come
// from (the repository's sample), priced on the seed page's seven 2024 grid
// values.
package catalogtest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/build"
)

// Dates and sources of the test snapshots.
const (
	Date      = "2026-09-27"
	Retrieved = "2026-09-26"
	// Version is the leaderboard version the seeds were built from.
	Version = sample.Version
	// GridYear is pinned: the sample CSV's default reference year is not
	// the seed page's.
	GridYear = 2024
)

// repo is the repository's root.
func repo() string {
	_, file, _, _ := runtime.Caller(0)
	// file is REPO/catalog/catalogtest/catalogtest.go.
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Leaderboard is the sample's leaderboard folder of Version.
func Leaderboard() string { return sample.Leaderboard() }

// SevenGrids is a fixture holding the seed page's seven 2024 values (India
// 707, Saudi Arabia 692, Hong Kong 676, Serbia 668, World 474, Germany 340,
// Norway 30 g CO2e per kWh).
func SevenGrids() string {
	return filepath.Join(repo(), "transform", "grid", "testdata", "carbon-2024.csv")
}

// SampleEmber is the sample's file of real Ember intensity values (86
// countries in 2024).
func SampleEmber() string { return sample.Ember() }

// Build writes the snapshot of date into out (out/DATE/) from the sample's
// leaderboard and the Ember CSV ember ("" for no grid.json), and returns its
// folder.
func Build(tb testing.TB, out, date, ember string) string {
	tb.Helper()
	return buildFrom(tb, Leaderboard(), out, date, ember)
}

// BuildSmall is Build from sample.SmallLeaderboard, the sample cut to eight
// models: for the tests of a rescan, a tampered file or a replaced folder,
// which a snapshot's size does not change.
func BuildSmall(tb testing.TB, out, date, ember string) string {
	tb.Helper()
	return buildFrom(tb, sample.SmallLeaderboard(tb), out, date, ember)
}

func buildFrom(tb testing.TB, leaderboard, out, date, ember string) string {
	tb.Helper()
	res, err := build.Build(context.Background(), build.Options{
		Out: out, Date: date, Retrieved: Retrieved, GridYear: GridYear, NoGrid: ember == "",
		Source: fetch.Dir{Leaderboard: leaderboard, Ember: ember, Origins: fetch.DefaultOrigins()},
	})
	if err != nil {
		tb.Fatalf("building the test snapshot %s: %v", date, err)
	}
	return res.Dir
}

var cached struct {
	sync.Mutex
	dirs map[[2]string]string // by leaderboard folder and Ember CSV
}

// Shared returns a folder holding the snapshot of Date with the seven
// grids, built once per test binary: callers must not change it (Copy
// gives one to change). It is removed when the process's tests end only if
// the caller's TestMain calls Cleanup.
func Shared(tb testing.TB) string {
	tb.Helper()
	return sharedWith(tb, Leaderboard(), SevenGrids())
}

// SharedSmall is Shared built by BuildSmall: the folder for the tests that
// copy a shared snapshot beside others BuildSmall writes.
func SharedSmall(tb testing.TB) string {
	tb.Helper()
	return sharedWith(tb, sample.SmallLeaderboard(tb), SevenGrids())
}

// Fallback areas of the sample's Ember file with GridYear 2024: Western
// Sahara has no value since 2009 and is published with its 2009 one,
// "fallback": true; Germany has a 2024 value.
const (
	FallbackISO3  = "ESH"
	FallbackName  = "Western Sahara"
	FallbackYear  = 2009
	FallbackValue = "666.67"
	ReferenceISO3 = "DEU"
	ReferenceName = "Germany"
)

// SharedReal is Shared built from the sample's Ember file (SampleEmber)
// instead: 226 areas, many of them fallbacks (FallbackISO3 is one).
func SharedReal(tb testing.TB) string {
	tb.Helper()
	return sharedWith(tb, Leaderboard(), SampleEmber())
}

// SharedRealSmall is SharedReal built by BuildSmall: the real grids
// beside the small version's eight models, for the tests of grid names and
// fallbacks.
func SharedRealSmall(tb testing.TB) string {
	tb.Helper()
	return sharedWith(tb, sample.SmallLeaderboard(tb), SampleEmber())
}

// IsShared reports whether root is a folder Shared, SharedReal or their
// small variants returned, which no test may change: a test may open its
// catalog once and reuse it.
func IsShared(root string) bool {
	cached.Lock()
	defer cached.Unlock()
	for _, d := range cached.dirs {
		if d == root {
			return true
		}
	}
	return false
}

func sharedWith(tb testing.TB, leaderboard, ember string) string {
	tb.Helper()
	cached.Lock()
	defer cached.Unlock()
	key := [2]string{leaderboard, ember}
	if d, ok := cached.dirs[key]; ok {
		return d
	}
	root, err := os.MkdirTemp("", "greentokens-catalogtest-")
	if err != nil {
		tb.Fatal(err)
	}
	buildFrom(tb, leaderboard, root, Date, ember)
	if cached.dirs == nil {
		cached.dirs = map[[2]string]string{}
	}
	cached.dirs[key] = root
	return root
}

// Cleanup removes what Shared built.
func Cleanup() {
	cached.Lock()
	defer cached.Unlock()
	for _, d := range cached.dirs {
		os.RemoveAll(d)
	}
	cached.dirs = nil
}

// Copy copies the snapshot folder from into out/DATE (the same name) and
// returns the copy's folder.
func Copy(tb testing.TB, from, out string) string {
	tb.Helper()
	to := filepath.Join(out, filepath.Base(from))
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return to
}

// Main runs a package's tests and then Cleanup: a TestMain for packages
// that use Shared or BuildSmall.
func Main(m *testing.M) {
	code := sample.Run(m)
	Cleanup()
	os.Exit(code)
}

// GridName is a code or name a person gives for a grid: the area it finds
// in SharedReal's grid.json (the sample's Ember file, which names Türkiye
// Turkey), and how the pricing names the place where a grid.json has no
// value for it, as Shared's seven grids have none.
type GridName struct{ Query, Name, ISO3, Place string }

// GridNames are the codes and names every surface is tested with: UK is the
// United Kingdom, never Ukraine; US the United States; alpha-2 codes, an
// earlier name of Ember's, common names and a region's name.
var GridNames = []GridName{
	{"UK", "United Kingdom", "GBR", "United Kingdom (GBR)"},
	{"US", "United States", "USA", "United States (USA)"},
	{"FR", "France", "FRA", "France (FRA)"},
	{"GB", "United Kingdom", "GBR", "United Kingdom (GBR)"},
	{"United States of America", "United States", "USA", "United States (USA)"},
	{"Great Britain", "United Kingdom", "GBR", "United Kingdom (GBR)"},
	{"European Union", "EU", "", "EU"},
	{"Turkiye", "Turkey", "TUR", "Türkiye (TUR)"},
}
