package snapshots

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

// GPUChange compares the GPUs of two snapshots' model files.
type GPUChange struct {
	Old     []string `json:"old"`
	New     []string `json:"new"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// gpuChange compares the GPUs of old's and new's model files.
func gpuChange(old, new *Snapshot) GPUChange {
	c := GPUChange{Old: old.GPUs(), New: new.GPUs(), Added: []string{}, Removed: []string{}}
	for _, g := range c.New {
		if !slices.Contains(c.Old, g) {
			c.Added = append(c.Added, g)
		}
	}
	for _, g := range c.Old {
		if !slices.Contains(c.New, g) {
			c.Removed = append(c.Removed, g)
		}
	}
	return c
}

// GPUs returns the GPUs of the snapshot's model files (their gpus),
// sorted.
func (s *Snapshot) GPUs() []string {
	return slices.Sorted(maps.Keys(s.gpus))
}
