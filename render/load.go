// Package render builds a model's page, as one structure (Doc: headings,
// paragraphs, tables, figures) that both renderers share: the Markdown page
// (Render) and the site's HTML page (package site, beside it). It reads a
// snapshot folder alone: its published files (index.json,
// models/SLUG.json, grid.json) and the upstream task files it archives
// under sources/.
//
// Every figure on a page is rounded once, from an unrounded value. Ratios
// and percentages are index.json's (rounded once by the builder).
// Figures shown at another precision than the published files (Wh/M to 1
// decimal, running batch, latency and tokens per second to whole numbers)
// are rounded from the archived upstream row behind the configuration, never
// from the published, already rounded value: 39.05 Wh/M shows as 39.1
// because upstream has 39.0503, and a published 960.5 tokens a second shows
// as 961 because upstream has 960.54. The renderer checks that each
// configuration of the model file is the rounding of the archived row it
// names, so a page cannot mix the files of two snapshots.
package render

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
)

// Snapshot is what pages are rendered from: a snapshot's files, decoded.
// A model file is read when its page is rendered, and not kept.
type Snapshot struct {
	Index *format.IndexFile
	// Grid is grid.json; nil when the snapshot has none.
	Grid *format.Grid
	// Rows holds the archived task files' stable rows by task, then by row
	// id (leaderboard.TaskRows): the unrounded values behind the figures.
	Rows map[string]map[string]*leaderboard.Row

	// primary is the task whose rows the model files publish.
	primary format.Task
	// fsys holds the model files.
	fsys fs.FS
	// bySlug finds a model's entries in the index's lists; made once, on
	// the first page.
	bySlugOnce sync.Once
	bySlug     map[string]*modelEntries
	// areas caches pricing.Lookup of the display grids, which every page
	// shows (an unknown one costs an edit-distance search of every area).
	areasMu sync.Mutex
	areas   map[string]*format.Area // nil: not in grid.json
}

// area looks a display grid up in grid.json, once per query.
func (s *Snapshot) area(q string) (*format.Area, bool) {
	s.areasMu.Lock()
	defer s.areasMu.Unlock()
	if a, done := s.areas[q]; done {
		return a, a != nil
	}
	if s.areas == nil {
		s.areas = map[string]*format.Area{}
	}
	a, err := pricing.Lookup(s.Grid, q)
	if err != nil {
		s.areas[q] = nil
		return nil, false
	}
	s.areas[q] = &a
	return &a, true
}

// modelEntries are the positions of one model's entries in index.json.
type modelEntries struct {
	entry, gpuCmp int // -1 when none
	tasks, curves []int
}

// Load reads a snapshot from fsys (its root is the snapshot folder):
// index.json, grid.json when present, and the task files index.json names.
// The model files it lists are read one at a time, as their pages are
// rendered.
func Load(fsys fs.FS) (*Snapshot, error) {
	idx := &format.IndexFile{}
	if err := readJSON(fsys, format.IndexPath, idx); err != nil {
		return nil, err
	}
	if err := checkVersion(idx); err != nil {
		return nil, err
	}
	rows := map[string]map[string]*leaderboard.Row{}
	for _, t := range idx.Source.Tasks {
		data, err := readSource(fsys, t.File)
		if err != nil {
			return nil, err
		}
		r, err := leaderboard.TaskRows(t.Task, data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.File, err)
		}
		rows[t.Task] = r
	}
	return New(fsys, idx, rows)
}

// New is Load for a caller that holds index.json decoded and the stable
// rows of the task files it names (by task, then by row id, as
// leaderboard.TaskRows and leaderboard.RowIDs return them) already: a build,
// which has just written them into fsys. It reads grid.json, when present;
// the model files are read as their pages are rendered.
func New(fsys fs.FS, idx *format.IndexFile, rows map[string]map[string]*leaderboard.Row) (*Snapshot, error) {
	if err := checkVersion(idx); err != nil {
		return nil, err
	}
	s := &Snapshot{Index: idx, Rows: map[string]map[string]*leaderboard.Row{}, fsys: fsys, primary: format.PrimaryTask()}
	g := &format.Grid{}
	switch err := readJSON(fsys, format.GridPath, g); {
	case err == nil:
		s.Grid = g
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	for _, t := range idx.Source.Tasks {
		r, ok := rows[t.Task]
		if !ok {
			return nil, fmt.Errorf("%s: no stable rows of %s", t.File, t.Task)
		}
		if len(r) != t.StableConfigurations {
			return nil, fmt.Errorf("%s: %d stable rows, but %s says %d", t.File, len(r), format.IndexPath, t.StableConfigurations)
		}
		s.Rows[t.Task] = r
	}
	if s.Rows[s.primary.ID] == nil {
		return nil, fmt.Errorf("%s: source.tasks names no %s task file", format.IndexPath, s.primary.ID)
	}
	return s, nil
}

func checkVersion(idx *format.IndexFile) error {
	if idx.Version != format.FormatVersion {
		return fmt.Errorf("%s: version %q; this renderer reads version %q", format.IndexPath, idx.Version, format.FormatVersion)
	}
	return nil
}

// model reads the model file of an index entry.
func (s *Snapshot) model(e *format.IndexEntry) (*format.Model, error) {
	m := &format.Model{}
	if err := readJSON(s.fsys, e.File, m); err != nil {
		return nil, err
	}
	if m.Slug != e.Slug {
		return nil, fmt.Errorf("%s: slug %q, but %s lists it as %q", e.File, m.Slug, format.IndexPath, e.Slug)
	}
	return m, nil
}

// entries returns the positions of a model's entries in the index's lists:
// its last entry in models and gpu_comparisons, and all of its task
// comparisons and load curves, in order.
func (s *Snapshot) entries(slug string) *modelEntries {
	s.bySlugOnce.Do(func() {
		s.bySlug = make(map[string]*modelEntries, len(s.Index.Models))
		get := func(slug string) *modelEntries {
			e := s.bySlug[slug]
			if e == nil {
				e = &modelEntries{entry: -1, gpuCmp: -1}
				s.bySlug[slug] = e
			}
			return e
		}
		for i := range s.Index.Models {
			get(s.Index.Models[i].Slug).entry = i
		}
		for i := range s.Index.GPUComparisons {
			get(s.Index.GPUComparisons[i].Slug).gpuCmp = i
		}
		for i := range s.Index.TaskComparisons {
			e := get(s.Index.TaskComparisons[i].Slug)
			e.tasks = append(e.tasks, i)
		}
		for i := range s.Index.LoadCurves {
			e := get(s.Index.LoadCurves[i].Slug)
			e.curves = append(e.curves, i)
		}
	})
	if e := s.bySlug[slug]; e != nil {
		return e
	}
	return &modelEntries{entry: -1, gpuCmp: -1}
}

// readJSON decodes one published file strictly: an unknown key means a
// format this renderer does not know. (encoding/json/v2's decoder, from
// github.com/go-json-experiment/json: a third of encoding/json's time on a
// model file; it refuses what the published files never hold besides,
// a repeated key, invalid UTF-8 and a key in other case.)
func readJSON(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if err := jsonv2.Unmarshal(data, v, jsonv2.RejectUnknownMembers(true)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// readSource reads an archived file.
func readSource(fsys fs.FS, name string) ([]byte, error) { return fs.ReadFile(fsys, name) }

// row returns the archived row behind a published configuration and checks
// that the configuration is its rounding.
func (s *Snapshot) row(task, file string, id string, j format.Float, batch format.Float) (*leaderboard.Row, error) {
	r := s.Rows[task][id]
	if r == nil {
		return nil, fmt.Errorf("%s: row %s is not among the stable rows of the archived %s task file", file, id, task)
	}
	if format.Round(*r.EnergyPerToken, 7) != j || format.Round(r.AvgBatch, 1) != batch {
		return nil, fmt.Errorf("%s: row %s is not the rounding of %s configurations[%d]: the snapshot's files disagree", file, id, format.LeaderboardTask(task), r.Index)
	}
	return r, nil
}

// Entry returns a model's entry in index.json's models (its last, as the
// model page reads it); nil when the index lists no such model.
func (s *Snapshot) Entry(slug string) *format.IndexEntry {
	if i := s.entries(slug).entry; i >= 0 {
		return &s.Index.Models[i]
	}
	return nil
}

// IndexRow returns the archived row behind an index entry's row on gpu,
// checking that the published figures are its rounding.
func (s *Snapshot) IndexRow(e *format.IndexEntry, gpu string) (*leaderboard.Row, error) {
	c, ok := e.Best[gpu]
	if !ok {
		return nil, fmt.Errorf("%s: %s has no index row on %s", format.IndexPath, e.Slug, gpu)
	}
	return s.row(s.primary.ID, format.IndexPath, c.RowID, c.JoulesPerToken, c.AvgRunningBatch)
}

// Ref returns the archived row behind a row reference of index.json in a
// task, by its id ("lm-arena-chat", "gpqa"), checking that the published
// figures are its rounding.
func (s *Snapshot) Ref(task string, r format.RowRef) (*leaderboard.Row, error) {
	return s.row(task, format.IndexPath, r.RowID, r.JoulesPerToken, r.AvgRunningBatch)
}
