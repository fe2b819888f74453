package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/snapshots"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
)

// Snapshot is one served snapshot, held in memory: the published files as
// bytes, and the models derived again from the archived upstream files
// (whose rows carry the unrounded figures prices start from).
type Snapshot struct {
	// Date is the folder name and data version.
	Date string
	// Dir is the snapshot's folder. Its files were checked when it was
	// loaded; one read from disk later must be checked again (the
	// published files are in memory: File).
	Dir string
	// Compiled and Retrieved are the manifest's compiled and retrieval
	// dates.
	Compiled, Retrieved string
	// GridYear is grid.json's reference year; 0 without grid.json.
	GridYear int
	// Grid is grid.json decoded; nil when the snapshot has none.
	Grid *grid.Grid
	// Models are the models derived from the archived sources, by slug.
	Models []*transform.Model
	// Published are the published model files decoded, by slug.
	Published map[string]*transform.Model

	files   map[string]*File
	sources []FileRef // the archived leaderboard files the models come from
}

// File is a published file of a snapshot: its bytes and their sha256.
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

// The archived leaderboard files the models are derived from.
var leaderboardSources = []string{
	"sources/leaderboard/index.json",
	"sources/leaderboard/commits.json",
	"sources/" + transform.TaskFile(transform.TaskChat),
}

// Paths of the published files other than the model files.
const (
	ManifestPath = snapshots.ManifestName
	IndexPath    = snapshots.IndexName
	GridPath     = snapshots.GridName
)

// ModelPath is the path of a model's file in a snapshot.
func ModelPath(slug string) string { return "models/" + slug + ".json" }

// File returns a published file by its path: ManifestPath, IndexPath,
// GridPath or ModelPath(slug); false when the snapshot has no such file.
// Paths are looked up, never joined to a folder.
func (s *Snapshot) File(path string) (*File, bool) {
	f, ok := s.files[path]
	return f, ok
}

// load checks the snapshot folder dir against its manifest and reads it
// into memory.
func load(dir, date string) (*Snapshot, error) {
	ls, err := snapshots.Load(dir)
	if err != nil {
		return nil, err
	}
	if ls.Manifest.Date != date {
		return nil, fmt.Errorf("snapshot %s: manifest date %q is not the folder's name", dir, ls.Manifest.Date)
	}
	return FromLoaded(ls)
}

// FromLoaded reads into memory a snapshot that snapshots.Load checked, for
// one command that prices or lists from it as the catalog does (whatever
// its folder's name).
func FromLoaded(ls *snapshots.Snapshot) (*Snapshot, error) {
	m, dir := ls.Manifest, ls.Dir
	s := &Snapshot{Date: m.Date, Dir: dir, Compiled: m.Evidence.Compiled, Retrieved: m.Retrieved,
		Published: map[string]*transform.Model{}, files: map[string]*File{}}
	// Load checked that manifest.json is in its canonical form: these are
	// its bytes.
	mb, err := transform.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %s: %w", dir, ManifestPath, err)
	}
	s.files[ManifestPath] = &File{Path: ManifestPath, Bytes: mb, SHA256: sum(mb)}
	read := func(path string) (*File, error) {
		b, ok := ls.Bytes(path)
		if !ok {
			return nil, fmt.Errorf("snapshot %s: %s is missing or no longer matches %s", dir, path, ManifestPath)
		}
		f := &File{Path: path, Bytes: append([]byte(nil), b...), SHA256: sum(b)}
		return f, nil
	}
	paths := []string{IndexPath}
	if ls.Grid != nil {
		paths = append(paths, GridPath)
	}
	for _, slug := range ls.Slugs() {
		paths = append(paths, ModelPath(slug))
	}
	for _, p := range paths {
		f, err := read(p)
		if err != nil {
			return nil, err
		}
		s.files[p] = f
	}
	if ls.Grid != nil {
		s.Grid, s.GridYear = ls.Grid, ls.Grid.Year
	}
	for _, slug := range ls.Slugs() {
		var pm transform.Model
		if err := json.Unmarshal(s.files[ModelPath(slug)].Bytes, &pm); err != nil {
			return nil, fmt.Errorf("snapshot %s: %s: %w", dir, ModelPath(slug), err)
		}
		s.Published[slug] = &pm
	}

	// The answers name the archived sources the models are derived from,
	// with the sha256 the manifest lists (DeriveModels reads them checked
	// against it).
	for _, p := range leaderboardSources {
		src := ls.Source(strings.TrimPrefix(p, "sources/"))
		if src == nil {
			return nil, fmt.Errorf("snapshot %s: %s is not in %s", dir, p, ManifestPath)
		}
		s.sources = append(s.sources, FileRef{p, src.SHA256})
	}
	if s.Models, err = ls.DeriveModels(); err != nil {
		return nil, fmt.Errorf("snapshot %s: archived sources: %w", dir, err)
	}
	sort.Slice(s.Models, func(i, j int) bool { return s.Models[i].Slug < s.Models[j].Slug })
	if err := s.agree(); err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	return s, nil
}

// agree checks that the models derived from the archived sources are the
// published ones, row for row: the same slugs, configurations (row_id and
// Wh/M) and index rows. A price is then the published row's.
func (s *Snapshot) agree() error {
	if len(s.Models) != len(s.Published) {
		return fmt.Errorf("the archived sources give %d models, the snapshot publishes %d", len(s.Models), len(s.Published))
	}
	for _, m := range s.Models {
		p, ok := s.Published[m.Slug]
		if !ok {
			return fmt.Errorf("the archived sources give model %q, which the snapshot does not publish", m.Slug)
		}
		if len(p.Configurations) != len(m.Configurations) {
			return fmt.Errorf("%s: %d configurations, the archived sources give %d", ModelPath(m.Slug), len(p.Configurations), len(m.Configurations))
		}
		for i, c := range m.Configurations {
			pc := p.Configurations[i]
			if pc.RowID != c.RowID || pc.WhPerMillion != c.WhPerMillion || pc.AvgRunningBatch != c.AvgRunningBatch {
				return fmt.Errorf("%s: configurations[%d] (%s) differs from the archived sources", ModelPath(m.Slug), i, pc.RowID)
			}
		}
		if len(p.Best) != len(m.Best) {
			return fmt.Errorf("%s: best differs from the archived sources", ModelPath(m.Slug))
		}
		for gpu, b := range m.Best {
			if p.Best[gpu].RowID != b.RowID {
				return fmt.Errorf("%s: best[%s] is %q, the archived sources give %q", ModelPath(m.Slug), gpu, p.Best[gpu].RowID, b.RowID)
			}
		}
	}
	return nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
