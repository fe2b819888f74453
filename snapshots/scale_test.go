package snapshots

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Scale of the large-leaderboard test: the 10,000 models, each with
// scaleRowsPerModel Text Conversation rows.
const (
	scaleModels       = 10000
	scaleRowsPerModel = 3
	// scaleMaxRSS is the memory bound of a whole offline build.
	scaleMaxRSS = 150 << 20
)

// writeScaleLeaderboard lays out, in dir, a leaderboard of n synthetic
// models (index.json and tasks/lm-arena-chat.json, rows formatted as
// upstream's), with the real commits.json and gpqa.json of the seeds'
// version. It returns the size of the task file.
func writeScaleLeaderboard(t *testing.T, dir string, n int) int {
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
		b, err := os.ReadFile(filepath.Join(leaderboardDir(seedVersion), rel))
		if err != nil {
			t.Fatal(err)
		}
		write(rel, b)
	}
	return chat.Len()
}

// TestTenThousandModels builds, with the greentokens binary in a child
// process, a snapshot from a leaderboard of 10,000 models (30,000 Text
// Conversation rows) and the shared Ember file: it must succeed, write one
// model file per model, and stay under the build's memory bound, the
// child's peak resident set (a memory check, not a time one). The time of
// each stage, from the child's log, is logged.
func TestTenThousandModels(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "greentokens")
	gobuild := exec.Command("go", "build", "-o", bin, "../cmd/greentokens")
	if out, err := gobuild.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	lb := filepath.Join(tmp, "leaderboard")
	size := writeScaleLeaderboard(t, lb, scaleModels)

	out := filepath.Join(tmp, "out")
	cmd := exec.Command(bin, "build", "--date", seedDate, "--retrieved", seedFetched, "--out", out,
		"--from-leaderboard", lb, "--from-ember", sharedEmber, "--log-format", "json")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("greentokens build: %v\n%s", err, tail(stderr.String(), 2000))
	}
	t.Logf("stages, from the build's log:\n%s", stages(start, stderr.Bytes()))
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatalf("no rusage for the child (%T)", cmd.ProcessState.SysUsage())
	}
	peak := ru.Maxrss << 10 // KiB on Linux
	t.Logf("%d models, %d rows, task file %.1f MB: build %v, peak RSS %.1f MiB (bound %d MiB)",
		scaleModels, scaleModels*scaleRowsPerModel, float64(size)/1e6, elapsed.Round(time.Millisecond),
		float64(peak)/(1<<20), scaleMaxRSS>>20)
	if peak >= scaleMaxRSS {
		t.Errorf("the build's peak RSS is %.1f MiB, over the %d MiB bound", float64(peak)/(1<<20), scaleMaxRSS>>20)
	}
	models, err := filepath.Glob(filepath.Join(out, seedDate, "models", "*.json"))
	if err != nil || len(models) != scaleModels {
		t.Errorf("%d model files (%v), want %d", len(models), err, scaleModels)
	}
}

// stages lists the build's log messages (JSON lines) with the time each
// took since the one before; the last one ("wrote the snapshot") includes
// validate.Snapshot.
func stages(start time.Time, log []byte) string {
	var b strings.Builder
	prev := start
	for _, line := range bytes.Split(log, []byte("\n")) {
		var rec struct {
			Time time.Time `json:"time"`
			Msg  string    `json:"msg"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Time.IsZero() {
			continue
		}
		fmt.Fprintf(&b, "  %8v  %s\n", rec.Time.Sub(prev).Round(time.Millisecond), rec.Msg)
		prev = rec.Time
	}
	return b.String()
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
