// Package page renders a model's page, Markdown, from a snapshot folder
// alone: its published files (index.json, models/SLUG.json, grid.json) and
// the upstream task files it archives under sources/.
//
// Every figure on a page is rounded once, from an unrounded value. Ratios
// and percentages are index.json's (rounded once by transform.BuildIndex).
// Figures shown at another precision than the published files (Wh/M to 1
// decimal, running batch, latency and tokens per second to whole numbers)
// are rounded from the archived upstream row behind the configuration, never
// from the published, already rounded value: 39.05 Wh/M shows as 39.1
// because upstream has 39.0503, and a published 960.5 tokens a second shows
// as 961 because upstream has 960.54. The renderer checks that each
// configuration of the model file is the rounding of the archived row it
// names, so a page cannot mix the files of two snapshots.
package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
)

// Snapshot is what pages are rendered from: a snapshot's files, decoded.
type Snapshot struct {
	Index *transform.IndexFile
	// Models holds the model files, by slug.
	Models map[string]*transform.Model
	// Grid is grid.json; nil when the snapshot has none.
	Grid *grid.Grid
	// Rows holds the archived task files' stable rows by task, then by row
	// id (transform.TaskRows): the unrounded values behind the figures.
	Rows map[string]map[string]*transform.Row
}

// LoadDir reads the snapshot folder dir.
func LoadDir(dir string) (*Snapshot, error) { return Load(os.DirFS(dir)) }

// Load reads a snapshot from fsys (its root is the snapshot folder):
// index.json, every model file it lists, grid.json when present, and the
// task files index.json names.
func Load(fsys fs.FS) (*Snapshot, error) {
	s := &Snapshot{Models: map[string]*transform.Model{}, Rows: map[string]map[string]*transform.Row{}}
	s.Index = &transform.IndexFile{}
	if err := readJSON(fsys, transform.IndexName, s.Index); err != nil {
		return nil, err
	}
	if s.Index.Version != transform.FormatVersion {
		return nil, fmt.Errorf("%s: version %q; this renderer reads version %q", transform.IndexName, s.Index.Version, transform.FormatVersion)
	}
	for _, e := range s.Index.Models {
		m := &transform.Model{}
		if err := readJSON(fsys, e.File, m); err != nil {
			return nil, err
		}
		if m.Slug != e.Slug {
			return nil, fmt.Errorf("%s: slug %q, but %s lists it as %q", e.File, m.Slug, transform.IndexName, e.Slug)
		}
		s.Models[e.Slug] = m
	}
	g := &grid.Grid{}
	switch err := readJSON(fsys, grid.FileName, g); {
	case err == nil:
		s.Grid = g
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	for _, t := range s.Index.Source.Tasks {
		data, err := readSource(fsys, t.File)
		if err != nil {
			return nil, err
		}
		rows, err := transform.TaskRows(t.Task, data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.File, err)
		}
		if len(rows) != t.StableConfigurations {
			return nil, fmt.Errorf("%s: %d stable rows, but %s says %d", t.File, len(rows), transform.IndexName, t.StableConfigurations)
		}
		s.Rows[t.Task] = rows
	}
	if s.Rows[transform.TaskChat] == nil {
		return nil, fmt.Errorf("%s: source.tasks names no %s task file", transform.IndexName, transform.TaskChat)
	}
	return s, nil
}

// readJSON decodes one published file strictly: an unknown key means a
// format this renderer does not know.
func readJSON(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if dec.More() {
		return fmt.Errorf("%s: data after the top-level value", name)
	}
	return nil
}

// readSource reads an archived file.
func readSource(fsys fs.FS, name string) ([]byte, error) { return fs.ReadFile(fsys, name) }

// row returns the archived row behind a published configuration and checks
// that the configuration is its rounding.
func (s *Snapshot) row(task, file string, id string, j jsonnum.Float, batch jsonnum.Float) (*transform.Row, error) {
	r := s.Rows[task][id]
	if r == nil {
		return nil, fmt.Errorf("%s: row %s is not among the stable rows of the archived %s task file", file, id, task)
	}
	if jsonnum.Round(*r.EnergyPerToken, 7) != j || jsonnum.Round(r.AvgBatch, 1) != batch {
		return nil, fmt.Errorf("%s: row %s is not the rounding of %s configurations[%d]: the snapshot's files disagree", file, id, transform.TaskFile(task), r.Index)
	}
	return r, nil
}
