package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// ManifestPath is the manifest's path in a snapshot folder.
const ManifestPath = "manifest.json"

// Manifest is manifest.json as this package reads it. It mirrors
// snapshots.Manifest field for field but is declared here, so that
// snapshots/ can import this package and so that a field added on one side
// only is caught (the manifest is decoded with unknown fields disallowed,
// and manifest.schema.json has additionalProperties false).
type Manifest struct {
	Version    string              `json:"version"`
	Date       string              `json:"date"`
	Retrieved  string              `json:"retrieved"`
	Generator  string              `json:"generator"`
	Selection  ManifestSelection   `json:"selection"`
	Sources    []ManifestSource    `json:"sources"`
	Outputs    []ManifestFile      `json:"outputs"`
	Evidence   ManifestEvidence    `json:"evidence"`
	Exclusions []ManifestExclusion `json:"exclusions"`
	Grid       *ManifestGrid       `json:"grid,omitempty"`
}

// ManifestSelection is the manifest's selection block.
type ManifestSelection struct {
	ITLDeadlineMS         int      `json:"itl_deadline_ms"`
	MinSteadyStateSeconds float64  `json:"min_steady_state_seconds"`
	MinBatchFraction      float64  `json:"min_batch_fraction"`
	Tasks                 []string `json:"tasks"`
}

// ManifestFile is one listed file: slash path relative to the snapshot
// folder, size and lower-case hex SHA-256 of its bytes on disk.
type ManifestFile struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ManifestSource is one archived upstream file.
type ManifestSource struct {
	ManifestFile
	Name      string `json:"name"`
	URL       string `json:"url"`
	Retrieved string `json:"retrieved"`
	Producer  string `json:"producer"`
	Licence   string `json:"licence"`
}

// ManifestEvidence is the manifest's evidence block.
type ManifestEvidence struct {
	IndexLastUpdated string `json:"index_last_updated"`
	LastCommitSHA    string `json:"last_commit_sha"`
	LastCommitDate   string `json:"last_commit_date"`
	Compiled         string `json:"compiled"`
	Conflict         string `json:"conflict,omitempty"`
}

// ManifestExclusion is one upstream row the stability filter excluded.
type ManifestExclusion struct {
	Task       string `json:"task"`
	Row        int    `json:"row"`
	ModelID    string `json:"model_id"`
	GPU        string `json:"gpu"`
	NumGPUs    int    `json:"num_gpus"`
	MaxNumSeqs int    `json:"max_num_seqs"`
	Reason     string `json:"reason"`
}

// ManifestGrid is the manifest's grid block.
type ManifestGrid struct {
	Year             int `json:"year"`
	Areas            int `json:"areas"`
	AreasWithoutYear int `json:"areas_without_year"`
}

// Snap is an opened snapshot folder, handed to every check.
type Snap struct {
	// Dir is the snapshot folder.
	Dir string
	// Manifest is the decoded manifest.json. Checks run only when it could
	// be decoded, so it is never nil inside a check.
	Manifest *Manifest
	// Files lists every regular file under Dir except manifest.json, as
	// slash-separated paths relative to Dir, sorted.
	Files []string

	cache map[string][]byte
}

// Read returns the bytes of the file at the slash path p relative to the
// snapshot folder. Bytes are read once and kept.
func (s *Snap) Read(p string) ([]byte, error) {
	if b, ok := s.cache[p]; ok {
		return b, nil
	}
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("%q is not a valid snapshot path", p)
	}
	b, err := os.ReadFile(filepath.Join(s.Dir, filepath.FromSlash(p)))
	if err != nil {
		return nil, err
	}
	if s.cache == nil {
		s.cache = map[string][]byte{}
	}
	s.cache[p] = b
	return b, nil
}

// Open streams the file at the slash path p, for files too large to hold
// whole (the archived Ember CSV). It does not use or fill Read's cache.
func (s *Snap) Open(p string) (*os.File, error) {
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("%q is not a valid snapshot path", p)
	}
	return os.Open(filepath.Join(s.Dir, filepath.FromSlash(p)))
}

// Source returns the manifest's source entry with the given upstream name
// ("leaderboard/index.json"), or nil.
func (s *Snap) Source(name string) *ManifestSource {
	for i := range s.Manifest.Sources {
		if s.Manifest.Sources[i].Name == name {
			return &s.Manifest.Sources[i]
		}
	}
	return nil
}

// Output returns the manifest's output entry with the given path, or nil.
func (s *Snap) Output(p string) *ManifestFile {
	for i := range s.Manifest.Outputs {
		if s.Manifest.Outputs[i].Path == p {
			return &s.Manifest.Outputs[i]
		}
	}
	return nil
}

// OnDisk reports whether the file at slash path p exists in the folder
// (manifest.json excluded).
func (s *Snap) OnDisk(p string) bool {
	i := sort.SearchStrings(s.Files, p)
	return i < len(s.Files) && s.Files[i] == p
}

// Check is one check of a snapshot. It returns the problems it finds; the
// Problem's File is a slash path relative to the snapshot folder.
type Check func(s *Snap) []Problem

type namedCheck struct {
	name string
	run  Check
}

var registry struct {
	sync.Mutex
	checks []namedCheck
}

// Register adds a check that Snapshot runs on every snapshot, after the
// built-in ones (manifest, schemas, leaderboard), in registration order.
// Call it from an init function; a name may be registered only once.
func Register(name string, c Check) {
	registry.Lock()
	defer registry.Unlock()
	for _, nc := range registry.checks {
		if nc.name == name {
			panic("validate: check " + name + " registered twice")
		}
	}
	registry.checks = append(registry.checks, namedCheck{name, c})
}

// builtin are the checks every snapshot gets, in order.
var builtin = []namedCheck{
	{"manifest", checkFiles},
	{"schemas", checkSchemas},
	{"leaderboard", checkLeaderboard},
}

func allChecks() []namedCheck {
	registry.Lock()
	defer registry.Unlock()
	return append(append([]namedCheck(nil), builtin...), registry.checks...)
}

var dateFolder = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// Snapshot checks the snapshot folder dir (snapshots/DATE/): its manifest,
// every file against the manifest and its schema, and every derived figure
// against its recomputation from the archived sources. It returns nil when
// all is well, else a *Report listing every problem found.
func Snapshot(dir string) error {
	s, probs := open(dir)
	if s.Manifest != nil {
		for _, c := range allChecks() {
			probs = append(probs, c.run(s)...)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return &Report{Dir: dir, Problems: probs}
}

// open lists the folder and decodes the manifest.
func open(dir string) (*Snap, []Problem) {
	s := &Snap{Dir: dir}
	ps := &problems{file: "."}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			ps.list = append(ps.list, Problem{File: rel, Msg: "is not a regular file (a snapshot holds regular files only)"})
		case rel != ManifestPath:
			s.Files = append(s.Files, rel)
		}
		return nil
	})
	if err != nil {
		ps.add("", "", "cannot list the snapshot folder: %v", err)
		return s, ps.list
	}
	sort.Strings(s.Files)

	mp := &problems{file: ManifestPath}
	b, err := s.Read(ManifestPath)
	if err != nil {
		mp.add("", "", "cannot be read: %v", err)
		return s, append(ps.list, mp.list...)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		// Try again leniently so the other checks can run; the schema
		// check names the offending key.
		m = Manifest{}
		if err2 := json.Unmarshal(b, &m); err2 != nil {
			mp.add("", "", "cannot be decoded: %v", err2)
			return s, append(ps.list, mp.list...)
		}
		mp.add("", "", "does not decode strictly: %v", err)
	} else if dec.More() {
		mp.add("", "", "has data after the top-level value")
	}
	s.Manifest = &m
	if base := filepath.Base(filepath.Clean(dir)); dateFolder.MatchString(base) && base != m.Date {
		mp.add("", "date", "is %s, but the snapshot folder is named %s", m.Date, base)
	}
	return s, append(ps.list, mp.list...)
}

// sourcesPrefix is where archived upstream files live in a snapshot.
const sourcesPrefix = "sources/"

// sourcePath is the snapshot path of an upstream file name.
func sourcePath(name string) string { return sourcesPrefix + name }

// cleanPath reports whether p is a slash path relative to the snapshot
// folder with no empty, "." or ".." element.
func cleanPath(p string) bool {
	return fs.ValidPath(p) && p != "." && !strings.Contains(p, `\`) && path.Clean(p) == p
}
