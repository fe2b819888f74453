package verify

// The large leaderboard of TestTenThousandModels and of the 10,000-model
// benchmarks (bench_test.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// Scale of the large-leaderboard test: the 10,000 models, each with
// scaleRowsPerModel Text Conversation rows.
const (
	scaleModels       = 10000
	scaleRowsPerModel = 3
)

// writeScaleLeaderboard lays out, in dir, a leaderboard of n synthetic
// models (index.json and tasks/lm-arena-chat.json, rows formatted as
// upstream's), with the real commits.json and gpqa.json of the seeds'
// version. It returns the size of the task file.
func writeScaleLeaderboard(t testing.TB, dir string, n int) int {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "tasks"), 0o755); err != nil {
		t.Fatal(err)
	}
	var idx, chat bytes.Buffer
	idx.WriteString("{\n  \"last_updated\": \"2026-02-16\",\n  \"tasks\": [\n    \"gpqa\",\n    \"lm-arena-chat\"\n  ],\n  \"models\": {")
	chat.WriteString("{\n  \"task\": \"lm-arena-chat\",\n  \"task_display_name\": \"Text Conversation\",\n  \"configurations\": [")
	type cfg struct {
		gpu string
		cap int
	}
	cfgs := []cfg{{"H100", 8}, {"H100", 16}, {"B200", 8}, {"B200", 16}, {"H100", 32}}[:scaleRowsPerModel]
	for i := range n {
		id := fmt.Sprintf("org/model-%05d", i)
		nick := fmt.Sprintf("Model %05d 7B", i)
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&idx, "%s\n    %q: {\n      \"nickname\": %q,\n      \"total_params_billions\": 7.0,\n      \"activated_params_billions\": 7.0,\n      \"architecture\": \"Dense Transformer\",\n      \"weight_precision\": \"bfloat16\"\n    }", sep, id, nick)
		for j, c := range cfgs {
			if i > 0 || j > 0 {
				chat.WriteString(",")
			}
			e := 0.05 + float64(i%997)/1000 + float64(j)/100
			itl := 10 + float64(i%89) + float64(j)
			fmt.Fprintf(&chat, `
    {
      "model_id": %q,
      "nickname": %q,
      "total_params_billions": 7.0,
      "activated_params_billions": 7.0,
      "architecture": "Dense Transformer",
      "weight_precision": "bfloat16",
      "gpu_model": %q,
      "num_gpus": 1,
      "max_num_seqs": %d,
      "tensor_parallel": 1,
      "data_parallel": 1,
      "expert_parallel": 1,
      "avg_batch_size": %v,
      "energy_per_token_joules": %v,
      "energy_per_request_joules": %v,
      "avg_power_watts": %v,
      "median_itl_ms": %v,
      "p90_itl_ms": %v,
      "p95_itl_ms": %v,
      "p99_itl_ms": %v,
      "output_throughput_tokens_per_sec": %v,
      "avg_output_len": %v
    }`, id, nick, c.gpu, c.cap, float64(c.cap)*0.93, e, e*612.5, 600+float64(i%300), itl, itl*1.2, itl*1.4, itl*2,
				float64(c.cap)*40.5, 612.5+float64(j))
		}
	}
	// The real gpqa.json's models are in index.json too, as every task
	// file's models must be.
	var real struct {
		Models map[string]json.RawMessage `json:"models"`
	}
	b, err := os.ReadFile(filepath.Join(snaptest.SeedLeaderboard, "index.json"))
	if err == nil {
		err = json.Unmarshal(b, &real)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range slices.Sorted(maps.Keys(real.Models)) {
		fmt.Fprintf(&idx, ",\n    %q: %s", id, real.Models[id])
	}
	idx.WriteString("\n  }\n}")
	chat.WriteString("\n  ]\n}")
	write := func(rel string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.json", idx.Bytes())
	write(filepath.Join("tasks", "lm-arena-chat.json"), chat.Bytes())
	for _, rel := range []string{"commits.json", filepath.Join("tasks", "gpqa.json")} {
		b, err := os.ReadFile(filepath.Join(snaptest.SeedLeaderboard, rel))
		if err != nil {
			t.Fatal(err)
		}
		write(rel, b)
	}
	return chat.Len()
}
