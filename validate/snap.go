package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/leadgreen/greentokens/internal/regfile"
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
	Generator  ManifestGenerator   `json:"generator"`
	Selection  ManifestSelection   `json:"selection"`
	Sources    []ManifestSource    `json:"sources"`
	Outputs    []ManifestFile      `json:"outputs"`
	Evidence   ManifestEvidence    `json:"evidence"`
	Exclusions []ManifestExclusion `json:"exclusions"`
	Grid       *ManifestGrid       `json:"grid,omitempty"`
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
	MaxNumSeqs int    `json:"max_num_seqs"`
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

	// ctx ends the checks early (a signal): every read fails once it is
	// done.
	ctx context.Context

	// tasks holds the archived task files parsed so far, by task and
	// snapshot path: each is read and parsed once per Snapshot call, and
	// its rows shared by the checks that recompute from it (Snap.task).
	tasks onceEach[*taskData]

	// early is what a build's Early read of the sources, by slash path;
	// nil outside a build. earlyOutputs are the outputs it found valid
	// against their schemas as they were written (Early.Output), and
	// earlyTasks the task files it parsed (Early.Task).
	early        map[string]*earlyFile
	earlyOutputs map[string]earlyOutput
	earlyTasks   map[string]*earlyTask

	// checked are the values the schema checks' fast pass found valid
	// (checkonce.go); nil: no fast pass.
	checked *checkedValues

	// hashes are the files hashed so far (hashOf), shared by the checks.
	hashes onceEach[hashed]
}

// Read returns the bytes of the regular file at the slash path p relative
// to the snapshot folder. Nothing is kept: a snapshot of many models is checked
// one file at a time, and a check that needs a file's bytes again reads
// them again (the parsed task files are kept instead, see Snap.task).
func (s *Snap) Read(p string) ([]byte, error) {
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("%q is not a valid snapshot path", p)
	}
	if err := s.cancelled(); err != nil {
		return nil, err
	}
	return regfile.ReadFile(filepath.Join(s.Dir, filepath.FromSlash(p)))
}

// Open streams the file at the slash path p, for files too large to hold
// whole (the archived Ember CSV, index.json). Like Read, it refuses what
// is not a regular file (a FIFO would block the check for ever).
func (s *Snap) Open(p string) (*os.File, error) {
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("%q is not a valid snapshot path", p)
	}
	if err := s.cancelled(); err != nil {
		return nil, err
	}
	return regfile.Open(filepath.Join(s.Dir, filepath.FromSlash(p)))
}

// openCancellable is Open for a file read through to its end (a task
// file's parse), whose reads fail once the checks are ended (cancellable):
// a 22 MB file's parse stops then.
func (s *Snap) openCancellable(p string) (io.ReadCloser, error) {
	f, err := s.Open(p)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{s.cancellable(f), f}, nil
}

// cancelled is the error of a check ended early, nil while it runs.
func (s *Snap) cancelled() error {
	if s.ctx == nil {
		return nil
	}
	return s.ctx.Err()
}

// taskData is an archived task file, parsed (parseTask) and filtered
// (filterStable) once; the leaderboard check and the index check share it.
type taskData struct {
	task, path string
	readErr    error // the file could not be read; nothing else is set

	stable   []*lbRow // filterStable's stable rows, upstream order
	excluded []excludedRow
	rowsOK   bool      // every row well-formed (parseTask's ok)
	probs    []Problem // the parse's problems, on path
}

// clean reports whether the file parsed without any problem.
func (t *taskData) clean() bool { return t.readErr == nil && len(t.probs) == 0 }

// parseTaskData parses and filters a task file's bytes (the file at path).
func parseTaskData(task, path string, data []byte) *taskData {
	t, _ := openTaskData(task, path, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	return t
}

// openTaskData parses and filters the task file at path, streamed from
// open (parseTaskFrom). A non-nil error is a failure to read it.
func openTaskData(task, path string, open func() (io.ReadCloser, error)) (*taskData, error) {
	ps := &problems{file: path}
	rows, ok, err := parseTaskFrom(ps, task, open)
	if err != nil {
		return &taskData{task: task, path: path, readErr: err}, err
	}
	stable, excluded := filterStable(rows)
	return &taskData{task: task, path: path, stable: stable, excluded: excluded, rowsOK: ok, probs: ps.list}, nil
}

// task returns the task file of the given task at snapshot path p, parsed
// on first use, once however many checks ask for it at once. It is
// streamed: its bytes are never held whole. A build's Early parsed it
// beside the build (Early.Task); that parse is taken when the file's size
// and CRC-32C from disk (hashOf, the manifest check's one read) are those
// of the bytes it read.
func (s *Snap) task(task, p string) *taskData {
	key := task + "\x00" + p
	return s.tasks.get(key, func() *taskData {
		if et := s.earlyTasks[key]; et != nil {
			if h := s.hashOf(p); h.err == nil && h.size == et.size && h.crc == et.crc {
				earlyTasksTaken.Add(1)
				return et.t
			}
		}
		t, _ := openTaskData(task, p, func() (io.ReadCloser, error) { return s.openCancellable(p) })
		return t
	})
}

// earlyTasksTaken counts the task files whose early parse was taken (for
// the tests).
var earlyTasksTaken atomic.Int64

// leaderboardReports reports whether the leaderboard check reads the task
// file of the given task at path p, and so reports its parse's problems:
// the task is in the manifest's selection (or is the Text Conversation
// task, which it always reads) and the manifest's source of it is at p.
// The other checks that read the file do not report them again; which
// check reports them does not depend on which read the file first.
func (s *Snap) leaderboardReports(task, p string) bool {
	if task != taskChat && !contains(s.Manifest.Selection.Tasks, task) {
		return false
	}
	src := s.Source(lbTaskName(task))
	return src != nil && src.Path == p
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
// Problem's File is a slash path relative to the snapshot folder. It runs
// beside the other checks (Register).
type Check func(s *Snap) []Problem

type namedCheck struct {
	name string
	run  Check
}

var registry struct {
	sync.Mutex
	checks []namedCheck
}

// Register adds a check that Snapshot runs on every snapshot; its
// problems come after the built-in ones' (manifest, schemas, leaderboard),
// in registration order. Every check runs at once with the others, on its
// own goroutine: Snap's methods are safe for that. Call it from an init
// function; a name may be registered only once.
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
func Snapshot(dir string) error { return SnapshotContext(context.Background(), dir) }

// SnapshotContext is Snapshot, ended early when ctx is: it then returns
// ctx's error, not a Report.
//
// The checks run at once, each on a goroutine of its own; those that
// recompute from the task files share them through Snap, parsed once. The
// problems come in the order of the checks, whatever the order they finish
// in.
func SnapshotContext(ctx context.Context, dir string) error {
	return snapshot(ctx, dir, nil)
}

// snapshot is SnapshotContext, taking what Early read of the sources and
// the outputs it checked (early may be nil).
func snapshot(ctx context.Context, dir string, early *Early) error {
	s, probs := open(ctx, dir)
	s.checked = newCheckedValues()
	if early != nil {
		early.mu.Lock()
		s.early, s.earlyOutputs, s.earlyTasks, s.checked = early.files, early.outputs, early.tasks, early.checked
		early.mu.Unlock()
	}
	if s.Manifest != nil {
		checks := allChecks()
		found := make([][]Problem, len(checks))
		var wg sync.WaitGroup
		for i, c := range checks {
			wg.Go(func() { found[i] = c.run(s) })
		}
		wg.Wait()
		for _, f := range found {
			probs = append(probs, f...)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(probs) == 0 {
		return nil
	}
	return &Report{Dir: dir, Problems: probs}
}

// open lists the folder and decodes the manifest.
func open(ctx context.Context, dir string) (*Snap, []Problem) {
	s := &Snap{Dir: dir, ctx: ctx}
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
