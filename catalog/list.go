package catalog

import (
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/pricing"
)

// SnapshotInfo describes a served snapshot.
type SnapshotInfo struct {
	Date      string `json:"date"`
	Compiled  string `json:"compiled"`
	Retrieved string `json:"retrieved"`
	// GridYear is grid.json's reference year; null without grid.json.
	GridYear *int   `json:"grid_year"`
	Models   int    `json:"models"`
	Manifest string `json:"manifest_sha256"`
}

// Info describes s.
func (s *Snapshot) Info() SnapshotInfo {
	i := SnapshotInfo{Date: s.Date, Compiled: s.Compiled, Retrieved: s.Retrieved, Models: len(s.Published),
		Manifest: s.files[format.ManifestPath].SHA256}
	if s.Grid != nil {
		y := s.GridYear
		i.GridYear = &y
	}
	return i
}

// ModelSummary is a model of a snapshot with its index rows.
type ModelSummary struct {
	Slug    string `json:"slug"`
	Name    string `json:"name"`
	ModelID string `json:"model_id"`
	// GPUs are the GPUs the model was measured on, in order.
	GPUs []string `json:"gpus"`
	// IndexRows holds each GPU's index row (the model file's best), by GPU.
	IndexRows []IndexRow `json:"index_rows"`
}

// IndexRow is a model's index row on one GPU, as published.
type IndexRow struct {
	GPU             string       `json:"gpu"`
	NumGPUs         int          `json:"num_gpus"`
	RowID           string       `json:"row_id"`
	WhPerMillion    format.Float `json:"wh_per_million_output_tokens"`
	AvgRunningBatch format.Float `json:"avg_running_batch"`
	MedianITL       format.Float `json:"median_itl_ms"`
}

// ModelList lists a snapshot's models.
type ModelList struct {
	Snapshot string         `json:"snapshot"`
	Unit     string         `json:"unit"`
	Models   []ModelSummary `json:"models"`
}

// ListModels lists s's models, by slug, each with its published index rows.
func (s *Snapshot) ListModels() *ModelList {
	l := &ModelList{Snapshot: s.Date, Unit: format.PrimaryTask().Unit, Models: make([]ModelSummary, 0, len(s.Models))}
	for _, m := range s.Models {
		l.Models = append(l.Models, ModelSummary{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, GPUs: m.GPUs, IndexRows: indexRows(m)})
	}
	return l
}

// indexRows returns m's index rows, by GPU.
func indexRows(m *format.Model) []IndexRow {
	rows := []IndexRow{}
	for _, gpu := range m.GPUs {
		b, ok := m.Best[gpu]
		if !ok {
			continue
		}
		rows = append(rows, IndexRow{GPU: gpu, NumGPUs: b.NumGPUs, RowID: b.RowID,
			WhPerMillion: b.WhPerMillion, AvgRunningBatch: b.AvgRunningBatch, MedianITL: b.MedianITL})
	}
	return rows
}

// FindModel finds a model by slug, name or model id (pricing.FindModel's
// rule). An unknown one is a NotFound error naming the nearest models; a
// blank one (spaces alone) is Invalid, a request naming no model.
func (s *Snapshot) FindModel(query string) (*format.Model, error) {
	return s.findIn(s.Models, query, "snapshot "+s.Date)
}

// findIn finds a model among models by pricing.FindModel's rule; an
// unknown one is a NotFound error saying it is not in scope ("snapshot
// 2026-09-27"), with the nearest models.
func (s *Snapshot) findIn(models []*format.Model, query, scope string) (*format.Model, error) {
	if err := checkName("model", query); err != nil {
		return nil, err
	}
	if strings.TrimSpace(query) == "" {
		return nil, invalid("model", query, "the model name is blank: a slug, name or model id is required")
	}
	m, err := pricing.FindModel(models, query)
	if err == nil {
		return m, nil
	}
	cands := make([][]string, len(models))
	for i, m := range models {
		cands[i] = []string{m.Slug, m.Name, m.ModelID}
	}
	q := strings.TrimSpace(query)
	return nil, &Error{Kind: NotFound, What: "model", Query: q, Nearest: nearestOf(q, cands),
		Detail: "no model " + strconv.Quote(q) + " in " + scope, Cause: err}
}

// GridList is the areas of a snapshot's grid.json that match a query.
type GridList struct {
	Snapshot string `json:"snapshot"`
	// Year is grid.json's reference year; each area carries its own.
	Year  int           `json:"year"`
	Unit  string        `json:"unit"`
	Areas []format.Area `json:"areas"`
}

// GridQuery selects areas of grid.json.
type GridQuery struct {
	// Text is part of an area's name or ISO 3 code, ignoring case, or a
	// code or name that pricing.Lookup finds an area by ("UK" lists the
	// United Kingdom, beside Ukraine); "" selects every area.
	Text string
	// Year, when not 0, selects the areas whose value is of that year.
	Year int
}

// ListGrids returns the areas that q selects, by name.
func (s *Snapshot) ListGrids(q GridQuery) (*GridList, error) {
	if s.Grid == nil {
		return nil, s.noGrid()
	}
	text := strings.ToLower(strings.TrimSpace(q.Text))
	named := "" // the area the text names, as a price request names it
	if text != "" {
		if a, err := pricing.Lookup(s.Grid, q.Text); err == nil {
			named = a.Name
		}
	}
	l := &GridList{Snapshot: s.Date, Year: s.Grid.Year, Unit: s.Grid.Unit, Areas: []format.Area{}}
	for _, a := range s.Grid.Areas {
		if (text == "" || strings.Contains(strings.ToLower(a.Name), text) || strings.Contains(strings.ToLower(a.ISO3), text) || a.Name == named) &&
			(q.Year == 0 || a.Year == q.Year) {
			l.Areas = append(l.Areas, a)
		}
	}
	return l, nil
}

func (s *Snapshot) noGrid() *Error {
	return &Error{Kind: NotFound, What: "grid", Query: format.GridPath,
		Detail: "snapshot " + s.Date + " has no grid.json (built without the Ember stage); state an intensity instead"}
}

// ModelBrief is a model in a few lines: what it is, its index rows and the
// source to cite, without its configurations (the model file has them).
type ModelBrief struct {
	Slug          string       `json:"slug"`
	Name          string       `json:"name"`
	ModelID       string       `json:"model_id"`
	ParamsB       format.Float `json:"params_b"`
	ActiveParamsB format.Float `json:"active_params_b"`
	Architecture  string       `json:"architecture"`
	Unit          string       `json:"unit"`
	Caveat        string       `json:"caveat"`
	GPUs          []string     `json:"gpus"`
	// Configurations is how many configurations the model file holds.
	Configurations int        `json:"configurations"`
	IndexRows      []IndexRow `json:"index_rows"`
	Source         SourceRef  `json:"source"`
}

// SourceRef names a model file's source: what to cite and its licence.
type SourceRef struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	URL     string `json:"url"`
	Licence string `json:"licence"`
	Cite    string `json:"cite"`
	CiteURL string `json:"cite_url"`
}

// Brief returns the brief of the published model slug; false when s has
// no such model.
func (s *Snapshot) Brief(slug string) (*ModelBrief, bool) {
	m, ok := s.Published[slug]
	if !ok {
		return nil, false
	}
	src := m.Source
	return &ModelBrief{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB,
		Architecture: m.Architecture, Unit: m.Unit, Caveat: m.Caveat, GPUs: m.GPUs, Configurations: len(m.Configurations),
		IndexRows: indexRows(m), Source: SourceRef{Name: src.Name, Version: src.Version, URL: src.URL, Licence: src.Licence,
			Cite: src.Cite, CiteURL: src.CiteURL}}, true
}

// ModelListBrief lists a snapshot's models in a few words each.
type ModelListBrief struct {
	Snapshot string      `json:"snapshot"`
	Unit     string      `json:"unit"`
	Models   []ModelItem `json:"models"`
}

// ModelItem is a model with each GPU's index row in one figure.
type ModelItem struct {
	Slug      string        `json:"slug"`
	Name      string        `json:"name"`
	IndexRows []IndexFigure `json:"index_rows"`
}

// IndexFigure is an index row's GPU, GPU count and Wh/M.
type IndexFigure struct {
	GPU          string       `json:"gpu"`
	NumGPUs      int          `json:"num_gpus"`
	WhPerMillion format.Float `json:"wh_per_million_output_tokens"`
}

// ListModelsBrief is ListModels in a few words per model: slug, name and
// each index row's GPU, GPU count and Wh/M.
func (s *Snapshot) ListModelsBrief() *ModelListBrief {
	full := s.ListModels()
	l := &ModelListBrief{Snapshot: full.Snapshot, Unit: full.Unit, Models: make([]ModelItem, 0, len(full.Models))}
	for _, m := range full.Models {
		it := ModelItem{Slug: m.Slug, Name: m.Name, IndexRows: make([]IndexFigure, 0, len(m.IndexRows))}
		for _, r := range m.IndexRows {
			it.IndexRows = append(it.IndexRows, IndexFigure{GPU: r.GPU, NumGPUs: r.NumGPUs, WhPerMillion: r.WhPerMillion})
		}
		l.Models = append(l.Models, it)
	}
	return l
}
