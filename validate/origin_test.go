package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/leadgreen/greentokens/internal/sample"
)

// originMap is how recomputeConfig worked out a configuration's provenance
// before it was made lazily (dd7561e), every field at once: the reference
// for TestOriginAsBefore.
func originMap(r *lbRow) map[string]string {
	e := *r.energy
	wh := e * 1e6 / 3600
	tokensFrom := ""
	if r.outputLen != nil {
		tokensFrom = "avg_output_len " + rawText(*r.outputLen)
	} else {
		tokensFrom = fmt.Sprintf("energy_per_request_joules %s / energy_per_token_joules %s", rawText(*r.energyRequest), rawText(e))
	}
	under := r.medianITL <= itlDeadlineMS
	cmp := "<="
	if !under {
		cmp = ">"
	}
	order := "sorted by gpu, num_gpus, max_num_seqs, then upstream order"
	return map[string]string{
		"gpu":                          "gpu_model " + strconv.Quote(r.gpu),
		"num_gpus":                     "num_gpus " + strconv.Itoa(r.numGPUs),
		"tensor_parallel":              "tensor_parallel " + strconv.Itoa(r.tp),
		"data_parallel":                "data_parallel " + strconv.Itoa(r.dp),
		"expert_parallel":              "expert_parallel " + strconv.Itoa(r.ep),
		"precision":                    "weight_precision " + strconv.Quote(r.precision),
		"max_num_seqs":                 "max_num_seqs " + strconv.Itoa(r.maxNumSeqs),
		"avg_requests_in_flight":       "avg_batch_size " + rawText(r.avgBatch),
		"wh_per_million_output_tokens": "energy_per_token_joules " + rawText(e) + " x 1e6 / 3600 = " + rawText(wh),
		"joules_per_output_token":      "energy_per_token_joules " + rawText(e),
		"median_itl_ms":                "median_itl_ms " + rawText(r.medianITL),
		"p90_itl_ms":                   "p90_itl_ms " + rawText(r.p90),
		"p99_itl_ms":                   "p99_itl_ms " + rawText(r.p99),
		"tokens_per_second":            "output_throughput_tokens_per_sec " + rawText(r.throughput),
		"gpu_power_watts_total":        "avg_power_watts " + rawText(r.power),
		"avg_output_tokens":            tokensFrom,
		"under_itl_deadline":           fmt.Sprintf("median_itl_ms %s %s %d", rawText(r.medianITL), cmp, itlDeadlineMS),
		"avg_running_batch":            "avg_batch_size " + rawText(r.avgBatch),
		"p95_itl_ms":                   "p95_itl_ms " + rawText(r.p95),
		"row_id":                       order,
		"repeat":                       order,
	}
}

// TestOriginAsBefore: origin gives, for every published field of every
// recomputable row (energy per request, then avg_output_len, for the output
// tokens), the text the map built at recomputation gave, and nothing for any
// other key; on every leaderboard version the tests read (sample.Versions:
// the seeds' in make test, the eight of ../shared, the oldest among them,
// in make scale).
func TestOriginAsBefore(t *testing.T) {
	rows := 0
	dirs, _ := sample.Versions(t)
	for _, dir := range dirs {
		v := filepath.Base(dir)
		data, err := os.ReadFile(filepath.Join(dir, "tasks", taskChat+".json"))
		if err != nil {
			t.Fatal(err)
		}
		parsed, _ := parseTask(&problems{}, taskChat, data)
		for _, r := range parsed {
			if r.energy == nil || r.outputLen == nil && r.energyRequest == nil {
				continue
			}
			c, ok := recomputeConfig(&problems{}, "slug", r, 1)
			if !ok {
				continue
			}
			rows++
			want := originMap(r)
			for _, key := range append(append([]string(nil), c.node.keys...), "nickname", "") {
				if got := c.origin(key); got != want[key] {
					t.Errorf("%s %s: origin(%q) = %q, want %q", v, r.where(), key, got, want[key])
				}
			}
			if len(c.node.keys) != len(want) {
				t.Errorf("%d published fields, %d with an origin", len(c.node.keys), len(want))
			}
		}
	}
	if rows < 50 {
		t.Errorf("%d rows checked", rows)
	}
}

// BenchmarkProvenance: what a model file whose bytes differ costs in
// provenance texts, per configuration (every field is asked).
func BenchmarkProvenance(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(vtSeed, "tasks", taskChat+".json"))
	if err != nil {
		b.Fatal(err)
	}
	parsed, _ := parseTask(&problems{}, taskChat, data)
	var c *wantConfig
	for _, r := range parsed {
		if r.energy != nil {
			if c, _ = recomputeConfig(&problems{}, "slug", r, 1); c != nil {
				break
			}
		}
	}
	d := &modelDiff{chatPath: "sources/leaderboard/tasks/lm-arena-chat.json"}
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range c.node.keys {
			_ = d.provenance(c, k)
		}
	}
}
