package pricing

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// choiceModel is a model measured on B200 with 1 and 2 GPUs and on H100,
// where no configuration meets the latency ceiling; rows are the upstream
// rows behind its configurations, in order.
func choiceModel() (*format.Model, []*leaderboard.Row) {
	type cfg struct {
		gpu        string
		n, cap     int
		batch, jpt float64
		under      bool
	}
	cfgs := []cfg{
		{"B200", 1, 8, 8, 0.9, true},       // 0
		{"B200", 1, 64, 60, 0.3, true},     // 1: the index row
		{"B200", 1, 128, 100, 0.2, false},  // 2: lower energy, over the ceiling
		{"B200", 2, 64, 64, 0.4, true},     // 3
		{"B200", 2, 128, 120, 0.42, true},  // 4
		{"H100", 1, 16, 16, 0.8, false},    // 5
		{"H100", 2, 16, 24, 0.7, false},    // 6
		{"B200", 1, 256, 140, 0.35, true},  // 7
		{"B200", 1, 512, 140, 0.36, false}, // 8: the same batch as 7, later in file order
	}
	m := &format.Model{Slug: "m", Best: map[string]format.Config{}}
	var rows []*leaderboard.Row
	for i, c := range cfgs {
		jpt := c.jpt
		m.Configurations = append(m.Configurations, format.Config{GPU: c.gpu, NumGPUs: c.n, MaxNumSeqs: c.cap,
			UnderITLDeadline: c.under, RowID: format.RowID("t", "m", c.gpu, c.n, c.cap, 1), Repeat: 1})
		rows = append(rows, &leaderboard.Row{GPU: c.gpu, NumGPUs: c.n, MaxNumSeqs: c.cap, AvgBatch: c.batch, EnergyPerToken: &jpt, Index: i})
	}
	m.GPUs = []string{"B200", "H100"}
	if i, ok := BestWith(m, rows, "B200", 0); ok {
		m.Best["B200"] = m.Configurations[i]
	}
	return m, rows
}

func TestChoice(t *testing.T) {
	m, rows := choiceModel()
	if m.Best["B200"].MaxNumSeqs != 64 || m.Best["B200"].NumGPUs != 1 {
		t.Fatalf("index row %+v, want 1 x B200 at cap 64 (cap 128 is over the ceiling, 2 GPUs use more)", m.Best["B200"])
	}
	b := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		name   string
		gpu    string
		choice Choice
		want   int // -1: none
	}{
		{"the index row", "B200", Choice{}, 1},
		{"the index row rule among 2 GPUs", "B200", Choice{NumGPUs: 2}, 3},
		{"no GPU count measured", "B200", Choice{NumGPUs: 4}, -1},
		{"a batch, among the index row's count", "B200", Choice{Batch: b(70)}, 1},
		{"a batch over the ceiling is priced", "B200", Choice{Batch: b(101)}, 2},
		{"a tie goes to the smaller batch", "B200", Choice{Batch: b(80)}, 1},
		{"the same batch goes to the first in file order", "B200", Choice{Batch: b(150)}, 7},
		{"below every batch", "B200", Choice{Batch: b(1e-6)}, 0},
		{"a batch among 2 GPUs", "B200", Choice{NumGPUs: 2, Batch: b(100)}, 4},
		{"no index row", "H100", Choice{}, -1},
		{"no index row under the ceiling among a count", "H100", Choice{NumGPUs: 1}, -1},
		{"a batch without an index row: every count", "H100", Choice{Batch: b(23)}, 6},
		{"no such GPU", "A100", Choice{Batch: b(23)}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, ok := tc.choice.Pick(m, rows, tc.gpu)
			if !ok {
				i = -1
			}
			if diff := cmp.Diff(tc.want, i); diff != "" {
				t.Errorf("Pick(%s, %+v) (-want +got):\n%s", tc.gpu, tc.choice, diff)
			}
		})
	}
	for gpu, want := range map[string]int{"B200": 1, "H100": 0} {
		if got := BatchGPUs(m, gpu); got != want {
			t.Errorf("BatchGPUs(%s) = %d, want %d", gpu, got, want)
		}
	}
}

// TestBestDiffusion: a diffusion task's index row is the lowest energy per
// image under the batch latency ceiling, a tie going to fewer GPUs; a row
// over the ceiling is never one, and a GPU with none under it has none.
func TestBestDiffusion(t *testing.T) {
	e := func(j float64) *float64 { return &j }
	rows := []*leaderboard.DiffusionRow{
		{GPU: "B200", NumGPUs: 1, BatchSize: 1, Ulysses: 1, Ring: 1, Energy: e(3600)},
		{GPU: "B200", NumGPUs: 2, BatchSize: 1, Ulysses: 2, Ring: 1, Energy: e(3600)},
		{GPU: "B200", NumGPUs: 1, BatchSize: 8, Ulysses: 1, Ring: 1, Energy: e(1800)}, // over the ceiling
		{GPU: "H100", NumGPUs: 1, BatchSize: 1, Ulysses: 1, Ring: 1, Energy: e(7200)}, // over the ceiling
	}
	m := &format.TaskModel[format.DiffusionConfig]{Configurations: []format.DiffusionConfig{
		{GPU: "B200", NumGPUs: 1, BatchSize: 1, UnderLatencyCeiling: true, Repeat: 1},
		{GPU: "B200", NumGPUs: 2, BatchSize: 1, UnderLatencyCeiling: true, Repeat: 1},
		{GPU: "B200", NumGPUs: 1, BatchSize: 8, Repeat: 1},
		{GPU: "H100", NumGPUs: 1, BatchSize: 1, Repeat: 1},
	}}
	for _, tc := range []struct {
		gpu     string
		numGPUs int
		want    int
		ok      bool
	}{
		{"B200", 0, 0, true},
		{"B200", 2, 1, true},
		{"B200", 4, -1, false},
		{"H100", 0, -1, false},
	} {
		if got, ok := BestDiffusion(m, rows, tc.gpu, tc.numGPUs); got != tc.want || ok != tc.ok {
			t.Errorf("BestDiffusion(%s, %d) = %d, %v; want %d, %v", tc.gpu, tc.numGPUs, got, ok, tc.want, tc.ok)
		}
	}
}
