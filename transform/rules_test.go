package transform

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
)

// row is a stable upstream row with the given fields; the rest take
// plausible values.
func row(model string, gpu string, n, cap int, joules, medianITL float64) map[string]any {
	return map[string]any{
		"model_id": model, "nickname": strings.TrimPrefix(model, "org/"), "gpu_model": gpu,
		"num_gpus": n, "tensor_parallel": n, "data_parallel": 1, "expert_parallel": 1,
		"weight_precision": "bfloat16", "max_num_seqs": cap, "avg_batch_size": float64(cap) * 0.95,
		"energy_per_token_joules": joules, "energy_per_request_joules": joules * 600, "avg_output_len": 600.25,
		"median_itl_ms": medianITL, "p90_itl_ms": medianITL + 1, "p95_itl_ms": medianITL + 2, "p99_itl_ms": medianITL + 3,
		"output_throughput_tokens_per_sec": 1000.05, "avg_power_watts": 700.5,
		"total_params_billions": 8.0, "activated_params_billions": 8.0, "architecture": "Dense Transformer",
	}
}

// leaderboard builds a Leaderboard from rows of the chat task.
func newLeaderboard(t *testing.T, rows ...map[string]any) (*Leaderboard, []leaderboard.Exclusion, error) {
	t.Helper()
	models := map[string]any{}
	for _, r := range rows {
		models[r["model_id"].(string)] = map[string]any{"nickname": r["nickname"], "weight_precision": "bfloat16"}
	}
	idx, _ := json.Marshal(map[string]any{"last_updated": "2026-02-16", "models": models, "tasks": []string{taskChat}})
	task, _ := json.Marshal(map[string]any{"task": taskChat, "configurations": rows})
	commits := []byte(`[{"sha":"abc","commit":{"committer":{"date":"2026-02-16T09:48:29Z"}}}]`)
	return NewLeaderboard(LeaderboardFiles{Index: idx, Commits: commits, Primary: task, PrimaryURL: "https://example/chat.json"}, "2026-09-27", "2026-09-26")
}

// models builds the model files of the rows.
func models(t *testing.T, rows ...map[string]any) []*format.Model {
	t.Helper()
	lb, _, err := newLeaderboard(t, rows...)
	if err != nil {
		t.Fatal(err)
	}
	built, err := Models(lb)
	if err != nil {
		t.Fatal(err)
	}
	ms := make([]*format.Model, len(built))
	for i, b := range built {
		ms[i] = b.File
	}
	return ms
}

func TestConfigFigures(t *testing.T) {
	r := row("org/m", "H100", 1, 8, 0.1405812345, 50.25)
	r["avg_batch_size"] = 7.65   // 1 decimal: 7.7 (7.65 is 7.6500000000000003552... in binary)
	r["avg_power_watts"] = 859.5 // half to even: 860
	r["avg_output_len"] = 645.5  // half to even: 646
	r["median_itl_ms"] = 0.25    // exact tie: 0.2
	r["weight_precision"] = "fp8"
	m := models(t, r)[0]
	c := m.Configurations[0]
	got := map[string]string{}
	b, _ := format.Marshal(c)
	var raw map[string]json.RawMessage
	json.Unmarshal(b, &raw)
	for k, v := range raw {
		got[k] = string(v)
	}
	want := map[string]string{
		"gpu": `"H100"`, "num_gpus": "1", "tensor_parallel": "1", "data_parallel": "1", "expert_parallel": "1",
		"precision": `"FP8"`, "max_num_seqs": "8", "avg_requests_in_flight": "7.7", "avg_running_batch": "7.7",
		"wh_per_million_output_tokens": "39.05", "joules_per_output_token": "0.1405812",
		"median_itl_ms": "0.2", "p90_itl_ms": "51.2", "p95_itl_ms": "52.2", "p99_itl_ms": "53.2", // 51.25 etc. are exact ties
		"tokens_per_second": "1000.0", "gpu_power_watts_total": "860", "avg_output_tokens": "646",
		"under_itl_deadline": "true", "row_id": `"m/H100/1/8"`, "repeat": "1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("configuration (-want +got):\n%s", diff)
	}
}

func TestOutputTokensFallback(t *testing.T) {
	// Versions before 2025-12-17 have no avg_output_len: it is energy per
	// request over energy per token.
	r := row("org/m", "H100", 1, 8, 0.5, 20)
	delete(r, "avg_output_len")
	r["energy_per_request_joules"] = 0.5 * 612.5 // 612.5 tokens: half to even, 612
	if got := models(t, r)[0].Configurations[0].AvgOutputTokens; got != 612 {
		t.Errorf("avg_output_tokens = %d, want 612", got)
	}
	delete(r, "energy_per_request_joules")
	if _, _, err := newLeaderboard(t, r); err == nil || !strings.Contains(err.Error(), `"avg_output_len"`) {
		t.Errorf("a row with neither field: %v; want an error naming avg_output_len", err)
	}
}

func TestDeadlineBestRepeatAndOrder(t *testing.T) {
	rows := []map[string]any{
		row("org/m", "H100", 2, 64, 0.30, 40),   // ties with the next on energy: fewer GPUs wins
		row("org/m", "H100", 1, 64, 0.30, 40),   // best H100
		row("org/m", "H100", 1, 128, 0.10, 501), // lowest energy but over the deadline
		row("org/m", "B200", 1, 16, 0.40, 500),  // exactly 500 ms is under the deadline
		row("org/m", "B200", 1, 8, 0.50, 30),
		row("org/m", "B200", 1, 16, 0.40, 20), // a repeat of cap 16: same energy, higher repeat loses
	}
	m := models(t, rows...)[0]
	var ids []string
	for _, c := range m.Configurations {
		ids = append(ids, fmt.Sprintf("%s r%d %v", c.RowID, c.Repeat, c.UnderITLDeadline))
	}
	want := []string{
		"m/B200/1/8 r1 true", "m/B200/1/16 r1 true", "m/B200/1/16/r2 r2 true",
		"m/H100/1/64 r1 true", "m/H100/1/128 r1 false", "m/H100/2/64 r1 true",
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("configurations in order (-want +got):\n%s", diff)
	}
	best := map[string]string{}
	for gpu, c := range m.Best {
		best[gpu] = c.RowID
	}
	if diff := cmp.Diff(map[string]string{"B200": "m/B200/1/16", "H100": "m/H100/1/64"}, best); diff != "" {
		t.Errorf("best (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"B200", "H100"}, m.GPUs); diff != "" {
		t.Errorf("gpus (-want +got):\n%s", diff)
	}

	// A GPU with no row under the deadline has no best entry.
	m = models(t, row("org/m", "H100", 1, 8, 0.3, 600))[0]
	if len(m.Best) != 0 || len(m.GPUs) != 1 {
		t.Errorf("best %v, gpus %v; want no best entry and one GPU", m.Best, m.GPUs)
	}
}

func TestModelErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(r map[string]any)
		want []string
	}{
		{"unknown precision", func(r map[string]any) { r["weight_precision"] = "int4" }, []string{"configurations[0]", `"weight_precision"`, `"int4"`}},
		{"GPU name not plain", func(r map[string]any) { r["gpu_model"] = "A100/80GB" }, []string{"configurations[0]", `"gpu_model"`, `"A100/80GB" is not a plain GPU name`}},
		{"empty slug", func(r map[string]any) { r["nickname"] = "/" }, []string{"empty slug"}},
		{"missing median ITL", func(r map[string]any) { delete(r, "median_itl_ms") }, []string{"configurations[0]", `"median_itl_ms": missing`}},
		{"wrong type", func(r map[string]any) { r["max_num_seqs"] = "eight" }, []string{`"max_num_seqs"`, "not a number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := row("org/m", "H100", 1, 8, 0.3, 20)
			tc.edit(r)
			lb, _, err := newLeaderboard(t, r)
			if err == nil {
				_, err = Models(lb)
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %s", err, w)
				}
			}
		})
	}
	// Two models with one slug.
	a, b := row("org/a", "H100", 1, 8, 0.3, 20), row("org/b", "H100", 1, 8, 0.3, 20)
	a["nickname"], b["nickname"] = "Model X", "model-x"
	lb, _, err := newLeaderboard(t, a, b)
	if err == nil {
		_, err = Models(lb)
	}
	if err == nil || !strings.Contains(err.Error(), `"model-x"`) || !strings.Contains(err.Error(), "org/a") {
		t.Errorf("a slug collision: %v; want an error naming both models and the slug", err)
	}
}

func TestStabilityFilter(t *testing.T) {
	mk := func(cap int, batchFrac, joules float64) map[string]any {
		r := row("org/m", "H100", 1, cap, joules, 20)
		r["avg_batch_size"] = float64(cap) * batchFrac
		return r
	}
	steady := mk(256, 0.95, 0.1)
	steady["steady_state_duration_s"] = 19.9
	rows := []map[string]any{
		mk(8, 0.95, 0.5),
		mk(16, 0.95, 0.4),
		mk(64, 0.80, 0.2),  // under 85% of the cap: unstable
		mk(32, 0.95, 0.3),  // below the smallest unstable cap: stable
		mk(128, 0.95, 0.1), // at or above it: cascade
		steady,             // short steady state, and cascade
		func() map[string]any { r := row("org/m", "B200", 1, 8, 0, 20); return r }(),  // energy 0: unstable
		func() map[string]any { r := row("org/m", "B200", 2, 8, -1, 20); return r }(), // negative: unstable
		func() map[string]any {
			r := row("org/m", "B200", 4, 8, 0.1, 20)
			delete(r, "energy_per_token_joules")
			return r
		}(),
		func() map[string]any { r := row("org/m", "B200", 1, 16, 0.1, 20); return r }(),  // cascade from the B200 x1 cap 8
		func() map[string]any { r := row("org/m", "H100", 2, 128, 0.1, 20); return r }(), // another GPU count: stable
	}
	lb, excluded, err := newLeaderboard(t, rows...)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, e := range excluded {
		got[e.Row.Index] = strings.SplitN(e.Reason, " ", 2)[0]
	}
	want := map[int]string{2: "avg_batch_size", 4: "cascade:", 5: "steady-state", 6: "energy_per_token_joules", 7: "energy_per_token_joules", 8: "energy_per_token_joules", 9: "cascade:"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("excluded rows by index and reason (-want +got):\n%s", diff)
	}
	if n := len(lb.Tasks[taskChat]); n != len(rows)-len(want) {
		t.Errorf("%d stable rows, want %d", n, len(rows)-len(want))
	}
}

func TestEvidence(t *testing.T) {
	lb, _, err := newLeaderboard(t, row("org/m", "H100", 1, 8, 0.3, 20))
	if err != nil {
		t.Fatal(err)
	}
	m := models(t, row("org/m", "H100", 1, 8, 0.3, 20))[0]
	if want := "the leaderboard's public/data/index.json last_updated, and the last commit to the task files, both 2026-02-16"; m.Source.CompiledEvidence != want {
		t.Errorf("compiled_evidence %q, want %q", m.Source.CompiledEvidence, want)
	}
	if want := "3.0 (released 2025-12-01); data compiled 2026-02-16"; m.Source.Version != want {
		t.Errorf("version %q, want %q", m.Source.Version, want)
	}
	if !strings.HasPrefix(m.Source.Configurations, "1 stable configurations: ") {
		t.Errorf("configurations %q does not count 1", m.Source.Configurations)
	}
	// Committed after midnight UTC: the dates differ and the index wins.
	lb.Commit.Date = time.Date(2026, 2, 17, 3, 0, 0, 0, time.UTC)
	text := mustText(t)
	compiled, sentence, conflict, err := lb.Evidence(text)
	wantConflict := "index.json last_updated is 2026-02-16 but the newest commit to public/data/tasks (" + lb.Commit.SHA + ") is dated 2026-02-17 UTC; the index date is used"
	if err != nil || compiled != "2026-02-16" || conflict != wantConflict || !strings.Contains(sentence, "2026-02-17") {
		t.Errorf("Evidence = %q, %q, %q, %v; want the index date, a sentence naming both, the conflict %q", compiled, sentence, conflict, err, wantConflict)
	}
}

func mustText(t *testing.T) *sourcetext.Leaderboard {
	t.Helper()
	text, err := sourcetext.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &text.Leaderboard
}
