package snapshots

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
)

// DiffReport says, for a maintainer, what changed from one snapshot to
// another. Every list is sorted, so the report and its JSON are
// deterministic.
//
// Figures are compared on the unrounded upstream values behind them (the
// archived task rows): a published figure that changed while its upstream
// value did not (a change in rounding only) is not a change; it is counted
// in RoundingOnly. A configuration whose upstream value moved by less than
// the published rounding is not a change either, since nothing published
// moved.
type DiffReport struct {
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
	// IndexRows are the models' index rows (best[GPU]) that changed row,
	// whose Wh/M moved, or that appeared or went, largest relative change
	// first.
	IndexRows []IndexRowChange `json:"index_rows"`
	// Configurations lists, per model in both snapshots, the configurations
	// added, removed or changed, and model fields that changed.
	Configurations []ModelChange `json:"configurations"`
	Grid           GridChange    `json:"grid"`
	// RoundingOnly counts published figures that differ while the upstream
	// value behind them is the same; they are not reported as changes.
	RoundingOnly int `json:"rounding_only"`
	// Notes say where the comparison fell back to the published figures.
	Notes []string `json:"notes,omitempty"`
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
	RelativeChangePercent *jsonnum.Float `json:"relative_change_percent,omitempty"`

	rel float64 // unrounded, for sorting
}

// RowState is an index row as published.
type RowState struct {
	RowID        string        `json:"row_id"`
	WhPerMillion jsonnum.Float `json:"wh_per_million_output_tokens"`
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
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// GridChange compares grid.json's areas, keyed by name and ISO 3 code.
type GridChange struct {
	Old     *GridInfo        `json:"old"` // nil when the snapshot has no grid.json
	New     *GridInfo        `json:"new"`
	Added   []GridArea       `json:"added"`
	Removed []GridArea       `json:"removed"`
	Changed []GridAreaChange `json:"changed"`
}

// GridInfo describes one grid.json.
type GridInfo struct {
	Year    int    `json:"year"`
	Release string `json:"release"`
	Areas   int    `json:"areas"`
}

// GridArea is one area of grid.json.
type GridArea struct {
	Name        string        `json:"name"`
	ISO3        string        `json:"iso3"`
	Year        int           `json:"year"`
	GCO2ePerKWh jsonnum.Float `json:"g_co2e_per_kwh"`
}

// GridAreaChange is one area whose value, year or area type changed.
type GridAreaChange struct {
	Name   string        `json:"name"`
	ISO3   string        `json:"iso3"`
	Fields []FieldChange `json:"fields"`
	// RelativeChangePercent is (new / old - 1) x 100 of the value, to 2
	// decimals.
	RelativeChangePercent *jsonnum.Float `json:"relative_change_percent,omitempty"`
}

// Diff compares two loaded snapshots, old and new.
func Diff(old, new *Snapshot) *DiffReport {
	r := &DiffReport{
		Old:     info(old),
		New:     info(new),
		Sources: []SourceChange{}, IndexRows: []IndexRowChange{}, Configurations: []ModelChange{},
		Models: ModelsChange{Old: len(old.Models), New: len(new.Models), Added: []ModelRef{}, Removed: []ModelRef{}},
		Grid:   GridChange{Added: []GridArea{}, Removed: []GridArea{}, Changed: []GridAreaChange{}},
	}
	r.Upstream = upstreamChanges(old, new)
	r.Sources = sourceChanges(old, new)
	oldRows := r.upstreamRows(old, "old")
	newRows := r.upstreamRows(new, "new")

	for _, slug := range old.Slugs() {
		if _, ok := new.Models[slug]; !ok {
			r.Models.Removed = append(r.Models.Removed, modelRef(old.Models[slug]))
		}
	}
	for _, slug := range new.Slugs() {
		om, ok := old.Models[slug]
		if !ok {
			r.Models.Added = append(r.Models.Added, modelRef(new.Models[slug]))
			continue
		}
		nm := new.Models[slug]
		r.indexRows(om, nm, oldRows, newRows)
		if mc := r.modelChange(om, nm, oldRows, newRows); mc != nil {
			r.Configurations = append(r.Configurations, *mc)
		}
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
	r.Grid = gridChange(old.Grid, new.Grid)
	r.DataChanged = len(r.Models.Added)+len(r.Models.Removed)+len(r.IndexRows)+len(r.Configurations)+
		len(r.Grid.Added)+len(r.Grid.Removed)+len(r.Grid.Changed) > 0 ||
		(r.Grid.Old == nil) != (r.Grid.New == nil)
	r.Summary = r.summary()
	return r
}

func info(s *Snapshot) SnapshotInfo {
	return SnapshotInfo{Dir: s.Dir, Date: s.Manifest.Date, Retrieved: s.Manifest.Retrieved, Models: len(s.Models)}
}

func modelRef(m *transform.Model) ModelRef {
	return ModelRef{Slug: m.Slug, ModelID: m.ModelID, Name: m.Name}
}

func upstreamChanges(old, new *Snapshot) []ValueChange {
	version := func(s *Snapshot) string {
		for _, slug := range s.Slugs() {
			return s.Models[slug].Source.Version
		}
		return ""
	}
	gridField := func(s *Snapshot, f func(*grid.Grid) string) string {
		if s.Grid == nil {
			return ""
		}
		return f(s.Grid)
	}
	release := func(g *grid.Grid) string { return g.Source.Release }
	year := func(g *grid.Grid) string { return strconv.Itoa(g.Year) }
	oe, ne := old.Manifest.Evidence, new.Manifest.Evidence
	var out []ValueChange
	for _, v := range [][3]string{
		{"leaderboard version", version(old), version(new)},
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

func sourceState(s *Source) *SourceState {
	if s == nil {
		return nil
	}
	return &SourceState{URL: s.URL, Retrieved: s.Retrieved, Size: s.Size, SHA256: s.SHA256}
}

func sourceChanges(old, new *Snapshot) []SourceChange {
	names := map[string]bool{}
	for _, s := range old.Manifest.Sources {
		names[s.Name] = true
	}
	for _, s := range new.Manifest.Sources {
		names[s.Name] = true
	}
	out := []SourceChange{}
	for _, name := range sortedNames(names) {
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

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// rowKey finds the upstream row behind a published configuration.
type rowKey struct {
	model, gpu     string
	n, cap, repeat int
}

// upstreamRows re-reads a snapshot's archived Text Conversation rows and
// applies the stability filter, numbering repeats in upstream order as the
// model files do. It returns nil (and notes why) when they cannot be read.
func (r *DiffReport) upstreamRows(s *Snapshot, side string) map[rowKey]*transform.Row {
	path := "sources/" + fetch.LeaderboardTask(fetch.TaskChat)
	data, ok := s.Bytes(path)
	if !ok {
		r.Notes = append(r.Notes, fmt.Sprintf("%s snapshot: %s is not archived; published figures compared", side, path))
		return nil
	}
	rows, err := transform.ParseTask(fetch.TaskChat, data)
	if err != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("%s snapshot: %v; published figures compared", side, err))
		return nil
	}
	stable, _ := transform.Stable(rows)
	out := map[rowKey]*transform.Row{}
	seen := map[rowKey]int{}
	for i := range stable {
		row := &stable[i]
		k := rowKey{model: row.ModelID, gpu: row.GPU, n: row.NumGPUs, cap: row.MaxNumSeqs}
		seen[k]++
		k.repeat = seen[k]
		out[k] = row
	}
	return out
}

func lookup(rows map[rowKey]*transform.Row, modelID string, c transform.Config) *transform.Row {
	if rows == nil {
		return nil
	}
	return rows[rowKey{model: modelID, gpu: c.GPU, n: c.NumGPUs, cap: c.MaxNumSeqs, repeat: c.Repeat}]
}

// whUnrounded returns a configuration's unrounded Wh/M, from its upstream
// row when there is one, else the published figure.
func whUnrounded(row *transform.Row, c transform.Config) float64 {
	if row != nil && row.EnergyPerToken != nil {
		return transform.WhPerMillion(*row.EnergyPerToken)
	}
	return float64(c.WhPerMillion)
}

func (r *DiffReport) indexRows(om, nm *transform.Model, oldRows, newRows map[rowKey]*transform.Row) {
	gpus := map[string]bool{}
	for g := range om.Best {
		gpus[g] = true
	}
	for g := range nm.Best {
		gpus[g] = true
	}
	for _, gpu := range sortedNames(gpus) {
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
				r.RoundingOnly++
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
func percent(rel float64) jsonnum.Float {
	p := jsonnum.Round(rel*100, 2)
	if p == 0 {
		return 0
	}
	return p
}

// configFields are the published configuration fields in their key order,
// with the upstream value each is computed from (nil: a key field).
var configFields = []struct {
	name     string
	upstream func(*transform.Row) any
}{
	{"gpu", nil}, {"num_gpus", nil},
	{"tensor_parallel", func(r *transform.Row) any { return r.TP }},
	{"data_parallel", func(r *transform.Row) any { return r.DP }},
	{"expert_parallel", func(r *transform.Row) any { return r.EP }},
	{"precision", func(r *transform.Row) any { return r.Precision }},
	{"max_num_seqs", nil},
	{"avg_requests_in_flight", func(r *transform.Row) any { return r.AvgBatch }},
	{"wh_per_million_output_tokens", energy},
	{"joules_per_output_token", energy},
	{"median_itl_ms", func(r *transform.Row) any { return r.MedianITL }},
	{"p90_itl_ms", func(r *transform.Row) any { return r.P90ITL }},
	{"p99_itl_ms", func(r *transform.Row) any { return r.P99ITL }},
	{"tokens_per_second", func(r *transform.Row) any { return r.Throughput }},
	{"gpu_power_watts_total", func(r *transform.Row) any { return r.Power }},
	{"avg_output_tokens", func(r *transform.Row) any { x, err := transform.OutputTokens(r); return [2]any{x, err == nil} }},
	{"under_itl_deadline", func(r *transform.Row) any { return r.MedianITL }},
	{"avg_running_batch", func(r *transform.Row) any { return r.AvgBatch }},
	{"p95_itl_ms", func(r *transform.Row) any { return r.P95ITL }},
	{"row_id", nil}, {"repeat", nil},
}

func energy(r *transform.Row) any {
	if r.EnergyPerToken == nil {
		return nil
	}
	return *r.EnergyPerToken
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

func (r *DiffReport) modelChange(om, nm *transform.Model, oldRows, newRows map[rowKey]*transform.Row) *ModelChange {
	mc := &ModelChange{Slug: nm.Slug}
	op, np := published(om), published(nm)
	for _, f := range modelFields {
		if op[f] != np[f] {
			mc.Fields = append(mc.Fields, FieldChange{Field: f, Old: op[f], New: np[f]})
		}
	}
	oldCfg := map[string]transform.Config{}
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
		orow, nrow := lookup(oldRows, om.ModelID, oc), lookup(newRows, nm.ModelID, nc)
		ov, nv := published(oc), published(nc)
		var fields []FieldChange
		for _, f := range configFields {
			if f.upstream == nil || ov[f.name] == nv[f.name] {
				continue
			}
			if orow != nil && nrow != nil && reflect.DeepEqual(f.upstream(orow), f.upstream(nrow)) {
				r.RoundingOnly++
				continue
			}
			fields = append(fields, FieldChange{Field: f.name, Old: ov[f.name], New: nv[f.name]})
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
	sort.Strings(mc.Added)
	sort.Strings(mc.Removed)
	sort.Slice(mc.Changed, func(i, j int) bool { return mc.Changed[i].RowID < mc.Changed[j].RowID })
	if len(mc.Fields)+len(mc.Added)+len(mc.Removed)+len(mc.Changed) == 0 {
		return nil
	}
	return mc
}

func gridInfo(g *grid.Grid) *GridInfo {
	if g == nil {
		return nil
	}
	return &GridInfo{Year: g.Year, Release: g.Source.Release, Areas: len(g.Areas)}
}

func gridChange(old, new *grid.Grid) GridChange {
	c := GridChange{Old: gridInfo(old), New: gridInfo(new), Added: []GridArea{}, Removed: []GridArea{}, Changed: []GridAreaChange{}}
	if old == nil || new == nil {
		return c
	}
	type key struct{ name, iso3 string }
	oldAreas := map[key]grid.Area{}
	for _, a := range old.Areas {
		oldAreas[key{a.Name, a.ISO3}] = a
	}
	seen := map[key]bool{}
	area := func(a grid.Area) GridArea {
		return GridArea{Name: a.Name, ISO3: a.ISO3, Year: a.Year, GCO2ePerKWh: a.GCO2ePerKWh}
	}
	for _, na := range new.Areas {
		k := key{na.Name, na.ISO3}
		seen[k] = true
		oa, ok := oldAreas[k]
		if !ok {
			c.Added = append(c.Added, area(na))
			continue
		}
		op, np := published(oa), published(na)
		var fields []FieldChange
		for _, f := range []string{"area_type", "year", "g_co2e_per_kwh"} {
			if op[f] != np[f] {
				fields = append(fields, FieldChange{Field: f, Old: op[f], New: np[f]})
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
		if !seen[key{oa.Name, oa.ISO3}] {
			c.Removed = append(c.Removed, area(oa))
		}
	}
	less := func(an, ai, bn, bi string) bool {
		if an != bn {
			return an < bn
		}
		return ai < bi
	}
	sort.Slice(c.Added, func(i, j int) bool { return less(c.Added[i].Name, c.Added[i].ISO3, c.Added[j].Name, c.Added[j].ISO3) })
	sort.Slice(c.Removed, func(i, j int) bool {
		return less(c.Removed[i].Name, c.Removed[i].ISO3, c.Removed[j].Name, c.Removed[j].ISO3)
	})
	sort.Slice(c.Changed, func(i, j int) bool {
		return less(c.Changed[i].Name, c.Changed[i].ISO3, c.Changed[j].Name, c.Changed[j].ISO3)
	})
	return c
}

// ConfigurationsChanged counts the configurations changed, added and
// removed over every model.
func (r *DiffReport) ConfigurationsChanged() (changed, added, removed int) {
	for _, mc := range r.Configurations {
		changed += len(mc.Changed)
		added += len(mc.Added)
		removed += len(mc.Removed)
	}
	return
}

func (r *DiffReport) summary() string {
	parts := []string{plural(r.Models.New, "model")}
	if a, d := len(r.Models.Added), len(r.Models.Removed); a+d > 0 {
		var ad []string
		if a > 0 {
			ad = append(ad, fmt.Sprintf("%d added", a))
		}
		if d > 0 {
			ad = append(ad, fmt.Sprintf("%d removed: %s", d, slugList(r.Models.Removed)))
		}
		parts[0] += " (" + strings.Join(ad, ", ") + ")"
	}
	if !r.DataChanged {
		return parts[0] + ", no data change"
	}
	if n := len(r.IndexRows); n == 0 {
		parts = append(parts, "index rows unchanged")
	} else {
		s := plural(n, "index row") + " changed"
		if top := r.IndexRows[0]; top.RelativeChangePercent != nil {
			s += fmt.Sprintf(", largest %+.1f%% (%s %s)", top.rel*100, top.Slug, top.GPU)
		}
		parts = append(parts, s)
	}
	changed, added, removed := r.ConfigurationsChanged()
	if changed > 0 {
		fields := map[string]bool{}
		for _, mc := range r.Configurations {
			for _, cc := range mc.Changed {
				for _, f := range cc.Fields {
					fields[f.Field] = true
				}
			}
		}
		parts = append(parts, fmt.Sprintf("%s changed (%s)", plural(changed, "configuration"), strings.Join(sortedNames(fields), ", ")))
	}
	if added > 0 {
		parts = append(parts, plural(added, "configuration")+" added")
	}
	if removed > 0 {
		parts = append(parts, plural(removed, "configuration")+" removed")
	}
	fieldModels := 0
	for _, mc := range r.Configurations {
		if len(mc.Fields) > 0 {
			fieldModels++
		}
	}
	if fieldModels > 0 {
		parts = append(parts, fmt.Sprintf("model fields changed in %s", plural(fieldModels, "model")))
	}
	g := r.Grid
	switch {
	case g.Old == nil && g.New != nil:
		parts = append(parts, "grid.json added")
	case g.Old != nil && g.New == nil:
		parts = append(parts, "grid.json removed")
	case len(g.Added)+len(g.Removed)+len(g.Changed) > 0:
		var gs []string
		for _, x := range []struct {
			n    int
			what string
		}{{len(g.Changed), "changed"}, {len(g.Added), "added"}, {len(g.Removed), "removed"}} {
			if x.n > 0 {
				gs = append(gs, fmt.Sprintf("%d %s", x.n, x.what))
			}
		}
		parts = append(parts, "grid areas "+strings.Join(gs, ", "))
	}
	return strings.Join(parts, ", ")
}

func slugList(ms []ModelRef) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.Slug)
	}
	return strings.Join(s, ", ")
}

// WriteJSON renders the report as indented JSON with a final newline.
func (r *DiffReport) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

// WriteText renders the report for a person: the summary line first.
func (r *DiffReport) WriteText(w io.Writer) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("%s\n", r.Summary)
	p("old: %s (data version %s, retrieved %s)\n", r.Old.Dir, r.Old.Date, r.Old.Retrieved)
	p("new: %s (data version %s, retrieved %s)\n", r.New.Dir, r.New.Date, r.New.Retrieved)

	p("\nUpstream:\n")
	for _, v := range r.Upstream {
		if v.Old == "" && v.New == "" {
			continue
		}
		if v.Changed {
			p("  %s: %s -> %s\n", v.Name, orNone(v.Old), orNone(v.New))
		} else {
			p("  %s: %s (unchanged)\n", v.Name, v.Old)
		}
	}

	p("\nSources:\n")
	for _, s := range r.Sources {
		switch s.Status {
		case "added":
			p("  %s: added (%d bytes, sha256 %s)\n", s.Name, s.New.Size, s.New.SHA256)
		case "removed":
			p("  %s: removed (was %d bytes, sha256 %s)\n", s.Name, s.Old.Size, s.Old.SHA256)
		case "unchanged":
			p("  %s: unchanged (sha256 %s)\n", s.Name, short(s.Old.SHA256))
		default:
			var d []string
			for _, f := range s.Changed {
				switch f {
				case "sha256":
					d = append(d, fmt.Sprintf("sha256 %s -> %s", short(s.Old.SHA256), short(s.New.SHA256)))
				case "size":
					d = append(d, fmt.Sprintf("%d -> %d bytes", s.Old.Size, s.New.Size))
				case "url":
					d = append(d, fmt.Sprintf("url %s -> %s", s.Old.URL, s.New.URL))
				case "retrieved":
					d = append(d, fmt.Sprintf("retrieved %s -> %s", s.Old.Retrieved, s.New.Retrieved))
				}
			}
			p("  %s: %s\n", s.Name, strings.Join(d, ", "))
		}
	}

	p("\nModels: %d -> %d", r.Models.Old, r.Models.New)
	if len(r.Models.Added)+len(r.Models.Removed) == 0 {
		p(", none added or removed\n")
	} else {
		p("\n")
		for _, m := range r.Models.Added {
			p("  added: %s (%s)\n", m.Slug, m.ModelID)
		}
		for _, m := range r.Models.Removed {
			p("  removed: %s (%s)\n", m.Slug, m.ModelID)
		}
	}

	p("\nIndex rows (Wh per million output tokens; largest change first):")
	if len(r.IndexRows) == 0 {
		p(" none changed\n")
	} else {
		p("\n")
		for _, c := range r.IndexRows {
			switch c.Kind {
			case RowAdded:
				p("  %s %s: added, %s (%s)\n", c.Slug, c.GPU, num(c.New.WhPerMillion), c.New.RowID)
			case RowRemoved:
				p("  %s %s: removed, was %s (%s)\n", c.Slug, c.GPU, num(c.Old.WhPerMillion), c.Old.RowID)
			case RowChanged:
				p("  %s %s: %s -> %s (%+.2f%%), row %s -> %s\n", c.Slug, c.GPU, num(c.Old.WhPerMillion), num(c.New.WhPerMillion),
					float64(*c.RelativeChangePercent), c.Old.RowID, c.New.RowID)
			default:
				p("  %s %s: %s -> %s (%+.2f%%), row %s\n", c.Slug, c.GPU, num(c.Old.WhPerMillion), num(c.New.WhPerMillion),
					float64(*c.RelativeChangePercent), c.New.RowID)
			}
		}
	}

	changed, added, removed := r.ConfigurationsChanged()
	p("\nConfigurations: %d changed, %d added, %d removed\n", changed, added, removed)
	for _, mc := range r.Configurations {
		p("  %s:\n", mc.Slug)
		for _, f := range mc.Fields {
			p("    %s: %s -> %s\n", f.Field, f.Old, f.New)
		}
		for _, id := range mc.Added {
			p("    added %s\n", id)
		}
		for _, id := range mc.Removed {
			p("    removed %s\n", id)
		}
		for _, cc := range mc.Changed {
			var fs []string
			for _, f := range cc.Fields {
				fs = append(fs, fmt.Sprintf("%s %s -> %s", f.Field, f.Old, f.New))
			}
			p("    %s: %s\n", cc.RowID, strings.Join(fs, ", "))
		}
	}
	if r.RoundingOnly > 0 {
		p("  (%s with the same upstream value, rounding only: not counted)\n", plural(r.RoundingOnly, "published figure"))
	}

	p("\nGrid:")
	g := r.Grid
	switch {
	case g.Old == nil && g.New == nil:
		p(" no grid.json in either snapshot\n")
	case g.Old == nil:
		p(" grid.json added (year %d, %d areas)\n", g.New.Year, g.New.Areas)
	case g.New == nil:
		p(" grid.json removed (was year %d, %d areas)\n", g.Old.Year, g.Old.Areas)
	default:
		p(" year %d -> %d, %d -> %d areas; %d changed, %d added, %d removed\n", g.Old.Year, g.New.Year, g.Old.Areas, g.New.Areas,
			len(g.Changed), len(g.Added), len(g.Removed))
		for _, a := range g.Changed {
			var fs []string
			for _, f := range a.Fields {
				fs = append(fs, fmt.Sprintf("%s %s -> %s", f.Field, f.Old, f.New))
			}
			rel := ""
			if a.RelativeChangePercent != nil {
				rel = fmt.Sprintf(" (%+.2f%%)", float64(*a.RelativeChangePercent))
			}
			p("  %s (%s): %s%s\n", a.Name, orNone(a.ISO3), strings.Join(fs, ", "), rel)
		}
		for _, a := range g.Added {
			p("  added %s (%s): %s\n", a.Name, orNone(a.ISO3), num(a.GCO2ePerKWh))
		}
		for _, a := range g.Removed {
			p("  removed %s (%s): was %s\n", a.Name, orNone(a.ISO3), num(a.GCO2ePerKWh))
		}
	}
	for _, n := range r.Notes {
		p("\nNote: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}

func num(f jsonnum.Float) string {
	s, err := jsonnum.Format(float64(f))
	if err != nil {
		return fmt.Sprint(float64(f))
	}
	return s
}
