package build

import (
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/transform"
)

// logNewGPUs logs each GPU of the leaderboard's stable rows, of every
// task, that the rules were not reviewed with (transform.ReviewedGPUs): it
// is published as data, like the others, and a maintainer should know.
func logNewGPUs(log *slog.Logger, lb *transform.Leaderboard) {
	count := map[string]int{}
	for _, rows := range lb.Tasks {
		for g, n := range transform.NewGPUs(rows) {
			count[g] += n
		}
	}
	for _, g := range slices.Sorted(maps.Keys(count)) {
		log.Warn("a new GPU, published as data", "gpu", g, "stable_rows", count[g], "reviewed", strings.Join(transform.ReviewedGPUs(), ", "))
	}
}
