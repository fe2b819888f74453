package validate

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/leadgreen/greentokens/internal/regfile"
)

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

	// tasks holds the archived task files, by task and snapshot path, as
	// a func() *taskData that parses the file on its first call: the
	// leaderboard and index checks both recompute from them (Snap.task).
	tasks sync.Map
}

// Read returns the bytes of the regular file at the slash path p relative
// to the snapshot folder.
func (s *Snap) Read(p string) ([]byte, error) {
	f, err := s.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return regfile.ReadAll(f)
}

// Open streams the file at the slash path p; it refuses what is not a
// regular file (a FIFO would block the check for ever).
func (s *Snap) Open(p string) (*os.File, error) {
	if !fs.ValidPath(p) {
		return nil, fmt.Errorf("%q is not a valid snapshot path", p)
	}
	if err := s.cancelled(); err != nil {
		return nil, err
	}
	return regfile.Open(filepath.Join(s.Dir, filepath.FromSlash(p)))
}

// cancelled is the error of a check ended early, nil while it runs.
func (s *Snap) cancelled() error {
	if s.ctx == nil {
		return nil
	}
	return s.ctx.Err()
}

// cancellable returns r, whose reads fail once the checks are ended: a
// parse or hash of a large file stops then, not at its end.
func (s *Snap) cancellable(r io.Reader) io.Reader { return cancellableReader{s, r} }

type cancellableReader struct {
	s *Snap
	r io.Reader
}

func (c cancellableReader) Read(p []byte) (int, error) {
	if err := c.s.cancelled(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// task returns the task file of the given task at snapshot path p, parsed
// and filtered on first use, once however many checks ask for it at once.
func (s *Snap) task(task, p string) *taskData {
	parse, _ := s.tasks.LoadOrStore(task+"\x00"+p, sync.OnceValue(func() *taskData {
		data, err := s.Read(p)
		if err != nil {
			return &taskData{task: task, path: p, readErr: err}
		}
		return parseTaskData(task, p, data)
	}))
	return parse.(func() *taskData)()
}

// taskData is an archived task file, parsed (parseTask) and filtered
// (filterStable); the leaderboard check and the index check share it.
type taskData struct {
	task, path string
	readErr    error // the file could not be read; nothing else is set

	stable   []*lbRow // filterStable's stable rows, upstream order
	excluded []excludedRow
	rowsOK   bool      // every row well-formed (parseTask's ok)
	probs    []Problem // the parse's problems, on path
}

// parseTaskData parses and filters a task file's bytes (the file at path).
func parseTaskData(task, path string, data []byte) *taskData {
	ps := &problems{file: path}
	rows, ok := parseTask(ps, task, data)
	stable, excluded := filterStable(rows)
	return &taskData{task: task, path: path, stable: stable, excluded: excluded, rowsOK: ok, probs: ps.list}
}

// leaderboardReports reports whether the leaderboard check reads the task
// file at p, and so reports its parse's problems (the other checks then do
// not): the task is Text Conversation or selected, and its source is at p.
func (s *Snap) leaderboardReports(task, p string) bool {
	if task != taskChat && !slices.Contains(s.Manifest.Selection.Tasks, task) {
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

// checks are the checks every snapshot gets, in the order of their
// problems; they run at once, and Snap's methods are safe for that.
var checks = []func(s *Snap) []Problem{
	checkFiles,        // manifest.go
	checkSchemas,      // schema.go
	checkLeaderboard,  // leaderboard.go
	gridSnapshotCheck, // grid.go
	idxSnapshotCheck,  // index.go
}

// Snapshot checks the snapshot folder dir (snapshots/DATE/): its manifest,
// every file against the manifest and its schema, and every derived figure
// against its recomputation from the archived sources. It returns nil when
// all is well, else a *Report listing every problem found; ended early
// when ctx is, it returns ctx's error, not a Report.
func Snapshot(ctx context.Context, dir string) error {
	s, probs := open(ctx, dir)
	if s.Manifest != nil {
		found := make([][]Problem, len(checks))
		var wg sync.WaitGroup
		for i, c := range checks {
			wg.Go(func() { found[i] = c(s) })
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
	m, mprobs := decodeManifest(s)
	s.Manifest = m
	return s, append(ps.list, mprobs...)
}

// sourcesPrefix is where archived upstream files live in a snapshot.
const sourcesPrefix = "sources/"

// cleanPath reports whether p is a slash path relative to the snapshot
// folder with no empty, "." or ".." element.
func cleanPath(p string) bool {
	return fs.ValidPath(p) && p != "." && !strings.Contains(p, `\`) && path.Clean(p) == p
}
