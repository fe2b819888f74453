// Package shared gives the tests of make scale the project's shared data
// folder, ../shared beside the repository: all eight leaderboard versions,
// the seeds, and the tools that write full-size synthetic Ember files
// (tools/ember-synth, tools/ember-wide). CI and every developer checkout
// have it; a fresh clone does not, and runs make test, which reads only the
// repository's sample (package sample).
//
// Tests that call it are in files built with the "scale" tag, which make
// scale sets; without the tag, Root fails the test, so a test of make test
// that reaches for ../shared fails where ../shared exists too.
package shared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root is the shared data folder. It fails the test when the folder is
// missing or the test is not built for make scale, naming what it needs.
func Root(tb testing.TB) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	// file is REPO/internal/shared/shared.go.
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
	if !scale {
		tb.Fatalf("%s reads the shared data folder (%s), which only make scale's tests may: "+
			"move it into a file built with the \"scale\" tag, or read the repository's sample (package sample)", tb.Name(), dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "upstream", "leaderboard")); err != nil {
		tb.Fatalf("%s needs the project's shared data folder beside the repository: %s, "+
			"with upstream/leaderboard/ (the eight ML.ENERGY Leaderboard versions), upstream/ember/, seeds/ and tools/ "+
			"(ember-synth, ember-wide); CI and the developer checkouts have it, a fresh clone does not: "+
			"run make test there, which reads only testdata/ (%v)", tb.Name(), dir, err)
	}
	return dir
}

// Path is a file or folder of the shared data, by its path below Root.
func Path(tb testing.TB, parts ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Root(tb)}, parts...)...)
}

// Versions are the folders of every shared leaderboard version, oldest
// first (upstream/leaderboard/DATE-COMMIT).
func Versions(tb testing.TB) []string {
	tb.Helper()
	dirs, err := filepath.Glob(Path(tb, "upstream", "leaderboard", "20*"))
	if err != nil || len(dirs) == 0 {
		tb.Fatalf("no leaderboard versions in %s (%v)", Path(tb, "upstream", "leaderboard"), err)
	}
	return dirs
}
