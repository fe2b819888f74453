package build_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/internal/sample"
)

func TestMain(m *testing.M) { snaptest.Main(m) }

func TestBuildReproducesSeeds(t *testing.T) {
	out := t.TempDir()
	res, err := snaptest.Build(t, out, snaptest.SeedSource())
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
		want, _ := os.ReadFile(filepath.Join(snaptest.SeedLeaderboard, name))
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
	if diff := cmp.Diff([]string{store.LockFile, snaptest.SeedDate}, names); diff != "" {
		t.Errorf("output folder (-want +got):\n%s", diff)
	}
}

func TestBuildIsDeterministic(t *testing.T) {
	b, err := snaptest.Build(t, t.TempDir(), snaptest.SeedSource())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snaptest.Tree(t, snaptest.SeedSnapshot(t)), snaptest.Tree(t, b.Dir)); diff != "" {
		t.Errorf("two builds from the same sources differ:\n%s", diff)
	}
}

func TestExistingSnapshot(t *testing.T) {
	// The first snapshot lists 7 grid areas, the other content 226: a
	// replace that keeps every area, which the guards let through.
	first, other := snaptest.SmallOtherSource(t), snaptest.SmallSource(t)
	out := t.TempDir()
	if _, err := snaptest.Build(t, out, first); err != nil {
		t.Fatal(err)
	}
	before := snaptest.Tree(t, filepath.Join(out, snaptest.SeedDate))

	res, err := snaptest.Build(t, out, first)
	if err != nil || !res.Unchanged {
		t.Fatalf("rebuilding the same snapshot: %+v, %v; want success, unchanged", res, err)
	}

	// Other content for the same date is a conflict, and the old snapshot stays.
	_, err = snaptest.Build(t, out, other)
	if !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("building other content over a snapshot: %v; want failure.ErrConflict naming --replace", err)
	}
	if diff := cmp.Diff(before, snaptest.Tree(t, filepath.Join(out, snaptest.SeedDate))); diff != "" {
		t.Errorf("a refused build changed the snapshot:\n%s", diff)
	}

	// With Replace, it is swapped in whole.
	res, err = build.Build(context.Background(), build.Options{Generator: &snaptest.Generator, Out: out, Date: snaptest.SeedDate, Retrieved: snaptest.SeedFetched,
		Source: other, Replace: true})
	if err != nil || !res.Replaced {
		t.Fatalf("replace: %+v, %v", res, err)
	}
	fresh, err := snaptest.Build(t, t.TempDir(), other)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snaptest.Tree(t, fresh.Dir), snaptest.Tree(t, filepath.Join(out, snaptest.SeedDate))); diff != "" {
		t.Errorf("the replaced snapshot is not the new build:\n%s", diff)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 2 {
		t.Errorf("output folder holds %d entries after a replace, want the snapshot and the lock", len(entries))
	}
}

func TestBadUpstreamWritesNothing(t *testing.T) {
	dir := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallLeaderboard(t), dir)
	task := filepath.Join(dir, "tasks", "lm-arena-chat.json")
	b, _ := os.ReadFile(task)
	// Remove the first row's median ITL.
	b = bytes.Replace(b, []byte(`"median_itl_ms"`), []byte(`"median_itl_gone"`), 1)
	os.WriteFile(task, b, 0o644)

	out := t.TempDir()
	_, err := snaptest.Build(t, out, snaptest.SourceOf(dir))
	if !errors.Is(err, failure.ErrUpstreamData) {
		t.Fatalf("got %v; want failure.ErrUpstreamData", err)
	}
	for _, want := range []string{"lm-arena-chat.json", "configurations[0]", `"median_itl_ms"`, "missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	snaptest.AssertEmpty(t, out)
}

func TestRetrievedIsRequiredForLocalSources(t *testing.T) {
	out := t.TempDir()
	_, err := build.Build(context.Background(), build.Options{Out: out, Date: snaptest.SeedDate, Source: snaptest.SmallSource(t)})
	if !errors.Is(err, failure.ErrUsage) {
		t.Fatalf("got %v; want failure.ErrUsage", err)
	}
	snaptest.AssertEmpty(t, out)
}
