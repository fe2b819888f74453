package leaderboard

import (
	"fmt"
	"math"
	"sort"
)

// Stability thresholds of the ML.ENERGY data toolkit (mlenergy_data,
// records/runs.py): a run is unstable when its steady state lasted under
// MinSteadySeconds, its energy per token is missing, non-finite or not
// positive, or its average batch is under MinBatchFraction of max_num_seqs.
const (
	MinSteadySeconds = 20.0
	MinBatchFraction = 0.85
)

// Exclusion is an upstream row left out of the published figures.
type Exclusion struct {
	Row    *Row
	Reason string
}

// Stable applies the stability filter to one task's rows and returns the
// stable rows in upstream order, and the excluded ones with their reasons.
// Within one model, task, GPU and GPU count, every cap at or above the
// smallest unstable cap is unstable too (the cascade).
//
// A row that is an exact duplicate of an earlier row of the task (every
// field equal: a copy, not a second measurement) is excluded too, with the
// reason DuplicateReason gives; it takes no part in the cascade, which its
// original already stands for. Rows of one configuration with different
// measurements are repeats, and stay.
func Stable(rows []Row) (stable []Row, excluded []Exclusion) {
	type group struct {
		model, task, gpu string
		n                int
	}
	reasons := make([]string, len(rows))
	smallest := map[group]int{}
	first := map[rowContent]int{} // content → index of its first row
	for i := range rows {
		r := &rows[i]
		if r.content != (rowContent{}) {
			if j, dup := first[r.content]; dup {
				reasons[i] = DuplicateReason(j)
				continue
			}
			first[r.content] = i
		}
		reasons[i] = unstableReason(r)
		if reasons[i] == "" {
			continue
		}
		g := group{r.ModelID, r.Task, r.GPU, r.NumGPUs}
		if c, ok := smallest[g]; !ok || r.MaxNumSeqs < c {
			smallest[g] = r.MaxNumSeqs
		}
	}
	kept := 0
	for i := range rows {
		r := &rows[i]
		if reasons[i] == "" {
			c, ok := smallest[group{r.ModelID, r.Task, r.GPU, r.NumGPUs}]
			if ok && r.MaxNumSeqs >= c {
				reasons[i] = fmt.Sprintf("cascade: max_num_seqs %d is at or above %d, the smallest unstable cap of this model on %d x %s",
					r.MaxNumSeqs, c, r.NumGPUs, r.GPU)
			}
		}
		if reasons[i] == "" {
			kept++
		}
	}
	// Sized once: the stable rows of a 30,000-row task file are 9 MB,
	// which growing by append would hold up to twice over.
	stable = make([]Row, 0, kept)
	for i := range rows {
		if reasons[i] == "" {
			stable = append(stable, rows[i])
		} else {
			excluded = append(excluded, Exclusion{Row: &rows[i], Reason: reasons[i]})
		}
	}
	sort.SliceStable(excluded, func(a, b int) bool { return excluded[a].Row.Index < excluded[b].Row.Index })
	return stable, excluded
}

// DuplicateReason is the exclusion reason of a row that repeats row j of
// the same task file field for field.
func DuplicateReason(j int) string {
	return fmt.Sprintf("exact duplicate of configurations[%d]", j)
}

func unstableReason(r *Row) string {
	switch e := r.EnergyPerToken; {
	case r.SteadySeconds != nil && *r.SteadySeconds < MinSteadySeconds:
		return fmt.Sprintf("steady-state duration %v s is under %v s", *r.SteadySeconds, MinSteadySeconds)
	case e == nil:
		return "energy_per_token_joules is missing"
	case math.IsNaN(*e) || math.IsInf(*e, 0):
		return fmt.Sprintf("energy_per_token_joules %v is not finite", *e)
	case *e <= 0:
		return fmt.Sprintf("energy_per_token_joules %v is not positive", *e)
	case r.AvgBatch < MinBatchFraction*float64(r.MaxNumSeqs):
		return fmt.Sprintf("avg_batch_size %v is under %v of max_num_seqs %d", r.AvgBatch, MinBatchFraction, r.MaxNumSeqs)
	}
	return ""
}
