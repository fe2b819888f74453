// Package verify checks a published snapshot offline, from its own files
// alone: it rebuilds the snapshot from its archived sources, through the
// build's steps (snapshots/build), into a comparing sink that compares
// every file with the stored one as it is written (compare.go), and runs
// the checker (validate.Check); the report (report.go) says what differs,
// value by value. Rebuild (rebuild.go) is the auditor's rebuild into a
// folder of its own, from the same options, published as a build is.
// Both read the snapshot through an fs.FS (regfile.DirFS for a folder),
// its manifest decoded once (store.Open). Upstream (upstream.go) is verify
// --upstream: each archived source fetched again from upstream and its
// sha256 compared; code.go says whether two generators are the same code
// and how to run the one that built a snapshot.
package verify

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/validate"
)

// Verify checks the snapshot fsys holds (OUT/DATE through regfile.DirFS)
// offline, from its files alone: it rebuilds the snapshot from its own
// sources, compares byte for byte, and runs the checker.
//
//   - The rebuild runs the build's steps (build.Produce) from the archived
//     sources/, with the options the snapshot records (rebuildOptions, as
//     Rebuild does), into a comparing sink (compare.go): every file is
//     compared with the stored one as it is written, manifest included,
//     and only a file that differs is written out, into a temporary
//     folder, to say how (report.go). The rebuild is not checked again: a
//     file byte-identical to a checked one passes the same checks, and one
//     that is not is reported as differing.
//   - The checker, validate.Check, checks the stored files: every file
//     against manifest.json (missing, extra, size, sha256), every output
//     against its schema, every figure against the independent
//     recomputation.
//
// It never writes into the snapshot. The error is for a failure of Verify
// itself (no temporary folder, a cancelled context); a snapshot that
// fails its checks gives a report with OK false, and Report.Err.
//
// The checks and the rebuild run at once, on goroutines of their own:
// they share nothing but the files they read. (The command bounds their
// memory together, with the checker's soft memory limit.) The report lists
// the checks' problems, then the rebuild's.
func Verify(ctx context.Context, fsys fs.FS) (*Report, error) {
	name := nameOf(fsys)
	rep := &Report{Dir: name, Problems: []validate.Problem{}, Diffs: []FileDiff{}, VerifiedBy: build.ThisGenerator()}
	rebuilt := &Report{VerifiedBy: rep.VerifiedBy}
	var rebuildErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		crashtest.Pause(ctx, crashtest.Rebuild)
		rebuildErr = rebuildAndCompare(ctx, fsys, name, rebuilt)
	})
	checkErr := validate.Check(ctx, fsys)
	wg.Wait()
	if checkErr != nil {
		var vr *validate.Report
		if !errors.As(checkErr, &vr) {
			return nil, fmt.Errorf("%w: verify: %w", failure.ErrInterrupted, checkErr)
		}
		rep.Problems = append(rep.Problems, vr.Problems...)
	}
	if rebuildErr != nil {
		return nil, rebuildErr
	}
	rep.Problems = append(rep.Problems, rebuilt.Problems...)
	rep.Diffs = append(rep.Diffs, rebuilt.Diffs...)
	rep.Rebuilt, rep.BuiltBy, rep.SameCode, rep.Rerun, rep.RerunGit = rebuilt.Rebuilt, rebuilt.BuiltBy, rebuilt.SameCode, rebuilt.Rerun, rebuilt.RerunGit
	rep.OK = len(rep.Problems) == 0 && len(rep.Diffs) == 0
	return rep, nil
}

// nameOf is the name fsys gives the snapshot it holds (regfile.DirFS: its
// folder), or "".
func nameOf(fsys fs.FS) string {
	if n, ok := fsys.(validate.NamedFS); ok {
		return n.Name()
	}
	return ""
}

// rebuildAndCompare rebuilds the snapshot fsys holds from its archived
// sources into a comparing sink (compare.go) over a temporary folder, and
// adds every difference to rep.
func rebuildAndCompare(ctx context.Context, fsys fs.FS, name string, rep *Report) error {
	problem := func(format string, a ...any) {
		rep.Problems = append(rep.Problems, validate.Problem{File: ".", Msg: fmt.Sprintf(format, a...)})
	}
	rel, err := store.Open(ctx, fsys, name)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: verify: %w", failure.ErrInterrupted, ctx.Err())
		}
		problem("not rebuilt: %v", err)
		return nil
	}
	m := rel.Manifest
	rep.BuiltBy = &m.Generator
	rep.SameCode = sameCode(m.Generator, rep.VerifiedBy)
	if !rep.SameCode {
		rep.Rerun = rerunCommand(m.Generator, verifyArgs(name)...)
		rep.RerunGit = rerunFromGit(m.Generator, verifyArgs(name)...)
	}
	tmp, err := os.MkdirTemp("", "greentokens-verify-")
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer os.RemoveAll(tmp)
	sink := newComparingSink(rel, tmp)
	if _, err := build.Produce(ctx, sink, rebuildOptions(rel)); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: verify: %w", failure.ErrInterrupted, ctx.Err())
		}
		problem("the rebuild from the archived sources failed: %v", err)
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: verify: %w", failure.ErrInterrupted, err)
	}
	rep.Rebuilt = true
	diffs, err := sink.diffs()
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	rep.Diffs = append(rep.Diffs, diffs...)
	return nil
}

// rebuildOptions are the build options that reproduce the release rel
// from its manifest: its date, retrieval date, archived sources (served as
// the manifest lists them), the reference year the manifest's grid summary
// records when it was pinned, and the Ember release, which only grid.json
// records. PageGrids stays nil (the default grids): a snapshot does not
// record other page grids. The rebuilt manifest records the stored
// generator, so that it compares byte for byte; Rebuild records its own
// when other code rebuilds, and compares its manifest under this one.
func rebuildOptions(rel *store.Release) build.Options {
	m := rel.Manifest
	src := &archiveSource{rel: rel, entries: map[string]format.SourceFile{}}
	for _, e := range m.Sources {
		src.entries[e.Name] = e
	}
	gen := m.Generator
	opts := build.Options{Date: m.Date, Retrieved: m.Retrieved, Source: src, Generator: &gen}
	if src.ember() == "" {
		opts.NoGrid = true
		return opts
	}
	if m.Grid != nil && m.Grid.YearPinned {
		opts.GridYear = m.Grid.Year
	}
	// Without grid.json as the manifest lists it the rebuild names no
	// release, and the comparison names the file.
	if g, err := rel.ReadGrid(); err == nil {
		opts.EmberRelease = g.Source.Release
	}
	return opts
}

// archiveSource serves a snapshot's archived sources to a rebuild, with the
// URL the manifest records, the retrieval time where the manifest has one
// (an RFC 3339 time; a plain date leaves it zero, and the build then uses
// its Retrieved option, which is the manifest's date). The archived bytes
// are served as they are stored: the rebuilt manifest, compared with the
// stored one, lists their size and sha256.
type archiveSource struct {
	rel     *store.Release
	entries map[string]format.SourceFile // by name
}

// ember is the name Ember's CSV is archived under, or "" when it is not.
func (a *archiveSource) ember() string {
	for _, n := range []string{fetch.EmberGlobal, fetch.EmberYearly} {
		if _, ok := a.entries[n]; ok {
			return n
		}
	}
	return ""
}

func (a *archiveSource) Open(ctx context.Context, name string) (*fetch.Body, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if fetch.IsEmber(name) && a.ember() != "" {
		name = a.ember() // archived under its layout's name
	}
	e, ok := a.entries[name]
	if !ok {
		return nil, fmt.Errorf("%s is not archived in the snapshot (manifest.json lists no source of that name): %w", name, fs.ErrNotExist)
	}
	if !strings.HasPrefix(e.Path, format.SourcesDir) {
		return nil, fmt.Errorf("%s: the manifest's path %q is not under %s", name, e.Path, format.SourcesDir)
	}
	f, err := regfile.OpenFS(a.rel, e.Path)
	if err != nil {
		return nil, err
	}
	var retrieved time.Time
	if t, err := time.Parse(time.RFC3339, e.Retrieved); err == nil {
		retrieved = t
	}
	b := &fetch.Body{ReadCloser: f, URL: e.URL, FinalURL: e.FinalURL, Retrieved: retrieved}
	if fi, err := f.Stat(); err == nil {
		b.Size = fi.Size()
	}
	return b, nil
}
