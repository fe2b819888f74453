// Package sample gives tests the paths of the repository's sample of real
// upstream data, testdata/ at the repository's root (its README names each
// file's origin, sha256 and licence). The sample is laid out as the shared
// data folder is (upstream/leaderboard/VERSION/, upstream/ember/, seeds/), so
// that a test reads either from the same relative paths: the sample in
// make test, ../shared (package shared) in make scale.
package sample

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Version is the one leaderboard version in the sample: the one the seeds
// were built from (328 Text Conversation configurations, 18 models).
const Version = "2026-02-16-7885788"

// Dates of the seeds: the release they belong to, and when their upstream
// files were retrieved.
const (
	SeedDate      = "2026-09-27"
	SeedRetrieved = "2026-09-26"
)

// Root is the sample's folder, REPO/testdata.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	// file is REPO/internal/sample/sample.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Path is a file or folder of the sample, by its path below Root.
func Path(parts ...string) string {
	return filepath.Join(append([]string{Root()}, parts...)...)
}

// Leaderboard is the folder of Version: index.json, commits.json and the
// two task files a build reads (tasks/lm-arena-chat.json, tasks/gpqa.json).
func Leaderboard() string { return Path("upstream", "leaderboard", Version) }

// Ember is the real intensity values in Ember's long layout (213 countries
// and 13 regions, 2000-2024; 86 countries in 2024).
func Ember() string { return Path("upstream", "ember", "co2-intensity-long-format.csv") }

// EmberWide is a file in the layout Ember has published since July 2026
// (one row per area, year and source), written by ember-wide from Ember's
// 2023 and 2024 rows: the "Total generation" intensities are Ember's, every
// other value is SYNTHETIC.
func EmberWide() string { return Path("synthetic", "release_generation_yearly_global.csv") }

// Seed is a published seed file ("qwen-3-32b.json", "qwen-3-32b.page.txt"):
// the contract a build of Version with the seed dates reproduces.
func Seed(name string) string { return Path("seeds", name) }

// Read returns the bytes of a file of the sample, by its path below Root.
func Read(tb testing.TB, parts ...string) []byte {
	tb.Helper()
	b, err := os.ReadFile(Path(parts...))
	if err != nil {
		tb.Fatalf("reading the repository's sample: %v", err)
	}
	return b
}
