//go:build scale

package validate

import (
	"github.com/leadgreen/greentokens/internal/regfile"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/internal/shared"
)

// The leaderboard versions of ../shared/upstream/leaderboard that these
// tests (make scale) read besides the seeds' version, which the sample holds.
const (
	vtOldestVersion = "2025-11-29-9fa07d1" // parallelism 0, evidence differs
	vtNoOutputLen   = "2025-12-15-e0ba9ed" // no avg_output_len, evidence agrees
	vtFirstOutLen   = "2025-12-17-281c69e" // first with avg_output_len, evidence differs
)

// vtUpstream is the folder of a shared leaderboard version.
func vtUpstream(t testing.TB, version string) string {
	t.Helper()
	return shared.Path(t, "upstream", "leaderboard", version)
}

// TestGoodSnapshotsOtherVersions: a snapshot built by the transform package
// from each other archived version passes every check too (schema drift:
// avg_output_len appears, max_num_batched_tokens disappears).
func TestGoodSnapshotsOtherVersions(t *testing.T) {
	tests := []vtGood{
		{"2025-12-15 without avg_output_len", vtFixture{leaderboard: vtUpstream(t, vtNoOutputLen)}, "qwen-3-32b",
			`"compiled": "2025-12-15"`},
		{"2025-12-17 evidence differs", vtFixture{leaderboard: vtUpstream(t, vtFirstOutLen)}, "qwen-3-32b",
			`"compiled_evidence": "the leaderboard's public/data/index.json last_updated (2025-12-17), used here; the last commit to the task files is dated 2025-12-18 (UTC)"`},
	}
	for _, v := range []string{"2026-01-01-6e70d23", "2026-02-13-0ea52b6", "2026-02-13-82e15a4", "2026-02-13-f76e8d3"} {
		tests = append(tests, vtGood{v, vtFixture{leaderboard: vtUpstream(t, v)}, "qwen-3-32b", `"compiled": "` + v[:10] + `"`})
	}
	vtCheckGood(t, tests)
}

// TestOldestVersion: the oldest archived version (2025-11-29) has no
// avg_output_len, writes parallelism 0 where a parallelism is not used
// (published as 0), and its evidence dates differ (index 2025-11-29, commit
// 2025-11-30 UTC). Built by transform, it passes, and its model files carry
// the "differ" sentence.
func TestOldestVersion(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtUpstream(t, vtOldestVersion)})
	if err := Check(t.Context(), regfile.DirFS(dir)); err != nil {
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
	models, probs := vtRecompute(t, vtUpstream(t, vtOldestVersion))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	const wantText = "the leaderboard's public/data/index.json last_updated (2025-11-29), used here; the last commit to the task files is dated 2025-11-30 (UTC)"
	if got := models[0].tree.get("source").get("compiled_evidence").text; got != wantText {
		t.Errorf("compiled_evidence %q, want %q", got, wantText)
	}
}
