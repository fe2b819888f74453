package validate

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/internal/sample"
)

// TestGoodSnapshots: a snapshot built by the transform package from real
// upstream versions passes every check.
func TestGoodSnapshots(t *testing.T) {
	vtCheckGood(t, []vtGood{
		{"seed version 2026-02-16", vtFixture{leaderboard: vtSeed}, "qwen-3-32b",
			`"compiled_evidence": "the leaderboard's public/data/index.json last_updated, and the last commit to the task files, both 2026-02-16"`},
		{"seed version with gpqa filtered too", vtFixture{leaderboard: vtSeed, tasks: []string{"lm-arena-chat", "gpqa"}}, "qwen-3-14b",
			`"configurations": "328 stable configurations:`},
		{"stability fixture", vtFixture{leaderboard: vtStabilityDir(t)}, "test-lm-7b-chat",
			`"compiled_evidence": "the leaderboard's public/data/index.json last_updated (2026-03-02), used here; the last commit to the task files is dated 2026-03-03 (UTC)"`},
		{"stability fixture with gpqa", vtFixture{leaderboard: vtStabilityDir(t), tasks: []string{"lm-arena-chat", "gpqa"}}, "other-lm-1-5b",
			`"avg_output_tokens": 333,`},
	})
}

// vtGood is a snapshot that passes: built from fix, with a model file
// holding a text.
type vtGood struct {
	name    string
	fix     vtFixture
	slug    string // a model file to look into
	keyText string // text that file must hold
}

// vtCheckGood builds each snapshot with transform and checks that it
// passes and its model file holds the text.
func vtCheckGood(t *testing.T, tests []vtGood) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := vtBuild(t, tt.fix)
			if err := Check(t.Context(), regfile.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "models", tt.slug+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tt.keyText) {
				t.Errorf("models/%s.json lacks %s", tt.slug, tt.keyText)
			}
		})
	}
}

// TestSeedsThroughOwnWriter recomputes every model file of the seeds'
// upstream version with this package alone (no transform) and compares the
// two published seed files byte for byte.
func TestSeedsThroughOwnWriter(t *testing.T) {
	models, probs := vtRecompute(t, vtSeed)
	if len(probs) != 0 {
		t.Fatalf("problems: %v", probs)
	}
	if len(models) != 18 {
		t.Errorf("recomputed %d models, want the 18 Text Conversation models", len(models))
	}
	bySlug := map[string]*wantModel{}
	for _, m := range models {
		bySlug[m.slug] = m
	}
	for _, slug := range []string{"qwen-3-32b", "qwen-3-14b"} {
		t.Run(slug, func(t *testing.T) {
			want, err := os.ReadFile(sample.Seed(slug + ".json"))
			if err != nil {
				t.Fatal(err)
			}
			m := bySlug[slug]
			if m == nil {
				t.Fatalf("no model %s recomputed", slug)
			}
			if got := writeTree(m.tree); string(got) != string(want) {
				t.Errorf("recomputed models/%s.json differs from the seed (-seed +recomputed):\n%s", slug, cmp.Diff(string(want), string(got)))
			}
			if ps := compareModel("models/"+slug+".json", "sources/leaderboard/tasks/lm-arena-chat.json", m, want); len(ps) != 0 {
				t.Errorf("compareModel(seed): %v", ps)
			}
			if ps := CheckSchema("model.schema.json", "models/"+slug+".json", want); len(ps) != 0 {
				t.Errorf("seed fails model.schema.json: %v", ps)
			}
		})
	}
}

// vtRecompute recomputes the model files of an upstream leaderboard
// folder with this package's own parser, filter and writer, with the seeds'
// dates.
func vtRecompute(t *testing.T, lbDir string) ([]*wantModel, []Problem) {
	t.Helper()
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(lbDir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	text := vtLoadText(t)
	ps := &problems{file: "sources/leaderboard/tasks/lm-arena-chat.json"}
	idxPS := &problems{file: "sources/leaderboard/index.json"}
	idx := parseIndex(idxPS, read("index.json"))
	commit := parseCommits(idxPS, read("commits.json"))
	rows, _ := parseTask(ps, "lm-arena-chat", read("tasks/lm-arena-chat.json"))
	stable, _ := filterStable(rows)
	if idx == nil || commit == nil {
		t.Fatalf("index or commits unreadable: %v", idxPS.list)
	}
	in := &lbInputs{task: chatTask(),
		date: vtDate, retrieved: vtRetrieved, dataURL: vtLeaderboardBase + "tasks/lm-arena-chat.json",
		chatPath: ps.file, index: idx, commit: commit, text: text, stable: stable,
	}
	models, _, err := recomputeModels(in, ps, idxPS)
	if err != nil {
		t.Fatal(err)
	}
	return models, append(ps.list, idxPS.list...)
}

// TestReportJSON: the error is a *Report that marshals to a stable shape.
func TestReportJSON(t *testing.T) {
	r := &Report{Dir: "snapshots/2026-09-27", Problems: []Problem{{
		File: "models/qwen-3-32b.json", Where: "configurations[3] (qwen-3-32b/B200/1/64)", Field: "wh_per_million_output_tokens",
		Msg: "is 86.85, recomputed 86.84 from sources/leaderboard/tasks/lm-arena-chat.json configurations[41]",
	}}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"dir":"snapshots/2026-09-27","problems":[{"file":"models/qwen-3-32b.json","where":"configurations[3] (qwen-3-32b/B200/1/64)","field":"wh_per_million_output_tokens","msg":"is 86.85, recomputed 86.84 from sources/leaderboard/tasks/lm-arena-chat.json configurations[41]"}]}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	wantErr := "validate: snapshot snapshots/2026-09-27: 1 problem\n  models/qwen-3-32b.json: configurations[3] (qwen-3-32b/B200/1/64): wh_per_million_output_tokens is 86.85, recomputed 86.84 from sources/leaderboard/tasks/lm-arena-chat.json configurations[41]"
	if diff := cmp.Diff(wantErr, r.Error()); diff != "" {
		t.Errorf("Error() (-want +got):\n%s", diff)
	}
}

// TestSnapshotWithoutManifest: a folder without a readable manifest is one
// problem per cause, and Check never returns a nil *Report as an error.
func TestSnapshotWithoutManifest(t *testing.T) {
	tests := []struct {
		name  string
		setup func(dir string) error
		want  []vtAt
	}{
		{"empty folder", func(dir string) error { return nil }, []vtAt{{ManifestPath, "", ""}}},
		{"manifest not JSON", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, ManifestPath), []byte("{"), 0o644)
		}, []vtAt{{ManifestPath, "", ""}}},
		{"missing folder", func(dir string) error { return os.Remove(dir) }, []vtAt{{".", "", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), vtDate)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tt.setup(dir); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, vtPositions(vtReport(t, dir))); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTasks: every published task is one row with its own id, its
// archived task file under sources/leaderboard/tasks/ and an ITL ceiling,
// a name and a unit in the published text, and the two tasks the rules name are rows of it.
func TestTasks(t *testing.T) {
	ids := map[string]bool{}
	for _, tk := range tasks {
		if ids[tk.id] {
			t.Errorf("task %s is listed twice", tk.id)
		}
		ids[tk.id] = true
		if want := "sources/leaderboard/tasks/" + tk.id + ".json"; tk.file != want {
			t.Errorf("task %s: file %q, want %q", tk.id, tk.file, want)
		}
		if want := "leaderboard/tasks/" + tk.id + ".json"; tk.sourceName() != want {
			t.Errorf("task %s: source name %q, want %q", tk.id, tk.sourceName(), want)
		}
		// A token task has an ITL ceiling, a diffusion task a unit and a
		// batch latency ceiling, never both.
		if text := vtLoadText(t).Tasks[tk.id]; text.Name == "" || text.Unit == "" || (tk.itlCeilingMS > 0) == (tk.unit != "" && tk.batchCeilingS > 0) {
			t.Errorf("task %s: name %q, unit %q (internal/sourcetext), ITL ceiling %d, unit %q, batch ceiling %v", tk.id, text.Name, text.Unit, tk.itlCeilingMS, tk.unit, tk.batchCeilingS)
		}
	}
	for _, id := range []string{taskChat, taskGPQA} {
		if taskOf(id) == nil || taskOf(id).id != id {
			t.Errorf("taskOf(%q) = %v", id, taskOf(id))
		}
	}
	if taskOf("audio-chat") != nil {
		t.Errorf("taskOf finds a task that is not published")
	}
}

// TestCheckAnyFS: Check reads any fs.FS, not only a folder: a good
// snapshot held in memory passes, unnamed; an entry of it that is not a
// regular file is refused on the listing and on every read, whatever the
// fs.FS would serve.
func TestCheckAnyFS(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
	mem := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		mem[p] = &fstest.MapFile{Data: b, Mode: 0o644}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(t.Context(), mem); err != nil {
		t.Fatalf("the snapshot in memory: %v", err)
	}

	mem[ManifestPath].Mode = fs.ModeNamedPipe | 0o644
	err = Check(t.Context(), mem)
	var r *Report
	if !errors.As(err, &r) {
		t.Fatalf("Check = %v, want a *Report", err)
	}
	want := []Problem{
		{File: ManifestPath, Msg: "is not a regular file (a snapshot holds regular files only)"},
		{File: ManifestPath, Msg: "cannot be read: manifest.json is a named pipe (FIFO), not a regular file; refusing to read it"},
	}
	if diff := cmp.Diff(want, r.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if r.Dir != "" || !strings.HasPrefix(r.Error(), "validate: snapshot: 2 problems\n") {
		t.Errorf("an unnamed snapshot's report: Dir %q, %q", r.Dir, r.Error())
	}
}

// TestCheckRefusesLink: in a snapshot folder, a symbolic link is refused,
// not followed, whether it points inside the folder or out of it.
func TestCheckRefusesLink(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
	outside := filepath.Join(t.TempDir(), ManifestPath)
	if err := os.Rename(filepath.Join(dir, ManifestPath), outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ManifestPath)); err != nil {
		t.Fatal(err)
	}
	want := []Problem{
		{File: ManifestPath, Msg: "is not a regular file (a snapshot holds regular files only)"},
		{File: ManifestPath, Msg: "cannot be read: manifest.json is a symbolic link, not a regular file; refusing to read it"},
	}
	if diff := cmp.Diff(want, vtReport(t, dir)); diff != "" {
		t.Errorf("a link out of the folder (-want +got):\n%s", diff)
	}

	model := filepath.Join(dir, "models", "qwen-3-32b.json")
	if err := os.Rename(outside, filepath.Join(dir, ManifestPath)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(model, filepath.Join(dir, "models", "real.bin")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.bin", model); err != nil {
		t.Fatal(err)
	}
	got := vtReport(t, dir)
	if len(got) == 0 || got[0] != (Problem{File: "models/qwen-3-32b.json", Msg: "is not a regular file (a snapshot holds regular files only)"}) {
		t.Errorf("a link inside the folder: %v", got)
	}
}
