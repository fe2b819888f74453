package layering

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	// The packages the tests look at, imported so that a change to any of
	// them builds this test again rather than reusing its cached result.
	_ "github.com/leadgreen/greentokens/api"
	_ "github.com/leadgreen/greentokens/exports"
	_ "github.com/leadgreen/greentokens/format"
	_ "github.com/leadgreen/greentokens/history"
	_ "github.com/leadgreen/greentokens/leaderboard"
	_ "github.com/leadgreen/greentokens/mcpserver"
	_ "github.com/leadgreen/greentokens/mcpserver/mcptest"
	_ "github.com/leadgreen/greentokens/pricing"
	_ "github.com/leadgreen/greentokens/render"
	_ "github.com/leadgreen/greentokens/site"
	_ "github.com/leadgreen/greentokens/site/chart"
	_ "github.com/leadgreen/greentokens/snapshots/build"
	_ "github.com/leadgreen/greentokens/snapshots/diff"
	_ "github.com/leadgreen/greentokens/snapshots/store"
	_ "github.com/leadgreen/greentokens/snapshots/verify"
)

const project = "github.com/leadgreen/greentokens/"

// goList returns, for each package of patterns, the project's packages in
// the list its template field gives (Imports: its direct imports outside
// its tests; Deps: every package it depends on), by import path without
// the module's prefix.
func goList(t *testing.T, field string, patterns ...string) map[string][]string {
	t.Helper()
	args := []string{"list", "-f", "{{.ImportPath}}{{range ." + field + "}} {{.}}{{end}}"}
	for _, p := range patterns {
		args = append(args, project+p)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	got := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, ok := strings.CutPrefix(f[0], project)
		if !ok {
			t.Fatalf("go list gave %q", line)
		}
		got[pkg] = []string{}
		for _, imp := range f[1:] {
			if p, ok := strings.CutPrefix(imp, project); ok {
				got[pkg] = append(got[pkg], p)
			}
		}
	}
	return got
}

// imports returns the project's packages each package of patterns imports
// directly, outside its tests.
func imports(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	return goList(t, "Imports", patterns...)
}

// within reports whether pkg is root or a package under it.
func within(pkg, root string) bool { return pkg == root || strings.HasPrefix(pkg, root+"/") }

func TestServingReadsThroughCatalog(t *testing.T) {
	got := imports(t, "api/...", "mcpserver/...", "site/...")
	var listed []string
	for pkg := range got {
		listed = append(listed, pkg)
	}
	slices.Sort(listed)
	if want := []string{"api", "mcpserver", "mcpserver/mcptest", "site", "site/chart"}; !slices.Equal(listed, want) {
		t.Fatalf("the serving packages are %v, this test imports %v: import the new ones above", listed, want)
	}
	for pkg, deps := range got {
		for _, dep := range deps {
			for _, below := range []string{"snapshots", "fetch", "validate"} {
				if within(dep, below) {
					t.Errorf("%s imports %s: serving reads snapshots only through catalog", pkg, dep)
				}
			}
		}
	}
}

// servingImports are the project's packages each serving package may import
// outside its tests: the API and the MCP server reach the index through
// catalog (and its releases' history through history, which reads the
// catalog's releases and diffs them) and print it in the published format, the API besides serves the
// schemas and mounts the MCP server, and mcptest checks the tools' answers
// against catalogtest's snapshots; the site reads through catalog and
// render, prints in the published format, draws with site/chart, gives
// its calculator the configurations pricing's rule prices a running batch
// among, and shows a snapshot's text on its sources page as
// internal/printable does.
var servingImports = map[string][]string{
	"api":               {"catalog", "format", "history", "mcpserver", "schemas"},
	"mcpserver":         {"catalog", "format", "history", "schemas"},
	"mcpserver/mcptest": {"catalog", "catalog/catalogtest", "format", "schemas"},
	"site":              {"catalog", "format", "history", "internal/printable", "pricing", "render", "site/chart"},
	"site/chart":        {"catalog", "render"},
}

func TestServingImportsOnlyCatalogAndItsOwn(t *testing.T) {
	for pkg, deps := range imports(t, "api/...", "mcpserver/...", "site/...") {
		allowed, ok := servingImports[pkg]
		if !ok {
			t.Errorf("%s: a new serving package; say in servingImports which of the project's packages it may import", pkg)
			continue
		}
		for _, dep := range deps {
			if !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s; it imports only %s of the project's packages", pkg, dep, strings.Join(allowed, ", "))
			}
		}
	}
}

// transformImporters are the packages outside transform/... that may
// import the builder, and which of its packages: snapshots/build holds the
// build (verify rebuilds through it, and the command's grid hint reads an
// archived Ember CSV with its parser, build.EmberYears).
var transformImporters = map[string][]string{
	"snapshots/build": {"transform", "transform/grid"},
}

// TestOnlyTheBuildImportsTransform: outside transform/..., only the
// packages of transformImporters import the builder.
func TestOnlyTheBuildImportsTransform(t *testing.T) {
	for pkg, deps := range imports(t, "...") {
		if within(pkg, "transform") {
			continue
		}
		for _, dep := range deps {
			if within(dep, "transform") && !slices.Contains(transformImporters[pkg], dep) {
				t.Errorf("%s imports %s: outside the builder only %v import it", pkg, dep, transformImporters)
			}
		}
	}
}

// readerImports are the project's packages the format and the packages
// that read it beside the builder may import outside their tests: the
// format reads its tasks' names and units, and the sentence on what the
// energy covers, from the published fixed text; the exports read the
// published files, the schemas' descriptions and the licence's text.
var readerImports = map[string][]string{
	"exports":     {"format", "internal/regfile", "internal/sourcetext", "schemas"},
	"format":      {"internal/sourcetext"},
	"leaderboard": {"format"},
	"pricing":     {"format", "internal/sourcetext", "leaderboard"},
	"render":      {"format", "internal/sourcetext", "leaderboard", "pricing"},
}

func TestReadersImportOnlyTheFormat(t *testing.T) {
	for pkg, deps := range imports(t, "exports", "format", "leaderboard", "pricing", "render") {
		allowed := readerImports[pkg]
		for _, dep := range deps {
			if !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s; it imports only %v of the project's packages", pkg, dep, allowed)
			}
		}
	}
}

// TestReadersDoNotDependOnTheBuilder: nothing that exports, format,
// leaderboard, pricing or render depend on is of the builder or the store; nothing that
// catalog, the serving packages and diff depend on is of the builder
// (they read releases through snapshots/store, in the published format).
func TestReadersDoNotDependOnTheBuilder(t *testing.T) {
	for pkg, deps := range goList(t, "Deps", "exports", "format", "leaderboard", "pricing", "render") {
		for _, dep := range deps {
			if within(dep, "transform") || within(dep, "snapshots") || within(dep, "catalog") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
	for pkg, deps := range goList(t, "Deps", "catalog", "api", "mcpserver", "site/...", "snapshots/diff", "snapshots/store", "snapshots/bucket") {
		for _, dep := range deps {
			if within(dep, "transform") || dep == "snapshots/build" || dep == "snapshots/verify" {
				t.Errorf("%s depends on %s: it reads releases in the published format, not through the builder", pkg, dep)
			}
		}
	}
}

// snapshotsImports are the packages of snapshots/... that each package of
// it may import: the store below diff, diff below the build (its removal
// guard diffs), the build below verify (which rebuilds through it); the
// bucket on the store alone, so that the catalog can read a bucket with no
// path to the builder; no package imports one above it, and the store
// calls no test hook of the build's (internal/crashtest).
var snapshotsImports = map[string][]string{
	"snapshots/store":             {},
	"snapshots/diff":              {"snapshots/store"},
	"snapshots/build":             {"snapshots/store", "snapshots/diff", "internal/crashtest"},
	"snapshots/verify":            {"snapshots/store", "snapshots/build", "internal/crashtest"},
	"snapshots/bucket":            {"snapshots/store", "internal/crashtest"},
	"snapshots/internal/snaptest": {"snapshots/store", "snapshots/diff", "snapshots/build"},
}

func TestSnapshotsLayers(t *testing.T) {
	for pkg, deps := range imports(t, "snapshots/...") {
		allowed, ok := snapshotsImports[pkg]
		if !ok {
			t.Errorf("%s: a new package of snapshots/; say in snapshotsImports which of its siblings it may import", pkg)
			continue
		}
		for _, dep := range deps {
			if (within(dep, "snapshots") || dep == "internal/crashtest") && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s; of snapshots/... and the test hooks it imports only %v", pkg, dep, allowed)
			}
		}
	}
}

// TestMemoryLimitIsTheCommands: the soft memory limit is the command's
// policy (cmd/greentokens/memory.go): no other package sets one.
func TestMemoryLimitIsTheCommands(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.Dir}}{{range .GoFiles}} {{.}}{{end}}`, project+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if strings.HasSuffix(filepath.ToSlash(f[0]), "/cmd/greentokens") {
			continue
		}
		for _, name := range f[1:] {
			b, err := os.ReadFile(filepath.Join(f[0], name))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "SetMemoryLimit(") {
				t.Errorf("%s sets a memory limit: that is the command's policy", filepath.Join(f[0], name))
			}
		}
	}
}

// historyImports are the project's packages the history may import: it
// reads the releases the catalog holds, the task rows through leaderboard,
// and compares two releases through snapshots/diff; never the builder.
var historyImports = []string{"catalog", "format", "internal/plural", "internal/printable", "leaderboard", "snapshots/diff"}

func TestHistoryImports(t *testing.T) {
	for pkg, deps := range imports(t, "history") {
		for _, dep := range deps {
			if !slices.Contains(historyImports, dep) {
				t.Errorf("%s imports %s; it imports only %v of the project's packages", pkg, dep, historyImports)
			}
		}
	}
	for pkg, deps := range goList(t, "Deps", "history") {
		for _, dep := range deps {
			if within(dep, "transform") || dep == "snapshots/build" || dep == "snapshots/verify" {
				t.Errorf("%s depends on %s: it reads releases in the published format, not through the builder", pkg, dep)
			}
		}
	}
}
