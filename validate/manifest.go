package validate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// ManifestPath is the manifest's path in a snapshot folder.
const ManifestPath = "manifest.json"

// Manifest is manifest.json as this package reads it: a mirror of
// format.Manifest, declared here so that a field added on one side
// only is caught (unknown fields are refused).
type Manifest struct {
	Version    string              `json:"version"`
	Date       string              `json:"date"`
	Retrieved  string              `json:"retrieved"`
	Licence    *ManifestLicence    `json:"licence,omitempty"`
	Generator  ManifestGenerator   `json:"generator"`
	Selection  ManifestSelection   `json:"selection"`
	Sources    []ManifestSource    `json:"sources"`
	Outputs    []ManifestFile      `json:"outputs"`
	Evidence   ManifestEvidence    `json:"evidence"`
	Exclusions []ManifestExclusion `json:"exclusions"`
	Grid       *ManifestGrid       `json:"grid,omitempty"`
}

// ManifestLicence is the index's own licence, with its attribution.
type ManifestLicence struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	URL         string `json:"url"`
	Scope       string `json:"scope"`
	Attribution string `json:"attribution"`
}

// ManifestGenerator is the code that wrote the snapshot.
type ManifestGenerator struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Revision string `json:"revision"`
	Modified bool   `json:"modified"`
	Go       string `json:"go"`
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
	FinalURL  string `json:"final_url,omitempty"`
	Retrieved string `json:"retrieved"`
	Producer  string `json:"producer"`
	Licence   string `json:"licence"`
	// Layout and Header: Ember's CSV in its July 2026 layout only.
	Layout string   `json:"layout,omitempty"`
	Header []string `json:"header,omitempty"`
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
	MaxNumSeqs int    `json:"max_num_seqs,omitempty"` // a token task's row
	BatchSize  int    `json:"batch_size,omitempty"`   // a diffusion task's row
	Reason     string `json:"reason"`
}

// ManifestGrid is the manifest's grid block.
type ManifestGrid struct {
	Year             int                     `json:"year"`
	Areas            int                     `json:"areas"`
	AreasWithoutYear int                     `json:"areas_without_year"`
	Fallbacks        int                     `json:"fallbacks"`
	YearRule         string                  `json:"year_rule"`
	YearPinned       bool                    `json:"year_pinned"`
	YearCandidates   []ManifestGridYear      `json:"year_candidates"`
	Exclusions       []ManifestGridExclusion `json:"exclusions"`
}

// ManifestGridYear is what the reference-year rule saw of one year.
type ManifestGridYear struct {
	Year                int  `json:"year"`
	World               bool `json:"world"`
	Countries           int  `json:"countries"`
	CountriesYearBefore int  `json:"countries_year_before"`
	Complete            bool `json:"complete"`
}

// ManifestGridExclusion is an Ember intensity row the build left out.
type ManifestGridExclusion struct {
	Area   string `json:"area"`
	ISO3   string `json:"iso3"`
	Year   int    `json:"year"`
	Line   int    `json:"line"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

var dateFolder = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// Bounds of manifest.json, held before it is decoded: its size, and the
// length of each string of its generator (format.MaxManifestBytes and
// format.MaxGeneratorBytes, mirrored).
const (
	manifestMaxBytes     = 16 << 20
	manifestMaxGenerator = 256
)

// decodeManifest decodes manifest.json strictly, or else leniently so that
// the other checks can run; nil when it cannot be decoded at all, or is
// over manifestMaxBytes (then it is not read, or read no further than the
// bound). It checks the generator's shape (CheckGenerator) as it goes.
func decodeManifest(s *snap) (*Manifest, []Problem) {
	mp := &problems{file: ManifestPath}
	b, err := readManifestBounded(s)
	if err != nil {
		mp.add("", "", "cannot be read: %v", err)
		return nil, mp.list
	}
	if b == nil {
		mp.add("", "", "is over the %d MiB bound on its size; not read", manifestMaxBytes>>20)
		return nil, mp.list
	}
	long := manifestLongGenerator(mp, b)
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		m = Manifest{}
		if err2 := json.Unmarshal(b, &m); err2 != nil {
			mp.add("", "", "cannot be decoded: %v", err2)
			return nil, mp.list
		}
		mp.add("", "", "does not decode strictly: %v", err)
	} else if dec.More() {
		mp.add("", "", "has data after the top-level value")
	}
	if base := filepath.Base(filepath.Clean(s.name)); dateFolder.MatchString(base) && base != m.Date {
		mp.add("", "date", "is %s, but the snapshot folder is named %s", m.Date, base)
	}
	if long { // its shape is not checked: the check would quote the string
		return &m, mp.list
	}
	return &m, append(mp.list, CheckGenerator(m.Generator)...)
}

// readManifestBounded reads manifest.json whole when it is at most
// manifestMaxBytes, else returns nil: unread when its size says so, read
// no further than one byte past the bound when it does not.
func readManifestBounded(s *snap) ([]byte, error) {
	f, err := s.open(ManifestPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() > manifestMaxBytes {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, manifestMaxBytes+1))
	if err != nil || len(b) > manifestMaxBytes {
		return nil, err
	}
	return b, nil
}

// manifestLongGenerator adds a problem for each string of the manifest's
// generator over manifestMaxGenerator bytes of JSON, read raw (never
// unquoted), and reports whether it found one; what does not decode is
// decodeManifest's to report.
func manifestLongGenerator(mp *problems, b []byte) (long bool) {
	var raw struct {
		Generator struct{ Module, Version, Revision, Go json.RawMessage }
	}
	_ = json.Unmarshal(b, &raw)
	g := raw.Generator
	for _, f := range []struct {
		name  string
		value json.RawMessage
	}{{"module", g.Module}, {"version", g.Version}, {"revision", g.Revision}, {"go", g.Go}} {
		if n := len(f.value) - 2; n > manifestMaxGenerator && f.value[0] == '"' {
			mp.add("", "generator."+f.name, "is %d bytes of JSON, over the %d-byte bound", n, manifestMaxGenerator)
			long = true
		}
	}
	return long
}

// checkFiles checks the manifest's listing against the folder: every file
// but manifest.json listed once, in the right list, with its size and
// SHA-256, and both lists sorted by path.
func checkFiles(s *snap) []Problem {
	m := s.manifest
	mp := &problems{file: ManifestPath}
	var out []Problem
	listed := map[string]string{} // path → where it is listed

	entry := func(where string, f ManifestFile, wantSource bool) {
		p := f.Path
		prev, dup := listed[p]
		switch isSource := strings.HasPrefix(p, sourcesPrefix); {
		case !cleanPath(p):
			mp.add(where, "path", "%q is not a clean slash path relative to the snapshot folder", p)
			return
		case dup:
			mp.add(where, "path", "%s is listed twice (also at %s)", p, prev)
			return
		case p == ManifestPath:
			mp.add(where, "path", "lists manifest.json, which never lists itself")
			return
		case wantSource && !isSource:
			mp.add(where, "path", "%s is a source but not under sources/", p)
		case !wantSource && isSource:
			mp.add(where, "path", "%s is under sources/ but listed as an output", p)
		}
		listed[p] = where
		if !s.present(p) {
			out = append(out, Problem{File: p, Msg: fmt.Sprintf("is listed in manifest.json %s but missing from the snapshot folder", where)})
			return
		}
		n, h, err := hashFile(s, p)
		if err != nil {
			out = append(out, cannotRead(p, err))
			return
		}
		if n != f.Size {
			mp.add(where+" ("+p+")", "size", "is %d, but the file on disk has %d bytes", f.Size, n)
		}
		if h != f.SHA256 {
			mp.add(where+" ("+p+")", "sha256", "is %s, but the file on disk hashes to %s", f.SHA256, h)
		}
	}

	for i, src := range m.Sources {
		where := fmt.Sprintf("sources[%d]", i)
		entry(where, src.ManifestFile, true)
		if want := sourcesPrefix + src.Name; src.Path != want {
			mp.add(where, "name", "is %q, but its path is %q (want %q)", src.Name, src.Path, want)
		}
		// Who publishes an upstream file, and under what terms, is the
		// reviewed text of its source.
		producer, licence := s.text.Leaderboard.Producer, s.text.Leaderboard.Licence
		if strings.HasPrefix(src.Name, "ember/") {
			producer, licence = s.text.Ember.Producer, s.text.Ember.Licence
		}
		for _, f := range [][3]string{{"producer", src.Producer, producer}, {"licence", src.Licence, licence}} {
			if f[1] != f[2] {
				mp.add(where+" ("+src.Path+")", f[0], "is %q, but the reviewed text (internal/sourcetext) is %q", f[1], f[2])
			}
		}
	}
	for i, f := range m.Outputs {
		entry(fmt.Sprintf("outputs[%d]", i), f, false)
	}
	checkLicence(mp, m.Licence, m.Date, s.text)
	if !sort.SliceIsSorted(m.Sources, func(i, j int) bool { return m.Sources[i].Path < m.Sources[j].Path }) {
		mp.add("", "sources", "is not sorted by path")
	}
	if !sort.SliceIsSorted(m.Outputs, func(i, j int) bool { return m.Outputs[i].Path < m.Outputs[j].Path }) {
		mp.add("", "outputs", "is not sorted by path")
	}
	for _, p := range s.files {
		if _, ok := listed[p]; !ok {
			kind := "outputs"
			if strings.HasPrefix(p, sourcesPrefix) {
				kind = "sources"
			}
			out = append(out, Problem{File: p, Msg: fmt.Sprintf("is in the snapshot folder but not listed in manifest.json %s", kind)})
		}
	}
	return append(mp.list, out...)
}

// hashFile returns the size and hex SHA-256 of the file at slash path p.
func hashFile(s *snap, p string) (int64, string, error) {
	f, err := s.open(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return n, hex.EncodeToString(h.Sum(nil)), err
}

// checkLicence holds the manifest's licence block to the reviewed text
// (sourcetext's licence.json), its attribution to the pages' cite_as for
// the release of date; a value that differs is shown around its first
// difference (stringDiff), never whole.
func checkLicence(mp *problems, l *ManifestLicence, date string, text *sourcetext.Text) {
	t, pg := text.Licence, text.Pages
	if l == nil {
		mp.add("", "licence", "is missing: a snapshot records the index's own licence, %s (internal/sourcetext)", t.ID)
		return
	}
	cite, err := fill(pg.CiteAs, map[string]string{"publisher": pg.Publisher, "title": pg.Title, "index_url": pg.IndexURL,
		"release": date, "year": date[:min(4, len(date))]})
	if err != nil {
		mp.add("", "licence", "cannot be recomputed: %v", err)
		return
	}
	want := ManifestLicence{ID: t.ID, Name: t.Name, URL: t.URL, Scope: t.Scope, Attribution: cite}
	compareBlock(mp, "licence", l, &want, func(key string) string {
		if key == "attribution" {
			return " (internal/sourcetext: the pages' cite_as, for release " + date + ")"
		}
		return " (internal/sourcetext: licence.json)"
	})
}
