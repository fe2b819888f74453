package diff

// The tasks of a snapshot other than the primary one: which a snapshot
// publishes (the manifest's selection.tasks) and the leaderboard lists
// (its archived index.json's tasks), and the index rows of each task's
// files (tasks/TASK/index.json).

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sync"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// TaskChange compares the tasks of two snapshots.
type TaskChange struct {
	// Old and New are the tasks each snapshot publishes (its manifest's
	// selection.tasks); Added and Removed the difference.
	Old     []string `json:"old"`
	New     []string `json:"new"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// UpstreamAdded and UpstreamRemoved are the tasks the leaderboard's
	// archived index.json lists in one snapshot and not the other, whether
	// the index publishes them or not.
	UpstreamAdded   []string `json:"upstream_added,omitempty"`
	UpstreamRemoved []string `json:"upstream_removed,omitempty"`
}

// TaskIndexRowChange is a change to one model's index row on one GPU in a
// task with files of its own, as IndexRowChange is in Text Conversation.
type TaskIndexRowChange struct {
	Task string `json:"task"`
	Slug string `json:"slug"`
	GPU  string `json:"gpu"`
	Kind string `json:"kind"`
	// Unit is the task's unit, of Old's and New's energy.
	Unit string        `json:"unit"`
	Old  *TaskRowState `json:"old"`
	New  *TaskRowState `json:"new"`
	// RelativeChangePercent is (new / old - 1) x 100 of the unrounded
	// energy per unit, to 2 decimals; absent when a side has no row.
	RelativeChangePercent *format.Float `json:"relative_change_percent,omitempty"`

	rel float64
}

// TaskRowState is a task's index row as published: its row id and energy
// per unit (the value of the task's energy key).
type TaskRowState struct {
	RowID  string       `json:"row_id"`
	Energy format.Float `json:"energy"`
}

// taskChange compares the tasks the two manifests publish and the two
// archived index.json files list.
func taskChange(old, new *store.Release) TaskChange {
	o, n := old.Manifest.Selection.Tasks, new.Manifest.Selection.Tasks
	c := TaskChange{Old: nonNil(o), New: nonNil(n), Added: minus(n, o), Removed: minus(o, n)}
	ou, oerr := upstreamTasks(old)
	nu, nerr := upstreamTasks(new)
	if oerr == nil && nerr == nil {
		c.UpstreamAdded, c.UpstreamRemoved = minus(nu, ou), minus(ou, nu)
		if len(c.UpstreamAdded) == 0 {
			c.UpstreamAdded = nil
		}
		if len(c.UpstreamRemoved) == 0 {
			c.UpstreamRemoved = nil
		}
	}
	return c
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// minus is a's entries not in b, in a's order.
func minus(a, b []string) []string {
	out := []string{}
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// upstreamTasks are the tasks the archived leaderboard index.json lists.
func upstreamTasks(s *store.Release) ([]string, error) {
	p := format.SourcePath(format.LeaderboardIndex)
	if _, ok := s.Listed(p); !ok {
		return nil, errNotArchived
	}
	b, err := s.ReadListed(p)
	if err != nil {
		return nil, err
	}
	idx, err := leaderboard.ParseIndex(b)
	if err != nil {
		return nil, err
	}
	return idx.Tasks, nil
}

// taskIndex is what diff reads of a task's index: each model's index rows,
// as the energy key's value and the row id.
type taskIndex struct {
	Task struct {
		Unit      string `json:"unit"`
		EnergyKey string `json:"energy_key"`
	} `json:"task"`
	Models []struct {
		Slug string                                `json:"slug"`
		Best map[string]map[string]json.RawMessage `json:"best"`
	} `json:"models"`
}

// taskRows reads a task's index rows, by slug and GPU (nil when the
// snapshot has no such file).
func taskRows(s *store.Release, t format.Task) (unit string, rows map[string]map[string]TaskRowState, err error) {
	p := format.TaskIndexPath(t.ID)
	if _, ok := s.Listed(p); !ok {
		return "", nil, nil
	}
	b, err := s.ReadListed(p)
	if err != nil {
		return "", nil, err
	}
	var idx taskIndex
	if err := json.Unmarshal(b, &idx); err != nil {
		return "", nil, fmt.Errorf("%s: %v", p, err)
	}
	rows = map[string]map[string]TaskRowState{}
	for _, m := range idx.Models {
		rows[m.Slug] = map[string]TaskRowState{}
		for gpu, c := range m.Best {
			var st TaskRowState
			if json.Unmarshal(c["row_id"], &st.RowID) != nil || json.Unmarshal(c[idx.Task.EnergyKey], &st.Energy) != nil {
				return "", nil, fmt.Errorf("%s: %s %s: no row_id or %s", p, m.Slug, gpu, idx.Task.EnergyKey)
			}
			rows[m.Slug][gpu] = st
		}
	}
	return idx.Task.Unit, rows, nil
}

// unrounded returns the unrounded energy per unit behind each published
// row of a task, by row id, from the archived task file, read on first
// use; empty when it cannot be read (the published figures are compared
// then).
func unrounded(s *store.Release, t format.Task) func() map[string]float64 {
	return sync.OnceValue(func() map[string]float64 {
		out := map[string]float64{}
		data, err := s.ReadListed(t.ArchivedPath())
		if err != nil {
			return out
		}
		if t.Kind.Diffusion() {
			if parsed, err := leaderboard.ParseDiffusion(t.ID, data); err == nil {
				kept, _ := leaderboard.StableDiffusion(parsed)
				ids, _ := leaderboard.DiffusionRowIDs(t.ID, kept)
				for id, r := range ids {
					out[id] = r.Wh()
				}
			}
		} else if ids, err := leaderboard.TaskRows(t.ID, data); err == nil {
			for id, r := range ids {
				out[id] = r.WhPerMillion()
			}
		}
		return out
	})
}

// taskIndexRows compares the index rows of every task with files of its
// own in either snapshot.
func (r *Report) taskIndexRows(old, new *store.Release) {
	for _, t := range format.Tasks() {
		if !t.HasFiles() {
			continue
		}
		_, orows, oerr := taskRows(old, t)
		unit, nrows, nerr := taskRows(new, t)
		oun, nun := unrounded(old, t), unrounded(new, t)
		if oerr != nil || nerr != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %v; its index rows not compared", t.ID, errors2(oerr, nerr)))
			continue
		}
		if orows == nil || nrows == nil {
			continue // a task added or removed: TaskChange says so
		}
		if unit == "" {
			unit = t.Unit
		}
		for _, slug := range slices.Sorted(maps.Keys(union(orows, nrows))) {
			om, nm := orows[slug], nrows[slug]
			for _, gpu := range slices.Sorted(maps.Keys(union(om, nm))) {
				oc, hasOld := om[gpu]
				nc, hasNew := nm[gpu]
				c := TaskIndexRowChange{Task: t.ID, Slug: slug, GPU: gpu, Unit: unit}
				if hasOld {
					c.Old = &oc
				}
				if hasNew {
					c.New = &nc
				}
				switch {
				case !hasNew:
					c.Kind = RowRemoved
				case !hasOld:
					c.Kind = RowAdded
				case oc == nc:
					continue
				default:
					ow, ok1 := oun()[oc.RowID]
					nw, ok2 := nun()[nc.RowID]
					if !ok1 || !ok2 {
						ow, nw = float64(oc.Energy), float64(nc.Energy)
					}
					switch {
					case oc.RowID != nc.RowID:
						c.Kind = RowChanged
					case ow != nw && oc.Energy != nc.Energy:
						c.Kind = RowMoved
					case oc.Energy != nc.Energy:
						r.RoundingOnly++
						continue
					default:
						continue
					}
					c.rel = nw/ow - 1
					p := percent(c.rel)
					c.RelativeChangePercent = &p
				}
				r.TaskIndexRows = append(r.TaskIndexRows, c)
			}
		}
	}
	slices.SortStableFunc(r.TaskIndexRows, func(a, b TaskIndexRowChange) int {
		ha, hb := a.RelativeChangePercent != nil, b.RelativeChangePercent != nil
		switch {
		case a.Task != b.Task:
			return taskOrder(a.Task) - taskOrder(b.Task)
		case ha != hb:
			if ha {
				return -1
			}
			return 1
		case ha && math.Abs(a.rel) != math.Abs(b.rel):
			if math.Abs(a.rel) > math.Abs(b.rel) {
				return -1
			}
			return 1
		case a.Slug != b.Slug:
			return naturalCompare(a.Slug, b.Slug)
		}
		return naturalCompare(a.GPU, b.GPU)
	})
}

func taskOrder(id string) int {
	return slices.IndexFunc(format.Tasks(), func(t format.Task) bool { return t.ID == id })
}

func union[V any](a, b map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func errors2(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
