package history

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/diff"
)

// Kinds of Reason: why a release changed a figure of the release before.
const (
	// UpstreamChanged: the upstream data changed: the task's archived
	// file holds other bytes, or the leaderboard version is another.
	UpstreamChanged = "upstream"
	// RowExcluded: the build's rules left out a row of the model on the
	// GPU that the release before kept (the stability filter, a duplicate).
	RowExcluded = "excluded"
	// RowRestored: a row of the model on the GPU that the release before
	// left out is kept.
	RowRestored = "restored"
	// NewRow: the index row is a configuration the release before did
	// not have among its stable rows.
	NewRow = "new-row"
	// NewGPU: the release before had no stable row of the model on the GPU.
	NewGPU = "new-gpu"
	// CodeChanged: the upstream files are the same bytes, and the code
	// that built the release (its generator) or the parameters of its
	// selection rules are other: a rule of ours changed.
	CodeChanged = "code"
	// Unexplained: none of the above; the two manifests and their diff say
	// nothing that explains the change.
	Unexplained = "unexplained"
)

// Kinds lists the kinds of Reason, in the order a change's reasons are given.
var Kinds = []string{UpstreamChanged, RowExcluded, RowRestored, NewRow, NewGPU, CodeChanged, Unexplained}

// Reason is one cause of a changed figure.
type Reason struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// pairDiff is what the history reads of two consecutive releases beside
// their manifests: snapshots/diff's report of the two.
type pairDiff struct {
	report *diff.Report
}

// diffPair diffs two releases held by the catalog.
func diffPair(ctx context.Context, old, new *catalog.Snapshot) (*pairDiff, error) {
	or, err := old.Release(ctx)
	if err != nil {
		return nil, err
	}
	nr, err := new.Release(ctx)
	if err != nil {
		return nil, err
	}
	r, err := diff.Diff(ctx, or, nr)
	if err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	// Kept: what the reasons and a feed's entry read, not the lists of
	// every configuration that moved.
	return &pairDiff{report: &diff.Report{Summary: r.Summary, DataChanged: r.DataChanged, Old: r.Old, New: r.New,
		Upstream: r.Upstream, Sources: r.Sources, Models: r.Models, GPUs: r.GPUs}}, nil
}

// direct is the source of a builder without caches: each release parsed
// when it is added, each pair diffed when a figure changed.
type direct struct{}

func (direct) parse(s *catalog.Snapshot, task format.Task) (*parsed, error) { return parse(s, task) }
func (direct) why(ctx context.Context, old, new *catalog.Snapshot) (*pairDiff, error) {
	return diffPair(ctx, old, new)
}

// classify says why the index row of the model on gpu in task differs
// between prev and cur, two consecutive releases, from their manifests,
// their rows and their diff.
func classify(pd *pairDiff, prev, cur *view, task format.Task, gpu string) []Reason {
	var out []Reason
	r := pd.report
	pm, cm := prev.snap.Manifest, cur.snap.Manifest

	upstream := false
	if sc := sourceChange(r, task.File()); sc != nil && (sc.Status == "added" || sc.Status == "removed" || slices.Contains(sc.Changed, "sha256")) {
		upstream = true
		out = append(out, Reason{UpstreamChanged, fmt.Sprintf("the leaderboard's %s changed (%s)", task.UpstreamPath(), versions(r))})
	} else if v := upstreamValue(r, "leaderboard version"); v != nil && v.Changed {
		upstream = true
		out = append(out, Reason{UpstreamChanged, "the leaderboard version changed (" + versions(r) + ")"})
	}

	restored := map[string]bool{}
	if prev.model != nil || cur.model != nil {
		modelID := modelIDOf(prev, cur)
		was, is := exclusions(pm, task, modelID, gpu), exclusions(cm, task, modelID, gpu)
		for _, k := range sortedKeys(is) {
			if is[k].n > was[k].n {
				out = append(out, Reason{RowExcluded, fmt.Sprintf("%s excluded: %s", k, is[k].reason)})
			}
		}
		for _, k := range sortedKeys(was) {
			if was[k].n > is[k].n {
				restored[k] = true
				out = append(out, Reason{RowRestored, fmt.Sprintf("%s restored (excluded in %s: %s)", k, prev.info.Date, was[k].reason)})
			}
		}
	}

	if n, ok := cur.index[gpu]; ok {
		switch {
		case !prev.gpus[gpu]:
			out = append(out, Reason{NewGPU, fmt.Sprintf("%s had no stable row on %s in %s", cur.model.Slug, gpu, prev.info.Date)})
		case !isStable(prev, n.id) && !restored[configKey(task, cur.stable[n.id].numGPUs, gpu, cur.stable[n.id].size)]:
			out = append(out, Reason{NewRow, fmt.Sprintf("%s is no stable row of %s", n.id, prev.info.Date)})
		}
	}

	if !upstream && sameLeaderboard(r) {
		if pg, cg := pm.Generator, cm.Generator; pg != cg {
			out = append(out, Reason{CodeChanged, fmt.Sprintf("the same upstream files, built by other code (%s, then %s)", pg, cg)})
		} else if !reflect.DeepEqual(pm.Selection, cm.Selection) {
			out = append(out, Reason{CodeChanged, "the same upstream files, with other selection parameters in the manifest"})
		}
	}
	if len(out) == 0 {
		out = append(out, Reason{Unexplained, "the manifests and the diff of the two releases show no change of the upstream files, the exclusions, the rows or the code"})
	}
	return out
}

// versions names the compiled dates and newest commits of a diff's two
// sides.
func versions(r *diff.Report) string {
	var parts []string
	for _, name := range []string{"compiled", "last commit"} {
		v := upstreamValue(r, name)
		if v == nil {
			continue
		}
		o, n := short(v.Old), short(v.New)
		if v.Changed {
			parts = append(parts, fmt.Sprintf("%s %s, then %s", name, orNone(o), orNone(n)))
		} else {
			parts = append(parts, fmt.Sprintf("%s %s", name, orNone(n)))
		}
	}
	return strings.Join(parts, "; ")
}

// short is a commit's sha256 to 7 digits, as git shows it; anything else
// as it is.
func short(s string) string {
	if len(s) == 40 {
		return s[:7]
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func upstreamValue(r *diff.Report, name string) *diff.ValueChange {
	for i := range r.Upstream {
		if r.Upstream[i].Name == name {
			return &r.Upstream[i]
		}
	}
	return nil
}

func sourceChange(r *diff.Report, name string) *diff.SourceChange {
	for i := range r.Sources {
		if r.Sources[i].Name == name {
			return &r.Sources[i]
		}
	}
	return nil
}

// sameLeaderboard reports whether every archived leaderboard file of the
// two releases is the same bytes.
func sameLeaderboard(r *diff.Report) bool {
	for _, sc := range r.Sources {
		if strings.HasPrefix(sc.Name, "leaderboard/") && (sc.Status == "added" || sc.Status == "removed" || slices.Contains(sc.Changed, "sha256")) {
			return false
		}
	}
	return true
}

func modelIDOf(prev, cur *view) string {
	if cur.model != nil {
		return cur.model.ModelID
	}
	return prev.model.ModelID
}

// excluded counts a configuration's exclusions and keeps the first reason.
type excluded struct {
	n      int
	reason string
}

// isStable reports whether the row id is among v's stable rows.
func isStable(v *view, id string) bool {
	_, ok := v.stable[id]
	return ok
}

// exclusions are a manifest's exclusions of the model's rows on gpu in
// task, by configuration ("1 x B200 at max_num_seqs 256", "1 x B200 at
// batch_size 8").
func exclusions(m *format.Manifest, task format.Task, modelID, gpu string) map[string]excluded {
	out := map[string]excluded{}
	for _, e := range m.Exclusions {
		if e.Task != task.ID || e.ModelID != modelID || e.GPU != gpu {
			continue
		}
		size := e.MaxNumSeqs
		if task.Kind.Diffusion() {
			size = e.BatchSize
		}
		k := configKey(task, e.NumGPUs, e.GPU, size)
		x := out[k]
		if x.n == 0 {
			x.reason = e.Reason
		}
		x.n++
		out[k] = x
	}
	return out
}

// configKey names a configuration of a model on a GPU in task, as an
// exclusion names it: a token task's by its max_num_seqs, a diffusion
// task's by its batch size (size).
func configKey(task format.Task, numGPUs int, gpu string, size int) string {
	field := "max_num_seqs"
	if task.Kind.Diffusion() {
		field = "batch_size"
	}
	return fmt.Sprintf("%d x %s at %s %d", numGPUs, gpu, field, size)
}
