package validate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGoodSnapshots: a snapshot built by the transform package from real
// upstream versions passes every check.
func TestGoodSnapshots(t *testing.T) {
	tests := []struct {
		name    string
		fix     vtFixture
		slug    string // a model file to look into
		keyText string // text that file must hold
	}{
		{"seed version 2026-02-16", vtFixture{leaderboard: vtUpstream(vtSeedVersion)}, "qwen-3-32b",
			`"compiled_evidence": "the leaderboard's public/data/index.json last_updated, and the last commit to the task files, both 2026-02-16"`},
		{"seed version with gpqa filtered too", vtFixture{leaderboard: vtUpstream(vtSeedVersion), tasks: []string{"lm-arena-chat", "gpqa"}}, "qwen-3-14b",
			`"configurations": "328 stable configurations:`},
		{"2025-12-15 without avg_output_len", vtFixture{leaderboard: vtUpstream(vtNoOutputLen)}, "qwen-3-32b",
			`"compiled": "2025-12-15"`},
		{"2025-12-17 evidence differs", vtFixture{leaderboard: vtUpstream(vtFirstOutLen)}, "qwen-3-32b",
			`"compiled_evidence": "the leaderboard's public/data/index.json last_updated (2025-12-17), used here; the last commit to the task files is dated 2025-12-18 (UTC)"`},
		{"stability fixture", vtFixture{leaderboard: vtStabilityDir(t)}, "test-lm-7b-chat",
			`"compiled_evidence": "the leaderboard's public/data/index.json last_updated (2026-03-02), used here; the last commit to the task files is dated 2026-03-03 (UTC)"`},
		{"stability fixture with gpqa", vtFixture{leaderboard: vtStabilityDir(t), tasks: []string{"lm-arena-chat", "gpqa"}}, "other-lm-1-5b",
			`"avg_output_tokens": 333,`},
	}
	// Every other archived version builds and passes too (schema drift:
	// avg_output_len appears, max_num_batched_tokens disappears).
	for _, v := range []string{"2026-01-01-6e70d23", "2026-02-13-0ea52b6", "2026-02-13-82e15a4", "2026-02-13-f76e8d3"} {
		tests = append(tests, struct {
			name    string
			fix     vtFixture
			slug    string
			keyText string
		}{v, vtFixture{leaderboard: vtUpstream(v)}, "qwen-3-32b", `"compiled": "` + v[:10] + `"`})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := vtBuild(t, tt.fix)
			if err := Snapshot(dir); err != nil {
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
	models, probs := vtRecompute(t, vtUpstream(vtSeedVersion))
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
			want, err := os.ReadFile(filepath.Join(vtShared, "seeds", slug+".json"))
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
	in := &lbInputs{
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

// TestOldestVersion: the oldest archived version (2025-11-29) has no
// avg_output_len, writes parallelism 0 where a parallelism is not used
// (published as 0), and its evidence dates differ (index 2025-11-29, commit
// 2025-11-30 UTC). Built by transform, it passes, and its model files carry
// the "differ" sentence.
func TestOldestVersion(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtUpstream(vtOldestVersion)})
	if err := Snapshot(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "models", "qwen-3-32b.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"compiled_evidence": "the leaderboard's public/data/index.json last_updated (2025-11-29), used here; the last commit to the task files is dated 2025-11-30 (UTC)",`,
		`"data_parallel": 0,`,
		`"version": "3.0 (released 2025-12-01); data compiled 2025-11-29",`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("models/qwen-3-32b.json lacks %s", want)
		}
	}
	m := vtReadManifest(t, dir)
	want := ManifestEvidence{IndexLastUpdated: "2025-11-29", LastCommitSHA: "9fa07d19a280936a24484a19bef2a70098f617ce", LastCommitDate: "2025-11-30", Compiled: "2025-11-29"}
	got := m.Evidence
	if got.Conflict == "" {
		t.Error("evidence.conflict is empty")
	}
	got.Conflict = ""
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("evidence (-want +got):\n%s", diff)
	}

	// The same sentence from this package's own recomputation.
	models, probs := vtRecompute(t, vtUpstream(vtOldestVersion))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	const wantText = "the leaderboard's public/data/index.json last_updated (2025-11-29), used here; the last commit to the task files is dated 2025-11-30 (UTC)"
	if got := models[0].tree.get("source").get("compiled_evidence").text; got != wantText {
		t.Errorf("compiled_evidence %q, want %q", got, wantText)
	}
}

// TestSnapshotWithoutManifest: a folder without a readable manifest is one
// problem per cause, and Snapshot never returns a nil *Report as an error.
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
