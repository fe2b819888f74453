package catalog

import (
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
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
		Manifest: s.files[ManifestPath].SHA256}
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
	// IndexRows holds each GPU's index row (the model file's best), by GPU.
	IndexRows []IndexRow `json:"index_rows"`
}

// IndexRow is a model's index row on one GPU, as published.
type IndexRow struct {
	GPU             string        `json:"gpu"`
	NumGPUs         int           `json:"num_gpus"`
	RowID           string        `json:"row_id"`
	WhPerMillion    jsonnum.Float `json:"wh_per_million_output_tokens"`
	AvgRunningBatch jsonnum.Float `json:"avg_running_batch"`
	MedianITL       jsonnum.Float `json:"median_itl_ms"`
}

// ModelList lists a snapshot's models.
type ModelList struct {
	Snapshot string         `json:"snapshot"`
	Unit     string         `json:"unit"`
	Models   []ModelSummary `json:"models"`
}

// ListModels lists s's models, by slug, each with its published index rows.
func (s *Snapshot) ListModels() *ModelList {
	l := &ModelList{Snapshot: s.Date, Unit: "Wh per million output tokens", Models: make([]ModelSummary, 0, len(s.Models))}
	for _, dm := range s.Models {
		m := s.Published[dm.Slug]
		ms := ModelSummary{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, IndexRows: []IndexRow{}}
		for _, gpu := range m.GPUs {
			b, ok := m.Best[gpu]
			if !ok {
				continue
			}
			ms.IndexRows = append(ms.IndexRows, IndexRow{GPU: gpu, NumGPUs: b.NumGPUs, RowID: b.RowID,
				WhPerMillion: b.WhPerMillion, AvgRunningBatch: b.AvgRunningBatch, MedianITL: b.MedianITL})
		}
		l.Models = append(l.Models, ms)
	}
	return l
}

// FindModel finds a model by slug, name or model id (transform.FindModel's
// rule). An unknown one is a NotFound error naming the nearest models.
func (s *Snapshot) FindModel(query string) (*transform.Model, error) {
	if err := checkName("model", query); err != nil {
		return nil, err
	}
	m, err := transform.FindModel(s.Models, query)
	if err == nil {
		return m, nil
	}
	cands := make([][]string, len(s.Models))
	for i, m := range s.Models {
		cands[i] = []string{m.Slug, m.Name, m.ModelID}
	}
	q := strings.TrimSpace(query)
	return nil, &Error{Kind: NotFound, What: "model", Query: q, Nearest: nearestOf(q, cands),
		Detail: "no model " + strconv.Quote(q) + " in snapshot " + s.Date}
}

// GridList is the areas of a snapshot's grid.json that match a query.
type GridList struct {
	Snapshot string `json:"snapshot"`
	// Year is grid.json's reference year; each area carries its own.
	Year  int         `json:"year"`
	Unit  string      `json:"unit"`
	Areas []grid.Area `json:"areas"`
}

// ListGrids returns the areas whose name or ISO 3 code contains query,
// ignoring case (every area when query is empty), by name.
func (s *Snapshot) ListGrids(query string) (*GridList, error) {
	if s.Grid == nil {
		return nil, s.noGrid()
	}
	q := strings.ToLower(strings.TrimSpace(query))
	l := &GridList{Snapshot: s.Date, Year: s.Grid.Year, Unit: s.Grid.Unit, Areas: []grid.Area{}}
	for _, a := range s.Grid.Areas {
		if q == "" || strings.Contains(strings.ToLower(a.Name), q) || strings.Contains(strings.ToLower(a.ISO3), q) {
			l.Areas = append(l.Areas, a)
		}
	}
	return l, nil
}

func (s *Snapshot) noGrid() *Error {
	return &Error{Kind: NotFound, What: "grid", Query: GridPath,
		Detail: "snapshot " + s.Date + " has no grid.json (built without the Ember stage); state an intensity instead"}
}
