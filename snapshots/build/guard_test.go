package build_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/leadgreen/greentokens/fetch"
)

// withoutModel copies the small leaderboard version into a temporary folder
// with every Text Conversation row of one model removed.
func withoutModel(t *testing.T, modelID string) string {
	t.Helper()
	dir := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallLeaderboard(t), dir)
	removed := 0
	snaptest.EditJSON(t, filepath.Join(dir, "tasks", "lm-arena-chat.json"), func(v map[string]any) {
		var keep []any
		for _, r := range v["configurations"].([]any) {
			if r.(map[string]any)["model_id"] == modelID {
				removed++
				continue
			}
			keep = append(keep, r)
		}
		v["configurations"] = keep
	})
	if removed == 0 {
		t.Fatalf("no row of %s in the seed", modelID)
	}
	return dir
}

func TestRemovalGuard(t *testing.T) {
	const (
		earlier = snaptest.SeedDate // a copy of the small version's snapshot
		later   = "2026-09-30"
	)
	out := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallSnapshot(t), filepath.Join(out, earlier))
	before := snaptest.Tree(t, filepath.Join(out, earlier))
	src := snaptest.SourceOf(withoutModel(t, "Qwen/Qwen3-14B"))
	buildLater := func(allow ...string) (string, error) {
		var log bytes.Buffer
		_, err := build.Build(context.Background(), build.Options{Out: out, Date: later, Retrieved: snaptest.SeedFetched, Source: src,
			AllowRemoval: allow, Logger: slog.New(slog.NewTextHandler(&log, nil))})
		return log.String(), err
	}
	const summary = "2 models (1 removed: qwen-3-14b), index rows unchanged"

	// Dropping a model is refused, naming it; nothing is written.
	log, err := buildLater()
	if !errors.Is(err, build.ErrRemoval) || !errors.Is(err, failure.ErrConflict) {
		t.Fatalf("a build dropping a model: %v; want build.ErrRemoval (an failure.ErrConflict)", err)
	}
	for _, want := range []string{"qwen-3-14b", "Qwen/Qwen3-14B", "--allow-removal", earlier} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if !strings.Contains(log, summary) {
		t.Errorf("the log does not give the diff summary %q:\n%s", summary, log)
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != store.LockFile && e.Name() != earlier {
			t.Errorf("a refused build left %s", e.Name())
		}
	}

	// Naming another model does not help.
	if _, err := buildLater("qwen-3-32b"); !errors.Is(err, build.ErrRemoval) {
		t.Fatalf("allowing another model's removal: %v; want build.ErrRemoval", err)
	}

	// Named (here by model id; the CLI test names it by slug), it may go,
	// and the summary is logged too.
	log, err = buildLater("Qwen/Qwen3-14B")
	if err != nil {
		t.Fatalf("AllowRemoval Qwen/Qwen3-14B: %v", err)
	}
	if !strings.Contains(log, summary) {
		t.Errorf("the log does not give the diff summary %q:\n%s", summary, log)
	}
	if _, err := os.Stat(filepath.Join(out, later, "models", "qwen-3-14b.json")); !os.IsNotExist(err) {
		t.Errorf("the new snapshot has the dropped model: %v", err)
	}

	// The earlier snapshot is never touched.
	if diff := cmp.Diff(before, snaptest.Tree(t, filepath.Join(out, earlier))); diff != "" {
		t.Errorf("building a later date changed the earlier snapshot:\n%s", diff)
	}
}

// A build for a new date compares with the latest earlier snapshot, logs
// the diff summary, and leaves the earlier snapshot byte-identical.
func TestBuildLeavesEarlierSnapshot(t *testing.T) {
	out := t.TempDir()
	earlier := filepath.Join(out, snaptest.SeedDate)
	if _, err := snaptest.Build(t, out, snaptest.SourceOf(withoutModel(t, "Qwen/Qwen3-14B"))); err != nil {
		t.Fatal(err)
	}
	before := snaptest.Tree(t, earlier)
	var log bytes.Buffer
	_, err := build.Build(context.Background(), build.Options{Out: out, Date: "2026-09-30", Retrieved: snaptest.SeedFetched,
		Source: snaptest.SmallSource(t), Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	const summary = "3 models (1 added), index rows unchanged"
	if !strings.Contains(log.String(), earlier) || !strings.Contains(log.String(), summary) {
		t.Errorf("the log does not name the earlier snapshot and the summary %q:\n%s", summary, log.String())
	}
	if diff := cmp.Diff(before, snaptest.Tree(t, earlier)); diff != "" {
		t.Errorf("the earlier snapshot changed:\n%s", diff)
	}
}

// TestRemovalGuardOnReplace: --replace of a published snapshot may not drop
// one of its models either.
func TestRemovalGuardOnReplace(t *testing.T) {
	out := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallSnapshot(t), filepath.Join(out, snaptest.SeedDate))
	before := snaptest.Tree(t, filepath.Join(out, snaptest.SeedDate))
	src := snaptest.SourceOf(withoutModel(t, "Qwen/Qwen3-14B"))
	replace := func(allow ...string) error {
		_, err := build.Build(context.Background(), build.Options{Out: out, Date: snaptest.SeedDate, Retrieved: snaptest.SeedFetched,
			Source: src, Replace: true, AllowRemoval: allow})
		return err
	}
	if err := replace(); !errors.Is(err, build.ErrRemoval) || !strings.Contains(err.Error(), "qwen-3-14b") {
		t.Fatalf("a replace dropping a model: %v; want build.ErrRemoval naming it", err)
	}
	if diff := cmp.Diff(before, snaptest.Tree(t, filepath.Join(out, snaptest.SeedDate))); diff != "" {
		t.Errorf("a refused replace changed the snapshot:\n%s", diff)
	}
	if err := replace("qwen-3-14b"); err != nil {
		t.Fatalf("a replace allowed to drop the model: %v", err)
	}
}

// TestGridShrinkGuard: grid.json may lose up to a tenth of the areas of the
// latest earlier snapshot's (226 here); more is refused like a removed model
// (build.ErrGridShrink, an failure.ErrConflict: exit 6), naming the count and the first
// areas, unless AllowGridShrink.
func TestGridShrinkGuard(t *testing.T) {
	earlier := snaptest.SmallSnapshot(t)
	csv, err := os.ReadFile(snaptest.SampleEmber)
	if err != nil {
		t.Fatal(err)
	}
	// withoutAreas drops every row of the first n areas of the file.
	withoutAreas := func(n int) (string, []string) {
		lines := strings.SplitAfter(string(csv), "\n")
		var b strings.Builder
		b.WriteString(lines[0])
		var gone []string
		for _, l := range lines[1:] {
			area, _, _ := strings.Cut(l, ",")
			if len(gone) == 0 || gone[len(gone)-1] != area {
				if len(gone) < n && !slices.Contains(gone, area) {
					gone = append(gone, area)
				}
			}
			if !slices.Contains(gone, area) {
				b.WriteString(l)
			}
		}
		p := filepath.Join(t.TempDir(), "ember.csv")
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p, gone
	}
	for _, tc := range []struct {
		name  string
		drop  int
		allow bool
		err   string
	}{
		{name: "22 of 226 lost (9.7%)", drop: 22},
		{name: "23 of 226 lost (10.2%)", drop: 23, err: "it would list 203 areas, losing 23 of the 226 (more than 10%) of "},
		{name: "23 lost, allowed", drop: 23, allow: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ember, gone := withoutAreas(tc.drop)
			out := t.TempDir()
			snaptest.CopyDir(t, earlier, filepath.Join(out, snaptest.SeedDate))
			var log bytes.Buffer
			_, err := build.Build(context.Background(), build.Options{Out: out, Date: "2026-09-30", Retrieved: snaptest.SeedFetched,
				Source:          fetch.Dir{Leaderboard: snaptest.SmallLeaderboard(t), Ember: ember, Origins: fetch.DefaultOrigins()},
				AllowGridShrink: tc.allow, Logger: slog.New(slog.NewTextHandler(&log, nil))})
			_, statErr := os.Stat(filepath.Join(out, "2026-09-30"))
			if tc.err == "" {
				if err != nil || statErr != nil {
					t.Fatalf("build: %v; snapshot: %v", err, statErr)
				}
				if tc.allow && !strings.Contains(log.String(), "grid.json shrinks, as allowed") {
					t.Errorf("the log does not say the shrink was allowed:\n%s", log.String())
				}
				return
			}
			if !errors.Is(err, build.ErrGridShrink) || !errors.Is(err, failure.ErrConflict) {
				t.Fatalf("error %v; want build.ErrGridShrink (an failure.ErrConflict)", err)
			}
			for _, want := range []string{tc.err, gone[0], "--allow-grid-shrink", filepath.Join(out, snaptest.SeedDate, "grid.json")} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if !os.IsNotExist(statErr) {
				t.Errorf("a refused build wrote its snapshot: %v", statErr)
			}
		})
	}
}

// TestTaskRemovalGuard: a task the earlier snapshot published and the
// leaderboard's index.json no longer lists is left out of the build, which
// is refused unless --allow-removal names the task; diff reports it.
func TestTaskRemovalGuard(t *testing.T) {
	const later = "2026-09-30"
	out := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallSnapshot(t), filepath.Join(out, snaptest.SeedDate))
	dir := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallLeaderboard(t), dir)
	snaptest.EditJSON(t, filepath.Join(dir, "index.json"), func(v map[string]any) {
		v["tasks"] = slices.DeleteFunc(v["tasks"].([]any), func(x any) bool { return x == "text-to-video" })
	})
	buildLater := func(allow ...string) error {
		_, err := build.Build(context.Background(), build.Options{Out: out, Date: later, Retrieved: snaptest.SeedFetched,
			Source: snaptest.SourceOf(dir), AllowRemoval: allow})
		return err
	}
	err := buildLater("qwen-3-14b")
	if !errors.Is(err, build.ErrTaskRemoval) || !errors.Is(err, failure.ErrConflict) || !strings.Contains(err.Error(), "text-to-video") {
		t.Fatalf("a build dropping a task: %v; want build.ErrTaskRemoval naming text-to-video", err)
	}
	if _, err := os.Stat(filepath.Join(out, later)); !os.IsNotExist(err) {
		t.Fatalf("a refused build wrote %s: %v", later, err)
	}
	if err := buildLater("text-to-video"); err != nil {
		t.Fatalf("AllowRemoval text-to-video: %v", err)
	}
	rel := snaptest.Load(t, filepath.Join(out, later))
	if got := rel.Manifest.Selection.Tasks; slices.Contains(got, "text-to-video") || len(got) != 6 {
		t.Errorf("selection.tasks %v", got)
	}
	if _, err := os.Stat(filepath.Join(out, later, "tasks", "text-to-video")); !os.IsNotExist(err) {
		t.Errorf("the new snapshot has the dropped task's files: %v", err)
	}
	rep := snaptest.Diff(t, snaptest.Load(t, filepath.Join(out, snaptest.SeedDate)), rel)
	want := diffTasks{Removed: []string{"text-to-video"}, UpstreamRemoved: []string{"text-to-video"}}
	if diff := cmp.Diff(want, diffTasks{rep.Tasks.Added, rep.Tasks.Removed, rep.Tasks.UpstreamRemoved}, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("diff's tasks (-want +got):\n%s", diff)
	}
	if !strings.Contains(rep.Summary, "tasks removed: text-to-video") {
		t.Errorf("summary %q", rep.Summary)
	}
}

type diffTasks struct{ Added, Removed, UpstreamRemoved []string }
