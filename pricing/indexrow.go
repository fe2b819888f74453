package pricing

import (
	"math"
	"slices"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// BestWith returns the index in m.Configurations of the configuration the
// index row rule picks on gpu among those with numGPUs GPUs (every count
// when numGPUs is 0): the lowest unrounded energy per token among those
// under the latency ceiling, ties broken by leaderboard.Better; false when
// none of them is under it. rows are the upstream rows behind m's
// configurations, in order.
//
// It is the one implementation of the rule: the builder fills a model
// file's index rows with it (Best[gpu] is BestWith(m, rows, gpu, 0)), the
// catalog checks a served model file's against it, and Choice prices
// with it.
func BestWith(m *format.Model, rows []*leaderboard.Row, gpu string, numGPUs int) (int, bool) {
	best := -1
	for i, c := range m.Configurations {
		if c.GPU != gpu || numGPUs != 0 && c.NumGPUs != numGPUs || !c.UnderITLDeadline {
			continue
		}
		if best < 0 || leaderboard.Better(rows[i], c.Repeat, rows[best], m.Configurations[best].Repeat) {
			best = i
		}
	}
	return best, best >= 0
}

// BestDiffusion is BestWith for a diffusion task (images, videos): the
// index in m.Configurations of the configuration the index row rule picks
// on gpu among those with numGPUs GPUs (every count when 0), the lowest
// unrounded energy per image or video among those under the batch latency
// ceiling, ties broken by leaderboard.BetterDiffusion; false when none of
// them is under it. rows are the upstream rows behind m's configurations,
// in order. The catalog checks a served task model file's index rows
// against it and prices with it.
func BestDiffusion(m *format.TaskModel[format.DiffusionConfig], rows []*leaderboard.DiffusionRow, gpu string, numGPUs int) (int, bool) {
	best := -1
	for i, c := range m.Configurations {
		if c.GPU != gpu || numGPUs != 0 && c.NumGPUs != numGPUs || !c.UnderLatencyCeiling {
			continue
		}
		if best < 0 || leaderboard.BetterDiffusion(rows[i], c.Repeat, rows[best], m.Configurations[best].Repeat) {
			best = i
		}
	}
	return best, best >= 0
}

// NearestBatch returns the index in m.Configurations of the configuration
// on gpu with numGPUs GPUs (every count when 0) whose unrounded average
// running batch is nearest to batch, whether or not it meets the latency
// ceiling: ties go to the smaller batch, then to the first in file order
// (the lower cap, the lower repeat). False when gpu has no such
// configuration. rows are the upstream rows behind m's configurations.
func NearestBatch(m *format.Model, rows []*leaderboard.Row, gpu string, numGPUs int, batch float64) (int, bool) {
	best := -1
	var bestD, bestB float64
	for i, c := range m.Configurations {
		if c.GPU != gpu || numGPUs != 0 && c.NumGPUs != numGPUs {
			continue
		}
		b := rows[i].AvgBatch
		d := math.Abs(b - batch)
		if best < 0 || d < bestD || d == bestD && b < bestB {
			best, bestD, bestB = i, d, b
		}
	}
	return best, best >= 0
}

// Choice says which of a model's configurations on a GPU is priced, as
// the command line's carbon, the API's /carbon and the MCP tool
// price_carbon price them. The zero Choice is the GPU's index row.
type Choice struct {
	// NumGPUs, when not 0, keeps the configurations with that many GPUs:
	// the index row rule among them, or with Batch the nearest batch among
	// them.
	NumGPUs int
	// Batch, when set, prices the configuration whose average running
	// batch is nearest to it (NearestBatch) instead of the index row,
	// among the configurations with NumGPUs GPUs, or else with the GPU's
	// index row's count (BatchGPUs).
	Batch *float64
}

// GPUs is the GPU count c prices on gpu: NumGPUs when set; with Batch
// alone, BatchGPUs; 0 (the index row) otherwise.
func (c Choice) GPUs(m *format.Model, gpu string) int {
	switch {
	case c.NumGPUs != 0:
		return c.NumGPUs
	case c.Batch != nil:
		return BatchGPUs(m, gpu)
	}
	return 0
}

// BatchGPUs is the GPU count a running batch is priced with on gpu when
// no count is asked for: the GPU's index row's, or 0 (every count) on a
// GPU without an index row.
func BatchGPUs(m *format.Model, gpu string) int {
	if b, ok := m.Best[gpu]; ok {
		return b.NumGPUs
	}
	return 0
}

// Pick returns the index in m.Configurations of the configuration c
// prices on gpu: the index row (the model file's Best[gpu]); with NumGPUs
// alone the index row rule among the configurations with that many GPUs
// (BestWith); with Batch the configuration whose running batch is nearest
// among those with c.GPUs(m, gpu) GPUs (NearestBatch). False when gpu has
// none. rows are the upstream rows behind m's configurations, in order.
func (c Choice) Pick(m *format.Model, rows []*leaderboard.Row, gpu string) (int, bool) {
	n := c.GPUs(m, gpu)
	switch {
	case c.Batch != nil:
		return NearestBatch(m, rows, gpu, n, *c.Batch)
	case n != 0:
		return BestWith(m, rows, gpu, n)
	}
	b, ok := m.Best[gpu]
	if !ok {
		return -1, false
	}
	i := slices.IndexFunc(m.Configurations, func(c format.Config) bool { return c.RowID == b.RowID })
	return i, i >= 0
}
