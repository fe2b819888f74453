package validate

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStabilityFilter runs this package's filter on the synthetic task
// files and checks the excluded rows and reasons, cascade included.
func TestStabilityFilter(t *testing.T) {
	type ex struct {
		Row    int
		Reason string // prefix
	}
	tests := []struct {
		task string
		want []ex
	}{
		{"lm-arena-chat", []ex{
			{3, "avg_batch_size 40 is under 0.85 x max_num_seqs 64"},
			{4, "cascade: max_num_seqs 128 is at or above 64"},
			{5, "cascade: max_num_seqs 256 is at or above 64"},
			{7, "steady_state_duration_s 12 is under 20"},
			{8, "cascade: max_num_seqs 32 is at or above 16"},
			{9, "energy_per_token_joules is missing"},
			{10, "cascade: max_num_seqs 16 is at or above 8"},
			{14, "energy_per_token_joules 0 is not a finite positive number"},
		}},
		{"gpqa", []ex{
			{1, "avg_batch_size 12 is under 0.85 x max_num_seqs 16"},
			{2, "cascade: max_num_seqs 32 is at or above 16"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.task, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(vtStabilityDir(t), "tasks", tt.task+".json"))
			if err != nil {
				t.Fatal(err)
			}
			ps := &problems{file: tt.task}
			rows, ok := parseTask(ps, tt.task, b)
			if !ok {
				t.Fatal(ps.list)
			}
			_, excluded := filterStable(rows)
			var got []ex
			for i, e := range excluded {
				got = append(got, ex{e.key.Row, e.reason})
				if i < len(tt.want) && strings.HasPrefix(e.reason, tt.want[i].Reason) {
					got[i].Reason = tt.want[i].Reason
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("excluded (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStabilityModels checks the recomputed model files of the synthetic
// leaderboard where the rules bite: repeats, ties, the deadline, exact
// binary halves, output length derived from energy per request.
func TestStabilityModels(t *testing.T) {
	models, probs := vtRecompute(t, vtStabilityDir(t))
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	bySlug := map[string]*wantModel{}
	for _, m := range models {
		bySlug[m.slug] = m
	}
	field := func(slug, rowID, key string) string {
		m := bySlug[slug]
		if m == nil {
			t.Fatalf("no model %s", slug)
		}
		for _, c := range m.configs {
			if c.rowID() == rowID {
				if v := c.node.get(key); v != nil {
					return v.text
				}
				t.Fatalf("%s has no %s", rowID, key)
			}
		}
		t.Fatalf("%s has no configuration %s", slug, rowID)
		return ""
	}
	var rowIDs []string
	for _, c := range bySlug["test-lm-7b-chat"].configs {
		rowIDs = append(rowIDs, c.rowID())
	}
	wantIDs := []string{
		"test-lm-7b-chat/B200/1/8",
		"test-lm-7b-chat/H100/1/8", "test-lm-7b-chat/H100/1/16", "test-lm-7b-chat/H100/1/16/r2", "test-lm-7b-chat/H100/1/32",
		"test-lm-7b-chat/H100/4/8",
	}
	if diff := cmp.Diff(wantIDs, rowIDs); diff != "" {
		t.Errorf("row ids (-want +got):\n%s", diff)
	}
	best := map[string]string{}
	for _, m := range models {
		for _, c := range m.best {
			best[m.slug+" "+c.gpu] = c.rowID()
		}
	}
	wantBest := map[string]string{
		"test-lm-7b-chat B200": "test-lm-7b-chat/B200/1/8",
		"test-lm-7b-chat H100": "test-lm-7b-chat/H100/1/32", // 4 x H100 uses less energy but is over 500 ms
		"other-lm-1-5b B200":   "other-lm-1-5b/B200/1/16",   // median ITL exactly 500 ms is under the deadline
	}
	if diff := cmp.Diff(wantBest, best); diff != "" {
		t.Errorf("best (-want +got):\n%s", diff)
	}
	checks := []struct{ slug, rowID, key, want string }{
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/1/8", "avg_requests_in_flight", "7.2"}, // 7.25, half to even
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/1/8", "gpu_power_watts_total", "860"},  // 860.5
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/1/16", "gpu_power_watts_total", "862"}, // 861.5
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/1/8", "joules_per_output_token", "0.5123457"},
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/1/8", "wh_per_million_output_tokens", "142.32"},
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/1/16/r2", "repeat", "2"},
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/4/8", "under_itl_deadline", "false"},
		{"test-lm-7b-chat", "test-lm-7b-chat/H100/4/8", "median_itl_ms", "612.5"},
		{"test-lm-7b-chat", "test-lm-7b-chat/B200/1/8", "avg_requests_in_flight", "8.0"},
		{"other-lm-1-5b", "other-lm-1-5b/B200/1/8", "avg_output_tokens", "333"}, // 41.625 / 0.125
		{"other-lm-1-5b", "other-lm-1-5b/B200/1/16", "under_itl_deadline", "true"},
		{"other-lm-1-5b", "other-lm-1-5b/B200/1/8", "precision", "FP8"},
	}
	for _, c := range checks {
		if got := field(c.slug, c.rowID, c.key); got != c.want {
			t.Errorf("%s %s: %s is %s, want %s", c.slug, c.rowID, c.key, got, c.want)
		}
	}
	if got := bySlug["test-lm-7b-chat"].tree.get("source").get("configurations").text; !strings.HasPrefix(got, "8 stable configurations:") {
		t.Errorf("source.configurations is %q; want the 8 stable rows counted", got)
	}
}

// TestRounding checks the rounding against values whose exact binary
// expansion decides the result.
func TestRounding(t *testing.T) {
	tests := []struct {
		x    float64
		d    int
		want string
	}{
		{0.125, 2, "0.12"}, // exact half: to even
		{0.375, 2, "0.38"}, // exact half: to even
		{2.675, 2, "2.67"}, // 2.67499999... in binary
		{1.005, 2, "1.0"},  // 1.00499999...: and ".0" when integral
		{8, 1, "8.0"},      // integral
		{86.84236510473089, 2, "86.84"},
		{0.31263251437703116, 7, "0.3126325"},
		{100.0, 2, "100.0"},
		{0.45, 1, "0.5"},       // 0.45000000000000001110...: above the half
		{0.35, 1, "0.3"},       // 0.34999999999999997779...: below it
		{0.00000005, 7, "0.0"}, // 4.9999999999999997737e-08: below it
	}
	// Other precisions of one value, a negative half, and the signed zero.
	tests = append(tests, []struct {
		x    float64
		d    int
		want string
	}{{0.125, 1, "0.1"}, {0.125, 3, "0.125"}, {-0.125, 2, "-0.12"}, {math.Copysign(0, -1), 1, "-0.0"}, {0, 1, "0.0"}}...)
	for _, tt := range tests {
		if got := roundedText(tt.x, tt.d); got != tt.want {
			t.Errorf("roundedText(%v, %d) = %s, want %s", tt.x, tt.d, got, tt.want)
		}
	}
	ints := []struct {
		x    float64
		want string
	}{{860.5, "860"}, {861.5, "862"}, {0.5, "0"}, {1.5, "2"}, {645.9999, "646"}}
	for _, tt := range ints {
		if got := roundedInt(tt.x); got != tt.want {
			t.Errorf("roundedInt(%v) = %s, want %s", tt.x, got, tt.want)
		}
	}
}

// TestSourceRowProblems: an upstream row that lacks a field a rule needs,
// or has one of the wrong type, is named by row and field.
func TestSourceRowProblems(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(vtStabilityDir(t), "tasks", "lm-arena-chat.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	s = strings.Replace(s, `"avg_power_watts": 860.5,`, ``, 1)
	s = strings.Replace(s, `"num_gpus": 1,`, `"num_gpus": "1",`, 1)
	s = strings.Replace(s, `"gpu_model": "B200",`, `"gpu_model": "",`, 1)
	ps := &problems{file: vtChat}
	rows, ok := parseTask(ps, "lm-arena-chat", []byte(s))
	if ok {
		t.Fatal("parseTask accepted bad rows")
	}
	want := []vtAt{
		{vtChat, "configurations[0] (test-org/Test-LM-7B)", "num_gpus"},
		{vtChat, "configurations[0] (test-org/Test-LM-7B)", "avg_power_watts"},
		{vtChat, "configurations[6] (test-org/Test-LM-7B)", "gpu_model"},
	}
	if diff := cmp.Diff(want, vtPositions(ps.list)); diff != "" {
		t.Errorf("problems (-want +got):\n%s\n%v", diff, ps.list)
	}
	if len(rows) != 14 {
		t.Errorf("%d good rows, want 14", len(rows))
	}
}
