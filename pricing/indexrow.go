package pricing

import (
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// BestWith returns the index in m.Configurations of the configuration the
// index row rule picks on gpu among those with numGPUs GPUs (every count
// when numGPUs is 0): the lowest unrounded energy per token among those
// under the latency ceiling, ties broken by leaderboard.Better; false when
// none of them is under it. rows are the upstream rows behind m's
// configurations, in order. A model file's index row on a GPU, Best[gpu],
// is BestWith(m, rows, gpu, 0), and BestWith(m, rows, gpu,
// Best[gpu].NumGPUs).
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
