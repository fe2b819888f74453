package validate

import (
	"fmt"
	"sort"
)

// The stability rule of the ML.ENERGY data toolkit, as the published files
// apply it. A run is unstable when its steady state (where upstream reports
// one) lasted under minSteadySeconds, when its energy per token is missing,
// not finite or not positive, or when its average batch is under
// minBatchFraction of its max_num_seqs. Within one model, task, GPU and GPU
// count, every cap at or above the smallest unstable cap is unstable too.
// A row whose every field equals an earlier row's of the same task is a
// copy: it is left out too.
const (
	minSteadySeconds = 20.0
	minBatchFraction = 0.85
)

// unstable returns why a run on its own is unstable, or "".
func unstable(r *lbRow) string {
	if r.steadySeconds != nil && *r.steadySeconds < minSteadySeconds {
		return fmt.Sprintf("steady_state_duration_s %s is under %v", rawText(*r.steadySeconds), minSteadySeconds)
	}
	if r.energy == nil {
		return "energy_per_token_joules is missing"
	}
	if e := *r.energy; !finite(e) || e <= 0 {
		return fmt.Sprintf("energy_per_token_joules %s is not a finite positive number", rawText(e))
	}
	if r.avgBatch < minBatchFraction*float64(r.maxNumSeqs) {
		return fmt.Sprintf("avg_batch_size %s is under %v x max_num_seqs %d", rawText(r.avgBatch), minBatchFraction, r.maxNumSeqs)
	}
	return ""
}

// excludedRow is a row the filter leaves out: as the manifest's exclusions
// list it (key, without a reason), as problems name it, and why.
type excludedRow struct {
	key           ManifestExclusion
	where, reason string
}

// filterDiffusion splits a diffusion task's rows (in upstream order) into
// the published ones and those left out: an exact duplicate of an earlier
// row, or a row dExcluded leaves out.
func filterDiffusion(rows []*dRow) (kept []*dRow, excluded []excludedRow) {
	seen := map[[32]byte]int{}
	for _, r := range rows {
		reason := dExcluded(r)
		if j, dup := seen[r.content]; dup {
			reason = fmt.Sprintf("exact duplicate of configurations[%d]", j)
		} else {
			seen[r.content] = r.index
		}
		if reason == "" {
			kept = append(kept, r)
		} else {
			k := ManifestExclusion{Task: r.task, Row: r.index, ModelID: r.modelID, GPU: r.gpu, NumGPUs: r.numGPUs, BatchSize: r.batch}
			excluded = append(excluded, excludedRow{k, r.where(), reason})
		}
	}
	return kept, excluded
}

// filterStable splits one task's rows (in upstream order) into the stable
// ones, in upstream order, and the excluded ones, by row index.
func filterStable(rows []*lbRow) (stable []*lbRow, excluded []excludedRow) {
	type group struct {
		model, task, gpu string
		numGPUs          int
	}
	smallest := map[group]int{}
	own := make([]string, len(rows))
	seen := map[[32]byte]int{} // content → index of the first row with it
	for i, r := range rows {
		if j, dup := seen[r.content]; dup {
			// A copy of an earlier row, not a second measurement: left
			// out, and no part of the cascade (its original is).
			own[i] = fmt.Sprintf("exact duplicate of configurations[%d]", rows[j].index)
			continue
		}
		seen[r.content] = i
		own[i] = unstable(r)
		if own[i] == "" {
			continue
		}
		g := group{r.modelID, r.task, r.gpu, r.numGPUs}
		if c, seen := smallest[g]; !seen || r.maxNumSeqs < c {
			smallest[g] = r.maxNumSeqs
		}
	}
	for i, r := range rows {
		reason := own[i]
		if reason == "" {
			if c, seen := smallest[group{r.modelID, r.task, r.gpu, r.numGPUs}]; seen && r.maxNumSeqs >= c {
				reason = fmt.Sprintf("cascade: max_num_seqs %d is at or above %d, the smallest unstable cap of %s on %d x %s", r.maxNumSeqs, c, r.modelID, r.numGPUs, r.gpu)
			}
		}
		if reason == "" {
			stable = append(stable, r)
		} else {
			k := ManifestExclusion{Task: r.task, Row: r.index, ModelID: r.modelID, GPU: r.gpu, NumGPUs: r.numGPUs, MaxNumSeqs: r.maxNumSeqs}
			excluded = append(excluded, excludedRow{k, r.where(), reason})
		}
	}
	sort.SliceStable(excluded, func(a, b int) bool { return excluded[a].key.Row < excluded[b].key.Row })
	return stable, excluded
}
