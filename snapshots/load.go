package snapshots

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
)

// Paths of the published files other than the model files.
const (
	// GridName is grid.json's path in a snapshot (present when the build
	// ran the Ember stage).
	GridName = grid.FileName
	// IndexName is index.json's path in a snapshot (present once the build
	// writes it).
	IndexName = transform.IndexName
	// modelsDir holds the model files.
	modelsDir = "models/"
)

// Snapshot is a snapshot folder read back: its manifest and its published
// files, decoded. Load returns it only when every file the manifest lists
// is there with the listed size and sha256.
type Snapshot struct {
	// Dir is the folder as given to Load.
	Dir      string
	Manifest *Manifest
	// Models holds the model files, by slug.
	Models map[string]*transform.Model
	// Grid is grid.json, nil when the snapshot has none.
	Grid *grid.Grid
	// Index is index.json, nil when the snapshot has none.
	Index *transform.IndexFile

	// raw holds the bytes of every listed output and every listed JSON
	// source, by slash path.
	raw map[string][]byte
}

// Load reads the snapshot folder dir (OUT/DATE/). It fails when
// manifest.json does not decode strictly or is not in its canonical form
// (the bytes transform.Marshal gives for the decoded manifest), when a file
// the manifest lists is missing or differs from its listed size or sha256,
// or when a published file does not decode. Errors wrap ErrValidation.
//
// Load does not look for files the manifest leaves out, nor recompute any
// figure: Verify does.
func Load(dir string) (*Snapshot, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: snapshot %s: %s", ErrValidation, dir, fmt.Sprintf(format, a...))
	}
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fail("%v", err)
	}
	m, err := decodeManifest(data)
	if err != nil {
		return nil, fail("%s: %v", ManifestName, err)
	}
	canonical, err := transform.Marshal(m)
	if err != nil {
		return nil, fail("%s: %v", ManifestName, err)
	}
	if !bytes.Equal(canonical, data) {
		return nil, fail("%s is not in its canonical form (the bytes written by the build); byte %d differs", ManifestName, firstDiff(canonical, data))
	}

	s := &Snapshot{Dir: dir, Manifest: m, Models: map[string]*transform.Model{}, raw: map[string][]byte{}}
	listed := make([]File, 0, len(m.Sources)+len(m.Outputs))
	for _, src := range m.Sources {
		listed = append(listed, src.File)
	}
	listed = append(listed, m.Outputs...)
	for _, f := range listed {
		if !fs.ValidPath(f.Path) || f.Path == ManifestName {
			return nil, fail("%s lists the path %q", ManifestName, f.Path)
		}
		keep := !strings.HasPrefix(f.Path, "sources/") || strings.HasSuffix(f.Path, ".json")
		b, got, err := readListed(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Path, keep)
		if err != nil {
			return nil, fail("%v", err)
		}
		if got.Size != f.Size || got.SHA256 != f.SHA256 {
			return nil, fail("%s: %d bytes, sha256 %s; %s lists %d bytes, sha256 %s", f.Path, got.Size, got.SHA256, ManifestName, f.Size, f.SHA256)
		}
		if keep {
			s.raw[f.Path] = b
		}
	}

	for _, f := range m.Outputs {
		b := s.raw[f.Path]
		switch {
		case strings.HasPrefix(f.Path, modelsDir) && strings.HasSuffix(f.Path, ".json"):
			var model transform.Model
			if err := json.Unmarshal(b, &model); err != nil {
				return nil, fail("%s: %v", f.Path, err)
			}
			if want := modelsDir + model.Slug + ".json"; want != f.Path {
				return nil, fail("%s: slug %q does not match the file name", f.Path, model.Slug)
			}
			s.Models[model.Slug] = &model
		case f.Path == GridName:
			var g grid.Grid
			if err := json.Unmarshal(b, &g); err != nil {
				return nil, fail("%s: %v", f.Path, err)
			}
			s.Grid = &g
		case f.Path == IndexName:
			var idx transform.IndexFile
			if err := json.Unmarshal(b, &idx); err != nil {
				return nil, fail("%s: %v", f.Path, err)
			}
			s.Index = &idx
		}
	}
	return s, nil
}

// Bytes returns the bytes of a listed output file, or of a listed JSON
// source, by its slash path ("models/qwen-3-32b.json",
// "sources/leaderboard/tasks/lm-arena-chat.json").
func (s *Snapshot) Bytes(path string) ([]byte, bool) {
	b, ok := s.raw[path]
	return b, ok
}

// Source returns the manifest's entry of the named upstream file
// ("leaderboard/index.json"), or nil.
func (s *Snapshot) Source(name string) *Source {
	for i := range s.Manifest.Sources {
		if s.Manifest.Sources[i].Name == name {
			return &s.Manifest.Sources[i]
		}
	}
	return nil
}

// Slugs returns the models' slugs, sorted.
func (s *Snapshot) Slugs() []string {
	slugs := make([]string, 0, len(s.Models))
	for slug := range s.Models {
		slugs = append(slugs, slug)
	}
	sort.Strings(slugs)
	return slugs
}

// decodeManifest decodes manifest.json strictly: no unknown field, nothing
// after the top-level value.
func decodeManifest(data []byte) (*Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the top-level value")
	}
	return &m, nil
}

// readListed hashes a file, returning its bytes too when keep is set.
func readListed(path, rel string, keep bool) ([]byte, File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, File{}, err
	}
	defer f.Close()
	h := sha256.New()
	var buf bytes.Buffer
	w := io.Writer(h)
	if keep {
		w = io.MultiWriter(h, &buf)
	}
	n, err := io.Copy(w, f)
	if err != nil {
		return nil, File{}, fmt.Errorf("reading %s: %w", rel, err)
	}
	return buf.Bytes(), File{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// firstDiff returns the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
