package validate

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// NamedFS is an fs.FS that names the snapshot it holds: regfile.DirFS
// names it by its folder. Check gives the name in its Report, and holds
// the manifest's date to the name's last element when that is a date.
type NamedFS interface {
	fs.FS
	Name() string
}

// snap is an opened snapshot, handed to every check.
type snap struct {
	fsys fs.FS
	name string          // the snapshot's name (NamedFS), or ""
	ctx  context.Context // ends the checks early (a signal): every read fails once it is done

	manifest *Manifest        // manifest.json, decoded: the checks run only when it could be
	files    []string         // every regular file but manifest.json, as slash paths, sorted
	text     *sourcetext.Text // the published fixed text, which the recomputed files print
	tasks    map[string]*taskData
	exports  *exportWant // what the recomputed files give of exports/, as they are recomputed
}

// open opens the regular file at the slash path p of the snapshot; it
// refuses what is not a regular file, whatever the fs.FS serves.
func (s *snap) open(p string) (fs.File, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	return regfile.OpenFS(s.fsys, p)
}

// read returns the bytes of the regular file at the slash path p.
func (s *snap) read(p string) ([]byte, error) {
	f, err := s.open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return regfile.ReadAll(f)
}

// taskData is an archived task file, parsed (parseTaskFile) and filtered
// (filterStable): the leaderboard and index checks both recompute from it.
type taskData struct {
	task, path string
	readErr    error // the file could not be read; nothing else is set

	rows, stable []*lbRow // the well-formed rows and the stable ones, in upstream order
	drows        []*dRow  // a diffusion task's published rows, in upstream order
	excluded     []excludedRow
	rowsOK       bool      // every row well-formed
	probs        []Problem // the parse's problems, on path
}

// task returns the task file of t at the snapshot path p, parsed and
// filtered on first use (a parse read again, never a verdict kept).
func (s *snap) task(t *task, p string) *taskData {
	key := t.id + "\x00" + p
	if td, ok := s.tasks[key]; ok {
		return td
	}
	td := &taskData{task: t.id, path: p}
	data, err := s.read(p)
	if td.readErr = err; err == nil {
		ps := &problems{file: p}
		var drows []*dRow
		td.rows, drows, td.rowsOK = parseTaskFile(ps, t.id, t.unit, data)
		if t.unit != "" {
			td.drows, td.excluded = filterDiffusion(drows)
		} else {
			td.stable, td.excluded = filterStable(td.rows)
		}
		td.probs = ps.list
	}
	s.tasks[key] = td
	return td
}

// source returns the manifest's source entry with the given upstream name
// ("leaderboard/index.json"), or nil.
func (s *snap) source(name string) *ManifestSource {
	for i, src := range s.manifest.Sources {
		if src.Name == name {
			return &s.manifest.Sources[i]
		}
	}
	return nil
}

// output returns the manifest's output entry with the path p, or nil.
func (s *snap) output(p string) *ManifestFile {
	for i, f := range s.manifest.Outputs {
		if f.Path == p {
			return &s.manifest.Outputs[i]
		}
	}
	return nil
}

// present reports whether the snapshot holds the regular file at the slash
// path p (manifest.json excluded).
func (s *snap) present(p string) bool {
	_, found := slices.BinarySearch(s.files, p)
	return found
}

// checks are the checks every snapshot gets, in the order they run and
// report their problems.
var checks = []func(s *snap) []Problem{checkFiles, checkSchemas, checkLeaderboard, gridSnapshotCheck, idxSnapshotCheck, checkExports}

// Check checks the snapshot fsys holds (snapshots/DATE/, served by
// regfile.DirFS): its manifest, every file against the manifest and its
// schema, and every derived figure against its recomputation from the
// archived sources, one check after the other, every read through fsys. It
// returns nil when all is well, else a *Report listing every problem
// found; ended early when ctx is, it returns ctx's error, not a Report.
func Check(ctx context.Context, fsys fs.FS) error {
	s := &snap{fsys: fsys, ctx: ctx, tasks: map[string]*taskData{}, exports: &exportWant{}}
	if n, ok := fsys.(NamedFS); ok {
		s.name = n.Name()
	}
	text, err := sourcetext.Load()
	if err != nil {
		return &Report{Dir: s.name, Problems: []Problem{{File: ".", Msg: fmt.Sprintf("cannot be checked: %v", err)}}}
	}
	s.text = text
	probs := s.list()
	if s.manifest != nil {
		for _, c := range checks {
			probs = append(probs, c(s)...)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(probs) == 0 {
		return nil
	}
	return &Report{Dir: s.name, Problems: probs}
}

// list lists the snapshot's files and decodes the manifest.
func (s *snap) list() []Problem {
	ps := &problems{file: "."}
	err := fs.WalkDir(s.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
		case !d.Type().IsRegular():
			ps.list = append(ps.list, Problem{File: p, Msg: "is not a regular file (a snapshot holds regular files only)"})
		case p != ManifestPath:
			s.files = append(s.files, p)
		}
		return nil
	})
	if err != nil {
		ps.add("", "", "cannot list the snapshot folder: %v", err)
		return ps.list
	}
	sort.Strings(s.files)
	m, mprobs := decodeManifest(s)
	s.manifest = m
	return append(ps.list, mprobs...)
}

// sourcesPrefix is where archived upstream files live in a snapshot.
const sourcesPrefix = "sources/"

// cleanPath reports whether p is a slash path relative to the snapshot
// folder with no empty, "." or ".." element.
func cleanPath(p string) bool {
	return fs.ValidPath(p) && p != "." && !strings.Contains(p, `\`) && path.Clean(p) == p
}

// cannotRead is the problem of a file that cannot be read.
func cannotRead(p string, err error) Problem {
	return Problem{File: p, Msg: fmt.Sprintf("cannot be read: %v", err)}
}
