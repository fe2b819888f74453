package snapshots

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
)

// The seeds' release and retrieval dates.
const (
	seedDate    = sample.SeedDate
	seedFetched = sample.SeedRetrieved
)

// seedLeaderboard is the leaderboard version the seeds were built from, in
// the repository's sample.
var seedLeaderboard = sample.Leaderboard()

// sampleEmber is the sample's file of real intensity values in Ember's
// layout.
var sampleEmber = sample.Ember()

// sourceOf reads the leaderboard version folder dir and sampleEmber.
func sourceOf(dir string) fetch.Dir {
	return fetch.Dir{Leaderboard: dir, Ember: sampleEmber, Origins: fetch.DefaultOrigins()}
}

// seedSource is the seeds' leaderboard version with sampleEmber.
func seedSource() fetch.Dir { return sourceOf(seedLeaderboard) }

// otherSource gives a snapshot other than seedSource's: the seeds'
// leaderboard version with the seed page's seven grid values instead.
func otherSource() fetch.Dir {
	return fetch.Dir{Leaderboard: seedLeaderboard, Ember: "../render/testdata/ember-seed-2024.csv", Origins: fetch.DefaultOrigins()}
}

func build(t *testing.T, out string, src fetch.Source) (*Result, error) {
	t.Helper()
	return buildBy(t, out, src, testGenerator)
}

// testGenerator is the fixed generator of the tests' builds: builds that
// are compared record the same code whatever binary runs them.
var testGenerator = format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-test",
	Revision: "0123456789abcdef0123456789abcdef01234567", Go: "go1.26.0"}

// buildBy builds with gen as the manifest's generator.
func buildBy(t *testing.T, out string, src fetch.Source, gen format.Generator) (*Result, error) {
	t.Helper()
	return Build(context.Background(), BuildOptions{Out: out, Date: seedDate, Retrieved: seedFetched, Source: src, Generator: &gen})
}

// tree returns every file below dir with its bytes.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := listTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		m[f] = string(b)
	}
	return m
}

func TestBuildReproducesSeeds(t *testing.T) {
	out := t.TempDir()
	res, err := build(t, out, seedSource())
	if err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"qwen-3-32b", "qwen-3-14b"} {
		got, err := os.ReadFile(filepath.Join(res.Dir, "models", slug+".json"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(sample.Seed(slug + ".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("models/%s.json differs from the seed:\n%s", slug, cmp.Diff(string(want), string(got)))
		}
	}
	models, _ := filepath.Glob(filepath.Join(res.Dir, "models", "*.json"))
	if len(models) != 18 {
		t.Errorf("%d model files, want 18", len(models))
	}
	// The archived sources are the upstream bytes, unchanged.
	for _, name := range []string{"index.json", "commits.json", "tasks/lm-arena-chat.json", "tasks/gpqa.json"} {
		got, _ := os.ReadFile(filepath.Join(res.Dir, "sources", "leaderboard", name))
		want, _ := os.ReadFile(filepath.Join(seedLeaderboard, name))
		if len(want) == 0 || !bytes.Equal(got, want) {
			t.Errorf("sources/leaderboard/%s is not the upstream file", name)
		}
	}
	// Nothing but the snapshot and the lock is left in the output folder.
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{lockName, seedDate}, names); diff != "" {
		t.Errorf("output folder (-want +got):\n%s", diff)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	a, err := build(t, t.TempDir(), seedSource())
	if err != nil {
		t.Fatal(err)
	}
	b, err := build(t, t.TempDir(), seedSource())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tree(t, a.Dir), tree(t, b.Dir)); diff != "" {
		t.Errorf("two builds from the same sources differ:\n%s", diff)
	}
}

func TestExistingSnapshot(t *testing.T) {
	// The first snapshot lists 7 grid areas, the other content 226: a
	// replace that keeps every area, which the guards let through.
	first, other := otherSource(), seedSource()
	out := t.TempDir()
	if _, err := build(t, out, first); err != nil {
		t.Fatal(err)
	}
	before := tree(t, filepath.Join(out, seedDate))

	res, err := build(t, out, first)
	if err != nil || !res.Unchanged {
		t.Fatalf("rebuilding the same snapshot: %+v, %v; want success, unchanged", res, err)
	}

	// Other content for the same date is a conflict, and the old snapshot stays.
	_, err = build(t, out, other)
	if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("building other content over a snapshot: %v; want failure.ErrConflict naming --replace", err)
	}
	if diff := cmp.Diff(before, tree(t, filepath.Join(out, seedDate))); diff != "" {
		t.Errorf("a refused build changed the snapshot:\n%s", diff)
	}

	// With Replace, it is swapped in whole.
	res, err = Build(context.Background(), BuildOptions{Generator: &testGenerator, Out: out, Date: seedDate, Retrieved: seedFetched,
		Source: other, Replace: true})
	if err != nil || !res.Replaced {
		t.Fatalf("replace: %+v, %v", res, err)
	}
	fresh, err := build(t, t.TempDir(), other)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tree(t, fresh.Dir), tree(t, filepath.Join(out, seedDate))); diff != "" {
		t.Errorf("the replaced snapshot is not the new build:\n%s", diff)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 2 {
		t.Errorf("output folder holds %d entries after a replace, want the snapshot and the lock", len(entries))
	}
}

func TestFailedValidationWritesNothing(t *testing.T) {
	out := t.TempDir()
	real := validateSnapshot
	t.Cleanup(func() { validateSnapshot = real })
	// Flip one figure in a built model file before the real validator runs.
	validateSnapshot = func(ctx context.Context, dir string) error {
		p := filepath.Join(dir, "models", "qwen-3-32b.json")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b = bytes.Replace(b, []byte(`"wh_per_million_output_tokens": 429.18`), []byte(`"wh_per_million_output_tokens": 429.19`), 1)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
		return real(ctx, dir)
	}
	_, err := build(t, out, seedSource())
	if !errors.Is(err, failure.ErrValidation) || !strings.Contains(err.Error(), "qwen-3-32b") {
		t.Fatalf("build with a tampered file: %v; want failure.ErrValidation naming the model", err)
	}
	assertEmpty(t, out)
}

func TestBadUpstreamWritesNothing(t *testing.T) {
	dir := t.TempDir()
	copyLeaderboard(t, seedLeaderboard, dir)
	task := filepath.Join(dir, "tasks", "lm-arena-chat.json")
	b, _ := os.ReadFile(task)
	// Remove the first row's median ITL.
	b = bytes.Replace(b, []byte(`"median_itl_ms"`), []byte(`"median_itl_gone"`), 1)
	os.WriteFile(task, b, 0o644)

	out := t.TempDir()
	_, err := build(t, out, sourceOf(dir))
	if !errors.Is(err, failure.ErrUpstreamData) {
		t.Fatalf("got %v; want failure.ErrUpstreamData", err)
	}
	for _, want := range []string{"lm-arena-chat.json", "configurations[0]", `"median_itl_ms"`, "missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	assertEmpty(t, out)
}

func TestRetrievedIsRequiredForLocalSources(t *testing.T) {
	out := t.TempDir()
	_, err := Build(context.Background(), BuildOptions{Out: out, Date: seedDate, Source: seedSource()})
	if !errors.Is(err, failure.ErrUsage) {
		t.Fatalf("got %v; want failure.ErrUsage", err)
	}
	assertEmpty(t, out)
}

// assertEmpty checks that a build left no snapshot and no staging folder.
func assertEmpty(t *testing.T, out string) {
	t.Helper()
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != lockName {
			t.Errorf("a failed build left %s in the output folder", e.Name())
		}
	}
}

// copyLeaderboard copies a leaderboard version into a temporary
// folder, for tests that break one file.
func copyLeaderboard(t *testing.T, from, to string) {
	t.Helper()
	err := os.CopyFS(to, os.DirFS(from))
	if err != nil {
		t.Fatal(err)
	}
}
