// Package diff says, for a maintainer, what changed from one release of
// the index to another, and why: the upstream versions and archived
// sources, the models added and removed, the index rows and
// configurations that moved (compared on the unrounded upstream values
// behind them, so that a change of rounding alone is no change), the GPUs
// and the grid areas. The build's removal guard compares a new snapshot
// with the latest earlier one through it (snapshots/build), and the
// command prints it (greentokens diff).
package diff

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// Report says, for a maintainer, what changed from one snapshot to
// another. Every list is sorted, so the report and its JSON are
// deterministic.
//
// Figures are compared on the unrounded upstream values behind them (the
// archived task rows): a published figure that changed while its upstream
// value did not (a change in rounding only) is not a change; it is counted
// in RoundingOnly. A configuration whose upstream value moved by less than
// the published rounding is not a change either, since nothing published
// moved.
type Report struct {
	// Summary is one line: "18 models, 3 index rows changed, largest
	// -12.4% (qwen-3-32b H100)", or "18 models, no data change".
	Summary string `json:"summary"`
	// DataChanged is false when no model, index row, configuration or
	// grid area was added, removed or changed.
	DataChanged bool         `json:"data_changed"`
	Old         SnapshotInfo `json:"old"`
	New         SnapshotInfo `json:"new"`
	// Upstream compares what the manifests and files say of the upstream
	// data: the leaderboard version, compiled date and newest commit, and
	// Ember's release and reference year.
	Upstream []ValueChange `json:"upstream"`
	// Sources compares the archived upstream files, by name.
	Sources []SourceChange `json:"sources"`
	Models  ModelsChange   `json:"models"`
	// GPUs compares the GPUs of the model files: a GPU added is one the
	// earlier snapshot did not have (new upstream hardware).
	GPUs GPUChange `json:"gpus"`
	// IndexRows are the models' index rows (best[GPU]) that changed row,
	// whose Wh/M moved, or that appeared or went, largest relative change
	// first.
	IndexRows []IndexRowChange `json:"index_rows"`
	// Configurations lists, per model in both snapshots, the configurations
	// added, removed or changed, and model fields that changed.
	Configurations []ModelChange `json:"configurations"`
	Grid           GridChange    `json:"grid"`
	// Tasks compares the tasks the snapshots publish and the leaderboard
	// lists; TaskIndexRows the index rows of each task with files of its
	// own (tasks/TASK/index.json), by task, largest relative change first.
	Tasks         TaskChange           `json:"tasks"`
	TaskIndexRows []TaskIndexRowChange `json:"task_index_rows"`
	// RoundingOnly counts published figures that differ while the upstream
	// value behind them is the same; they are not reported as changes.
	RoundingOnly int `json:"rounding_only"`
	// Notes say where the comparison fell back to the published figures.
	Notes []string `json:"notes,omitempty"`
	// Problems are the published figures that are no rounding of the
	// upstream value behind them (figures.go): a snapshot that has one
	// fails its checks, and the rest of the report does not hold.
	Problems []Problem `json:"problems,omitempty"`
}

// Err returns nil when neither snapshot has a figure that is no rounding
// of its upstream value, else an error wrapping failure.ErrValidation
// that names the first few.
func (r *Report) Err() error {
	if len(r.Problems) == 0 {
		return nil
	}
	const named = 5
	var lines []string
	for _, p := range r.Problems[:min(named, len(r.Problems))] {
		lines = append(lines, "  "+p.String())
	}
	if n := len(r.Problems); n > named {
		lines = append(lines, fmt.Sprintf("  ... and %d more", n-named))
	}
	return fmt.Errorf("%w: %s not the rounding of the upstream value behind %s:\n%s",
		failure.ErrValidation, plural.Count(len(r.Problems), "published figure"), pronoun(len(r.Problems)), strings.Join(lines, "\n"))
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// SnapshotInfo names one side of a diff.
type SnapshotInfo struct {
	Dir       string `json:"dir"`
	Date      string `json:"date"`
	Retrieved string `json:"retrieved"`
	Models    int    `json:"models"`
}

// ValueChange is one named value on both sides; "" where a side has none.
type ValueChange struct {
	Name    string `json:"name"`
	Old     string `json:"old"`
	New     string `json:"new"`
	Changed bool   `json:"changed"`
}

// SourceChange compares one archived upstream file.
type SourceChange struct {
	Name string `json:"name"`
	// Status is "unchanged", "changed", "added" or "removed".
	Status string       `json:"status"`
	Old    *SourceState `json:"old"`
	New    *SourceState `json:"new"`
	// Changed lists the fields that differ: "sha256", "size", "url",
	// "retrieved".
	Changed []string `json:"changed,omitempty"`
}

// SourceState is an archived file: the bytes as published upstream, which
// are what a snapshot's sources/ holds.
type SourceState struct {
	URL       string `json:"url"`
	Retrieved string `json:"retrieved"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
}

// ModelsChange counts the models and names those added and removed.
type ModelsChange struct {
	Old     int        `json:"old"`
	New     int        `json:"new"`
	Added   []ModelRef `json:"added"`
	Removed []ModelRef `json:"removed"`
}

// ModelRef names a model.
type ModelRef struct {
	Slug    string `json:"slug"`
	ModelID string `json:"model_id"`
	Name    string `json:"name"`
}

// Kinds of IndexRowChange.
const (
	RowMoved   = "moved"   // same row, its Wh/M moved
	RowChanged = "changed" // another row is the GPU's index row
	RowAdded   = "added"   // the GPU has an index row now
	RowRemoved = "removed" // the GPU has no index row any more
)

// IndexRowChange is a change to one model's index row on one GPU.
type IndexRowChange struct {
	Slug string    `json:"slug"`
	GPU  string    `json:"gpu"`
	Kind string    `json:"kind"`
	Old  *RowState `json:"old"`
	New  *RowState `json:"new"`
	// RelativeChangePercent is (new / old - 1) x 100 of the unrounded
	// Wh/M, to 2 decimals; absent when a side has no row.
	RelativeChangePercent *format.Float `json:"relative_change_percent,omitempty"`

	rel float64 // unrounded, for sorting
}

// RowState is an index row as published.
type RowState struct {
	RowID        string       `json:"row_id"`
	WhPerMillion format.Float `json:"wh_per_million_output_tokens"`
}

// ModelChange is what changed in one model present in both snapshots.
type ModelChange struct {
	Slug string `json:"slug"`
	// Fields are the model's own fields that changed (name, params_b, ...).
	Fields []FieldChange `json:"fields,omitempty"`
	// Added and Removed are configurations, by row id.
	Added   []string       `json:"added,omitempty"`
	Removed []string       `json:"removed,omitempty"`
	Changed []ConfigChange `json:"changed,omitempty"`
}

// ConfigChange is one configuration whose published fields changed.
type ConfigChange struct {
	RowID  string        `json:"row_id"`
	Fields []FieldChange `json:"fields"`
}

// FieldChange is one published field, old and new, in JSON.
type FieldChange struct {
	Field string          `json:"field"`
	Old   json.RawMessage `json:"old"`
	New   json.RawMessage `json:"new"`
}

// GridChange compares grid.json's areas, keyed by ISO 3 code (regions,
// which have none, and a code either side lists twice, by name too): an
// area whose name changed under the same code ("Turkey" -> "Türkiye", TUR)
// is renamed, not removed and added.
type GridChange struct {
	Old     *GridInfo        `json:"old"` // nil when the snapshot has no grid.json
	New     *GridInfo        `json:"new"`
	Added   []GridArea       `json:"added"`
	Removed []GridArea       `json:"removed"`
	Renamed []GridRename     `json:"renamed"`
	Changed []GridAreaChange `json:"changed"`
}

// GridRename is an area listed under another name with the same ISO 3 code.
type GridRename struct {
	ISO3 string `json:"iso3"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// GridInfo describes one grid.json.
type GridInfo struct {
	Year    int    `json:"year"`
	Release string `json:"release"`
	Areas   int    `json:"areas"`
	// Fallbacks counts the areas listed with an earlier year's value.
	Fallbacks int `json:"fallbacks"`
	// Exclusions counts the Ember rows the build left out (blank,
	// negative, non-finite, implausible, duplicate), from the manifest.
	Exclusions int `json:"exclusions"`
}

// GridArea is one area of grid.json.
type GridArea struct {
	Name        string       `json:"name"`
	ISO3        string       `json:"iso3"`
	Year        int          `json:"year"`
	GCO2ePerKWh format.Float `json:"g_co2e_per_kwh"`
}

// GridAreaChange is one area whose value, year or area type changed.
type GridAreaChange struct {
	Name   string        `json:"name"`
	ISO3   string        `json:"iso3"`
	Fields []FieldChange `json:"fields"`
	// RelativeChangePercent is (new / old - 1) x 100 of the value, to 2
	// decimals.
	RelativeChangePercent *format.Float `json:"relative_change_percent,omitempty"`
}

// Diff compares two loaded releases, old and new, model by model: it
// reads one model file of each side at a time, and the
// archived Text Conversation task file of each side once, as it streams
// in, into the few upstream values a comparison needs. Each model file's
// rounded figures are held to those values first (checkFigures): a
// figure that is no rounding of its upstream value is a Problem, never a
// change of rounding. A file that can no longer be read as Load checked
// it is named in the report's notes. The error is for a diff that did not
// finish: ctx ended (failure.ErrInterrupted); the report is then partial
// and not returned.
func Diff(ctx context.Context, old, new *store.Release) (*Report, error) {
	r := &Report{
		Old:       info(old),
		New:       info(new),
		IndexRows: []IndexRowChange{}, Configurations: []ModelChange{},
		Models: ModelsChange{Old: len(old.Models), New: len(new.Models), Added: []ModelRef{}, Removed: []ModelRef{}},
	}
	oldSlugs, newSlugs := old.Slugs(), new.Slugs()
	r.Upstream = r.upstreamChanges(old, new, oldSlugs, newSlugs)
	r.Sources = sourceChanges(old, new)
	oldRows := r.upstreamRows(old, "old")
	newRows := oldRows // the same bytes: the same rows
	if oldRows == nil || !sameChat(old, new) {
		newRows = r.upstreamRows(new, "new")
	}
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}

	or, nr := old.Reader(), new.Reader()
	// read reads the model file of slug on one side and checks its
	// figures; nil (and a note) when it cannot be read.
	read := func(rd *store.Reader, s *store.Release, rows map[rowKey]*upRow, side, slug string) *format.Model {
		m, err := readModel(rd, slug)
		if err != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("%s snapshot: %v; %s not compared", side, err, slug))
			return nil
		}
		r.checkFigures(s.Name(), m, rows)
		return m
	}
	for _, slug := range oldSlugs {
		if err := ctx.Err(); err != nil {
			return nil, interrupted(err)
		}
		if _, ok := new.Models[slug]; !ok {
			r.Models.Removed = append(r.Models.Removed, modelRef(old.Models[slug]))
			read(or, old, oldRows, "old", slug)
		}
	}
	for _, slug := range newSlugs {
		if err := ctx.Err(); err != nil {
			return nil, interrupted(err)
		}
		if _, ok := old.Models[slug]; !ok {
			r.Models.Added = append(r.Models.Added, modelRef(new.Models[slug]))
			read(nr, new, newRows, "new", slug)
			continue
		}
		om := read(or, old, oldRows, "old", slug)
		if om == nil {
			continue
		}
		nm := read(nr, new, newRows, "new", slug)
		if nm == nil {
			continue
		}
		r.indexRows(om, nm, oldRows, newRows)
		if mc := r.modelChange(om, nm, oldRows, newRows); mc != nil {
			r.Configurations = append(r.Configurations, *mc)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	sort.SliceStable(r.IndexRows, func(i, j int) bool {
		a, b := r.IndexRows[i], r.IndexRows[j]
		ha, hb := a.RelativeChangePercent != nil, b.RelativeChangePercent != nil
		if ha != hb {
			return ha
		}
		if ha && math.Abs(a.rel) != math.Abs(b.rel) {
			return math.Abs(a.rel) > math.Abs(b.rel)
		}
		if a.Slug != b.Slug {
			return a.Slug < b.Slug
		}
		return a.GPU < b.GPU
	})
	r.Grid = gridChange(old, new)
	r.GPUs = gpuChange(old, new)
	r.Tasks = taskChange(old, new)
	r.TaskIndexRows = []TaskIndexRowChange{}
	r.taskIndexRows(old, new)
	r.DataChanged = len(r.Models.Added)+len(r.Models.Removed)+len(r.IndexRows)+len(r.Configurations)+
		len(r.Grid.Added)+len(r.Grid.Removed)+len(r.Grid.Renamed)+len(r.Grid.Changed)+
		len(r.Tasks.Added)+len(r.Tasks.Removed)+len(r.TaskIndexRows) > 0 ||
		(r.Grid.Old == nil) != (r.Grid.New == nil)
	r.Summary = r.summary()
	return r, nil
}

// interrupted is the error of a diff that ctx ended.
func interrupted(err error) error {
	return fmt.Errorf("%w: diff: %w", failure.ErrInterrupted, err)
}

func info(s *store.Release) SnapshotInfo {
	return SnapshotInfo{Dir: s.Name(), Date: s.Manifest.Date, Retrieved: s.Manifest.Retrieved, Models: len(s.Models)}
}

func modelRef(e format.IndexEntry) ModelRef {
	return ModelRef{Slug: e.Slug, ModelID: e.ModelID, Name: e.Name}
}

// diffModel is what Diff reads of a model file: the fields it compares,
// decoded as format.Model decodes them, and not the long texts of the
// source block.
type diffModel struct {
	Slug           string                   `json:"slug"`
	Name           string                   `json:"name"`
	ModelID        string                   `json:"model_id"`
	ParamsB        format.Float             `json:"params_b"`
	ActiveParamsB  format.Float             `json:"active_params_b"`
	Architecture   string                   `json:"architecture"`
	GPUs           []string                 `json:"gpus"`
	Configurations []format.Config          `json:"configurations"`
	Best           map[string]format.Config `json:"best"`
}

// readModel reads the model file of slug through rd, checked against the
// manifest, as Diff compares it: a format.Model with diffModel's fields
// only.
func readModel(rd *store.Reader, slug string) (*format.Model, error) {
	p := format.ModelPath(slug)
	b, err := rd.ReadListed(p)
	if err != nil {
		return nil, err
	}
	var d diffModel
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	if d.Slug != slug {
		return nil, fmt.Errorf("%s: slug %q does not match the file name", p, d.Slug)
	}
	return &format.Model{Slug: d.Slug, Name: d.Name, ModelID: d.ModelID, ParamsB: d.ParamsB, ActiveParamsB: d.ActiveParamsB,
		Architecture: d.Architecture, GPUs: d.GPUs, Configurations: d.Configurations, Best: d.Best}, nil
}

func (r *Report) upstreamChanges(old, new *store.Release, oldSlugs, newSlugs []string) []ValueChange {
	// The leaderboard version is the first model file's.
	version := func(s *store.Release, slugs []string, side string) string {
		if len(slugs) == 0 {
			return ""
		}
		m, err := s.Model(slugs[0])
		if err != nil {
			r.Notes = append(r.Notes, fmt.Sprintf("%s snapshot: %v; its leaderboard version is not known", side, err))
			return ""
		}
		return m.Source.Version
	}
	gridField := func(s *store.Release, f func(*format.Grid) string) string {
		if s.Grid == nil {
			return ""
		}
		return f(s.Grid)
	}
	release := func(g *format.Grid) string { return g.Source.Release }
	year := func(g *format.Grid) string { return strconv.Itoa(g.Year) }
	oe, ne := old.Manifest.Evidence, new.Manifest.Evidence
	var out []ValueChange
	for _, v := range [][3]string{
		{"leaderboard version", version(old, oldSlugs, "old"), version(new, newSlugs, "new")},
		{"compiled", oe.Compiled, ne.Compiled},
		{"index last_updated", oe.IndexLastUpdated, ne.IndexLastUpdated},
		{"last commit", oe.LastCommitSHA, ne.LastCommitSHA},
		{"last commit date", oe.LastCommitDate, ne.LastCommitDate},
		{"evidence conflict", oe.Conflict, ne.Conflict},
		{"ember release", gridField(old, release), gridField(new, release)},
		{"grid year", gridField(old, year), gridField(new, year)},
		{"retrieved", old.Manifest.Retrieved, new.Manifest.Retrieved},
	} {
		out = append(out, ValueChange{Name: v[0], Old: v[1], New: v[2], Changed: v[1] != v[2]})
	}
	return out
}

func sourceState(s *format.SourceFile) *SourceState {
	if s == nil {
		return nil
	}
	return &SourceState{URL: s.URL, Retrieved: s.Retrieved, Size: s.Size, SHA256: s.SHA256}
}

func sourceChanges(old, new *store.Release) []SourceChange {
	names := map[string]bool{}
	for _, s := range old.Manifest.Sources {
		names[s.Name] = true
	}
	for _, s := range new.Manifest.Sources {
		names[s.Name] = true
	}
	out := []SourceChange{}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		c := SourceChange{Name: name, Old: sourceState(old.Source(name)), New: sourceState(new.Source(name))}
		switch {
		case c.Old == nil:
			c.Status = "added"
		case c.New == nil:
			c.Status = "removed"
		default:
			for _, f := range []struct {
				name string
				same bool
			}{
				{"sha256", c.Old.SHA256 == c.New.SHA256}, {"size", c.Old.Size == c.New.Size},
				{"url", c.Old.URL == c.New.URL}, {"retrieved", c.Old.Retrieved == c.New.Retrieved},
			} {
				if !f.same {
					c.Changed = append(c.Changed, f.name)
				}
			}
			c.Status = "unchanged"
			if len(c.Changed) > 0 {
				c.Status = "changed"
			}
		}
		out = append(out, c)
	}
	return out
}

func (r *Report) indexRows(om, nm *format.Model, oldRows, newRows map[rowKey]*upRow) {
	gpus := map[string]bool{}
	for g := range om.Best {
		gpus[g] = true
	}
	for g := range nm.Best {
		gpus[g] = true
	}
	for _, gpu := range slices.Sorted(maps.Keys(gpus)) {
		oc, hasOld := om.Best[gpu]
		nc, hasNew := nm.Best[gpu]
		c := IndexRowChange{Slug: nm.Slug, GPU: gpu}
		if hasOld {
			c.Old = &RowState{RowID: oc.RowID, WhPerMillion: oc.WhPerMillion}
		}
		if hasNew {
			c.New = &RowState{RowID: nc.RowID, WhPerMillion: nc.WhPerMillion}
		}
		switch {
		case !hasNew:
			c.Kind = RowRemoved
		case !hasOld:
			c.Kind = RowAdded
		default:
			orow, nrow := lookup(oldRows, om.ModelID, oc), lookup(newRows, nm.ModelID, nc)
			ow, nw := whUnrounded(orow, oc), whUnrounded(nrow, nc)
			published := oc.WhPerMillion != nc.WhPerMillion || oc.JoulesPerToken != nc.JoulesPerToken
			switch {
			case oc.RowID != nc.RowID:
				c.Kind = RowChanged
			case ow != nw && published:
				c.Kind = RowMoved
			case ow == nw && published:
				if orow == nil || roundingOnly("wh_per_million_output_tokens", &oc, &nc, orow) &&
					roundingOnly("joules_per_output_token", &oc, &nc, orow) {
					r.RoundingOnly++
				} // else a Problem of the figure check
				continue
			default:
				continue
			}
			c.rel = nw/ow - 1
			p := percent(c.rel)
			c.RelativeChangePercent = &p
		}
		r.IndexRows = append(r.IndexRows, c)
	}
}

// percent turns a relative change into a percentage to 2 decimals, never -0.
func percent(rel float64) format.Float {
	p := format.Round(rel*100, 2)
	if p == 0 {
		return 0
	}
	return p
}

// configFields are the published configuration fields in their key order,
// with the upstream value each is computed from (nil: a key field).
var configFields = []struct {
	name     string
	upstream func(*upRow) any
}{
	{"gpu", nil}, {"num_gpus", nil},
	{"tensor_parallel", func(r *upRow) any { return r.tp }},
	{"data_parallel", func(r *upRow) any { return r.dp }},
	{"expert_parallel", func(r *upRow) any { return r.ep }},
	{"precision", func(r *upRow) any { return r.precision }},
	{"max_num_seqs", nil},
	{"avg_requests_in_flight", func(r *upRow) any { return r.avgBatch }},
	{"wh_per_million_output_tokens", energy},
	{"joules_per_output_token", energy},
	{"median_itl_ms", func(r *upRow) any { return r.medianITL }},
	{"p90_itl_ms", func(r *upRow) any { return r.p90ITL }},
	{"p99_itl_ms", func(r *upRow) any { return r.p99ITL }},
	{"tokens_per_second", func(r *upRow) any { return r.throughput }},
	{"gpu_power_watts_total", func(r *upRow) any { return r.power }},
	{"avg_output_tokens", func(r *upRow) any { return [2]any{r.outputTokens, r.outputTokensOK} }},
	{"under_itl_deadline", func(r *upRow) any { return r.medianITL }},
	{"avg_running_batch", func(r *upRow) any { return r.avgBatch }},
	{"p95_itl_ms", func(r *upRow) any { return r.p95ITL }},
	{"row_id", nil}, {"repeat", nil},
}

func energy(r *upRow) any {
	if !r.hasEnergy {
		return nil
	}
	return r.energy
}

// published returns a value's fields as their JSON text.
func published(v any) map[string]string {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]string{}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return map[string]string{}
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		out[k] = string(v)
	}
	return out
}

// modelFields are a model file's own fields that a diff compares.
var modelFields = []string{"name", "model_id", "params_b", "active_params_b", "architecture", "gpus"}

// modelHead is a model file's modelFields, as format.Model publishes
// them (published of it gives the same text for each as of the model).
type modelHead struct {
	Name          string       `json:"name"`
	ModelID       string       `json:"model_id"`
	ParamsB       format.Float `json:"params_b"`
	ActiveParamsB format.Float `json:"active_params_b"`
	Architecture  string       `json:"architecture"`
	GPUs          []string     `json:"gpus"`
}

func headOf(m *format.Model) modelHead {
	return modelHead{Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
		Architecture: m.Architecture, GPUs: m.GPUs}
}

func (r *Report) modelChange(om, nm *format.Model, oldRows, newRows map[rowKey]*upRow) *ModelChange {
	mc := &ModelChange{Slug: nm.Slug}
	if oh, nh := headOf(om), headOf(nm); !sameBits(reflect.ValueOf(oh), reflect.ValueOf(nh)) {
		op, np := published(oh), published(nh)
		for _, f := range modelFields {
			if op[f] != np[f] {
				mc.Fields = append(mc.Fields, FieldChange{Field: f, Old: json.RawMessage(op[f]), New: json.RawMessage(np[f])})
			}
		}
	}
	oldCfg := map[string]format.Config{}
	for _, c := range om.Configurations {
		oldCfg[c.RowID] = c
	}
	newIDs := map[string]bool{}
	for _, nc := range nm.Configurations {
		newIDs[nc.RowID] = true
		oc, ok := oldCfg[nc.RowID]
		if !ok {
			mc.Added = append(mc.Added, nc.RowID)
			continue
		}
		if sameBits(reflect.ValueOf(oc), reflect.ValueOf(nc)) {
			continue // every published field the same
		}
		orow, nrow := lookup(oldRows, om.ModelID, oc), lookup(newRows, nm.ModelID, nc)
		ov, nv := published(oc), published(nc)
		var fields []FieldChange
		for _, f := range configFields {
			if f.upstream == nil || ov[f.name] == nv[f.name] {
				continue
			}
			if orow != nil && nrow != nil && reflect.DeepEqual(f.upstream(orow), f.upstream(nrow)) {
				// The same upstream value: a change of rounding, when it is
				// one (roundingOnly); a rule's otherwise.
				if roundingOnly(f.name, &oc, &nc, orow) {
					r.RoundingOnly++
					continue
				}
				if isRounded(f.name) {
					continue // a Problem of the figure check
				}
			}
			fields = append(fields, FieldChange{Field: f.name, Old: json.RawMessage(ov[f.name]), New: json.RawMessage(nv[f.name])})
		}
		if len(fields) > 0 {
			mc.Changed = append(mc.Changed, ConfigChange{RowID: nc.RowID, Fields: fields})
		}
	}
	for _, oc := range om.Configurations {
		if !newIDs[oc.RowID] {
			mc.Removed = append(mc.Removed, oc.RowID)
		}
	}
	// By row id, numbers by value: .../1/8 before .../1/16 before .../1/128.
	slices.SortFunc(mc.Added, naturalCompare)
	slices.SortFunc(mc.Removed, naturalCompare)
	slices.SortFunc(mc.Changed, func(a, b ConfigChange) int { return naturalCompare(a.RowID, b.RowID) })
	if len(mc.Fields)+len(mc.Added)+len(mc.Removed)+len(mc.Changed) == 0 {
		return nil
	}
	return mc
}

// sameBits reports whether a and b, of one type, hold the same values bit
// for bit (a float by its bits: -0 is not 0, and a NaN is itself), so that
// they publish the same JSON: a pair that is the same needs no field by
// field comparison. A kind it does not know is never the same.
func sameBits(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !sameBits(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !sameBits(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	}
	return false
}

func gridInfo(s *store.Release) *GridInfo {
	g := s.Grid
	if g == nil {
		return nil
	}
	i := &GridInfo{Year: g.Year, Release: g.Source.Release, Areas: len(g.Areas)}
	for _, a := range g.Areas {
		if a.Fallback {
			i.Fallbacks++
		}
	}
	if m := s.Manifest.Grid; m != nil {
		i.Exclusions = len(m.Exclusions)
	}
	return i
}

func gridChange(oldSnap, newSnap *store.Release) GridChange {
	old, new := oldSnap.Grid, newSnap.Grid
	c := GridChange{Old: gridInfo(oldSnap), New: gridInfo(newSnap), Added: []GridArea{}, Removed: []GridArea{}, Renamed: []GridRename{}, Changed: []GridAreaChange{}}
	if old == nil || new == nil {
		return c
	}
	// An ISO 3 code listed twice on either side keys its areas by name too.
	twice := map[string]bool{}
	for _, g := range []*format.Grid{old, new} {
		seen := map[string]bool{}
		for _, a := range g.Areas {
			twice[a.ISO3] = twice[a.ISO3] || seen[a.ISO3]
			seen[a.ISO3] = true
		}
	}
	areaKey := func(a format.Area) string {
		if a.ISO3 != "" && !twice[a.ISO3] {
			return a.ISO3
		}
		return a.ISO3 + "|" + a.Name
	}
	oldAreas := map[string]format.Area{}
	for _, a := range old.Areas {
		oldAreas[areaKey(a)] = a
	}
	seen := map[string]bool{}
	area := func(a format.Area) GridArea {
		return GridArea{Name: a.Name, ISO3: a.ISO3, Year: a.Year, GCO2ePerKWh: a.GCO2ePerKWh}
	}
	for _, na := range new.Areas {
		k := areaKey(na)
		seen[k] = true
		oa, ok := oldAreas[k]
		if !ok {
			c.Added = append(c.Added, area(na))
			continue
		}
		if oa.Name != na.Name {
			c.Renamed = append(c.Renamed, GridRename{ISO3: na.ISO3, Old: oa.Name, New: na.Name})
		}
		op, np := published(oa), published(na)
		var fields []FieldChange
		for _, f := range []string{"area_type", "year", "fallback", "g_co2e_per_kwh"} {
			if op[f] != np[f] {
				fields = append(fields, FieldChange{Field: f, Old: json.RawMessage(op[f]), New: json.RawMessage(np[f])})
			}
		}
		if len(fields) == 0 {
			continue
		}
		ac := GridAreaChange{Name: na.Name, ISO3: na.ISO3, Fields: fields}
		if oa.GCO2ePerKWh != na.GCO2ePerKWh && oa.GCO2ePerKWh != 0 {
			p := percent(float64(na.GCO2ePerKWh)/float64(oa.GCO2ePerKWh) - 1)
			ac.RelativeChangePercent = &p
		}
		c.Changed = append(c.Changed, ac)
	}
	for _, oa := range old.Areas {
		if !seen[areaKey(oa)] {
			c.Removed = append(c.Removed, area(oa))
		}
	}
	byName := func(a, b GridArea) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ISO3, b.ISO3))
	}
	slices.SortFunc(c.Added, byName)
	slices.SortFunc(c.Removed, byName)
	slices.SortFunc(c.Renamed, func(a, b GridRename) int { return strings.Compare(a.ISO3, b.ISO3) })
	slices.SortFunc(c.Changed, func(a, b GridAreaChange) int {
		return byName(GridArea{Name: a.Name, ISO3: a.ISO3}, GridArea{Name: b.Name, ISO3: b.ISO3})
	})
	return c
}

// Changed reports whether anything changed that diff --exit-code counts:
// data (DataChanged), or the bytes of an archived source (added, removed,
// or another sha256). A new retrieval date of the same bytes is no change.
func (r *Report) Changed() bool {
	if r.DataChanged {
		return true
	}
	for _, s := range r.Sources {
		if s.Status == "added" || s.Status == "removed" || slices.Contains(s.Changed, "sha256") {
			return true
		}
	}
	return false
}

// naturalCompare compares strings with their runs of digits by value:
// "b/1/8" < "b/1/16" < "b/1/128".
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun is the length of the run of ASCII digits that s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// ConfigurationsChanged counts the configurations changed, added and
// removed over every model.
func (r *Report) ConfigurationsChanged() (changed, added, removed int) {
	for _, mc := range r.Configurations {
		changed += len(mc.Changed)
		added += len(mc.Added)
		removed += len(mc.Removed)
	}
	return
}

// GPUChange compares the GPUs of two snapshots' model files.
type GPUChange struct {
	Old     []string `json:"old"`
	New     []string `json:"new"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// gpuChange compares the GPUs of old's and new's model files.
func gpuChange(old, new *store.Release) GPUChange {
	c := GPUChange{Old: gpus(old), New: gpus(new), Added: []string{}, Removed: []string{}}
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

// gpus returns the GPUs of the release's model files (their gpus), sorted.
func gpus(r *store.Release) []string {
	set := map[string]bool{}
	for _, e := range r.Models {
		for _, g := range e.GPUs {
			set[g] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}
