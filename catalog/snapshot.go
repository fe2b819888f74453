package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/validate"
)

// Snapshot is one served snapshot, held in memory: the published files and
// the archived JSON sources as bytes, checked once when it was loaded, and
// the published model files decoded, each configuration paired with the
// stable row of the archived task file behind it (whose unrounded figures
// prices start from). The archived Ember CSV (tens of megabytes) is checked
// at load and not held: no surface serves it.
type Snapshot struct {
	// Date is the folder name and data version.
	Date string
	// Compiled and Retrieved are the manifest's compiled and retrieval
	// dates.
	Compiled, Retrieved string
	// Manifest is manifest.json decoded.
	Manifest *format.Manifest
	// GridYear is grid.json's reference year; 0 without grid.json.
	GridYear int
	// Grid is grid.json decoded; nil when the snapshot has none.
	Grid *format.Grid
	// Models are the published model files decoded, sorted by slug.
	Models []*format.Model
	// Published are the same model files, by slug.
	Published map[string]*format.Model

	files   map[string]*File
	sources []FileRef // the archived leaderboard files the figures come from
	// rows holds, by slug, the archived upstream row behind each
	// configuration of the model file, in order.
	rows map[string][]*leaderboard.Row
	// tasks holds every task but the primary one that the snapshot has
	// files of, by task id.
	tasks map[string]*taskData
}

// File is a file of a snapshot held in memory: its bytes and their sha256.
type File struct {
	Path   string
	Bytes  []byte
	SHA256 string
}

// FileRef names a file of a snapshot by its path and sha256.
type FileRef struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// leaderboardSources are the archived leaderboard files a price names:
// the index, the commits that date it, and the primary task's file, whose
// stable rows the model files publish.
func leaderboardSources() []string {
	return []string{format.SourcePath(format.LeaderboardIndex), format.SourcePath(format.LeaderboardCommits),
		format.PrimaryTask().ArchivedPath()}
}

// ErrConflict is failure.ErrConflict, the same error value, for a surface
// that writes what it serves into a folder (the site): a folder it must not
// replace. The command exits 6 on it, as on a build's.
var ErrConflict = failure.ErrConflict

// File returns a file held in memory by its slash path: format.ManifestPath,
// format.IndexPath, format.GridPath, format.ModelPath(slug), or an archived JSON source
// ("sources/leaderboard/tasks/lm-arena-chat.json"); false when the snapshot
// has no such file. Paths are looked up, never joined to a folder.
func (s *Snapshot) File(path string) (*File, bool) {
	f, ok := s.files[path]
	return f, ok
}

// Paths lists the paths of the files held in memory, sorted.
func (s *Snapshot) Paths() []string {
	out := make([]string, 0, len(s.files))
	for p := range s.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// schemaOf names the JSON Schema (schemas/) a published file is checked
// against at load; "" for a file without one.
func schemaOf(path string) string {
	switch {
	case path == format.ManifestPath:
		return "manifest.schema.json"
	case path == format.IndexPath:
		return "index.schema.json"
	case path == format.GridPath:
		return "grid.schema.json"
	case strings.HasPrefix(path, format.ModelsDir):
		return "model.schema.json"
	case strings.HasPrefix(path, format.TasksDir) && strings.HasSuffix(path, "/index.json"):
		return "task-index.schema.json"
	case strings.HasPrefix(path, format.TasksDir):
		return "task-model.schema.json"
	}
	return ""
}

// FromLoaded reads into memory, as the catalog serves it, a release that
// store.Load checked (its files against the manifest): its files are
// checked against their schemas and its models derived, for a command that
// prices, lists or makes a site from it (carbon, list, site), whatever its
// folder's name. Its errors wrap failure.ErrValidation.
func FromLoaded(ls *store.Release) (*Snapshot, error) {
	s, err := fromLoaded(ls, "")
	return s, invalidSnapshot(ls.Name(), err)
}

// invalidSnapshot makes an error of loading the snapshot folder dir wrap
// failure.ErrValidation; nil stays nil.
func invalidSnapshot(dir string, err error) error {
	if err != nil && !errors.Is(err, failure.ErrValidation) {
		err = fmt.Errorf("%w: %s: %w", failure.ErrValidation, filepath.Base(dir), err)
	}
	return err
}

// fromLoaded is FromLoaded of a folder whose manifest's date must be date,
// unless date is "".
func fromLoaded(ls *store.Release, date string) (*Snapshot, error) {
	m := ls.Manifest
	if date == "" {
		date = m.Date
	} else if m.Date != date {
		return nil, fmt.Errorf("snapshot %s: manifest date %q is not the folder's name", date, m.Date)
	}
	s := &Snapshot{Date: date, Compiled: m.Evidence.Compiled, Retrieved: m.Retrieved, Manifest: m,
		Published: map[string]*format.Model{}, files: map[string]*File{}}
	// Load checked that manifest.json is in its canonical form: these are
	// its bytes.
	mb, err := format.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %s: %w", date, format.ManifestPath, err)
	}
	s.files[format.ManifestPath] = &File{Path: format.ManifestPath, Bytes: mb, SHA256: sum(mb)}
	paths := make([]string, 0, len(m.Outputs)+len(m.Sources))
	for _, f := range m.Outputs {
		paths = append(paths, f.Path)
	}
	for _, src := range m.Sources {
		if strings.HasSuffix(src.Path, ".json") {
			paths = append(paths, src.Path)
		}
	}
	rd := ls.Reader()
	for _, p := range paths {
		b, err := rd.ReadListed(p)
		if err != nil {
			return nil, fmt.Errorf("snapshot %s: %s is missing or no longer matches %s", date, p, format.ManifestPath)
		}
		s.files[p] = &File{Path: p, Bytes: append([]byte(nil), b...), SHA256: sum(b)}
	}
	for _, p := range append([]string{format.ManifestPath}, paths...) {
		if name := schemaOf(p); name != "" {
			if probs := validate.CheckSchema(name, p, s.files[p].Bytes); len(probs) > 0 {
				return nil, fmt.Errorf("snapshot %s: %s does not match schemas/%s: %s", date, p, name, probs[0])
			}
		}
	}
	if ls.Grid != nil {
		s.Grid, s.GridYear = ls.Grid, ls.Grid.Year
	}
	for _, slug := range ls.Slugs() {
		f, ok := s.files[format.ModelPath(slug)]
		if !ok {
			return nil, fmt.Errorf("snapshot %s: %s is not listed in %s", date, format.ModelPath(slug), format.ManifestPath)
		}
		var pm format.Model
		if err := json.Unmarshal(f.Bytes, &pm); err != nil {
			return nil, fmt.Errorf("snapshot %s: %s: %w", date, format.ModelPath(slug), err)
		}
		s.Published[slug] = &pm
		s.Models = append(s.Models, &pm)
	}

	// The answers name the archived sources the figures come from, with
	// the sha256 the manifest lists; the rows are read from the bytes held.
	for _, p := range leaderboardSources() {
		f, ok := s.files[p]
		if !ok {
			return nil, fmt.Errorf("snapshot %s: %s is not in %s", date, p, format.ManifestPath)
		}
		s.sources = append(s.sources, FileRef{p, f.SHA256})
	}
	primary := format.PrimaryTask()
	rows, err := leaderboard.TaskRows(primary.ID, s.files[primary.ArchivedPath()].Bytes)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: archived sources: %w", date, err)
	}
	if err := s.agree(rows); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", date, err)
	}
	if err := s.loadTasks(); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", date, err)
	}
	return s, nil
}

// agree pairs each configuration of the published model files with the
// stable row of the archived primary task file that its row id names, and
// checks that the two agree: the archived rows give the published models
// and no other, each its configurations (row_id, Wh/M and running batch
// the rounding of the row's) and its index rows (the index row rule on
// the unrounded rows). A price is then the published row's.
func (s *Snapshot) agree(rows map[string]*leaderboard.Row) error {
	perModel := map[string]int{} // slug -> stable rows; a row id starts SLUG/
	for id := range rows {
		slug, _, _ := strings.Cut(id, "/")
		perModel[slug]++
	}
	if len(perModel) != len(s.Published) {
		return fmt.Errorf("the archived sources give %d models, the snapshot publishes %d", len(perModel), len(s.Published))
	}
	for _, slug := range slices.Sorted(maps.Keys(perModel)) {
		if _, ok := s.Published[slug]; !ok {
			return fmt.Errorf("the archived sources give model %q, which the snapshot does not publish", slug)
		}
	}
	s.rows = make(map[string][]*leaderboard.Row, len(s.Models))
	for _, m := range s.Models {
		if n := perModel[m.Slug]; len(m.Configurations) != n {
			return fmt.Errorf("%s: %d configurations, the archived sources give %d", format.ModelPath(m.Slug), len(m.Configurations), n)
		}
		paired := make([]*leaderboard.Row, len(m.Configurations))
		for i, c := range m.Configurations {
			r := rows[c.RowID]
			if r == nil || r.ModelID != m.ModelID || format.Round(r.WhPerMillion(), 2) != c.WhPerMillion || format.Round(r.AvgBatch, 1) != c.AvgRunningBatch {
				return fmt.Errorf("%s: configurations[%d] (%s) differs from the archived sources", format.ModelPath(m.Slug), i, c.RowID)
			}
			paired[i] = r
		}
		var best []string // the GPUs with an index row, by the rule
		for _, gpu := range m.GPUs {
			i, ok := pricing.BestWith(m, paired, gpu, 0)
			if !ok {
				continue
			}
			best = append(best, gpu)
			if want := m.Configurations[i].RowID; m.Best[gpu].RowID != want {
				return fmt.Errorf("%s: best[%s] is %q, the archived sources give %q", format.ModelPath(m.Slug), gpu, m.Best[gpu].RowID, want)
			}
		}
		if len(m.Best) != len(best) {
			return fmt.Errorf("%s: best differs from the archived sources", format.ModelPath(m.Slug))
		}
		s.rows[m.Slug] = paired
	}
	return nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// sourcesOf names the archived leaderboard files a price of the task whose
// archived file is taskFile names: the index, the commits that date it,
// and the task's file.
func (s *Snapshot) sourcesOf(taskFile string) []FileRef {
	out := append([]FileRef(nil), s.sources[:2]...)
	return append(out, FileRef{taskFile, s.files[taskFile].SHA256})
}
