package snapshots

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/leadgreen/greentokens/internal/crashtest"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/validate"
)

// Verify checks the snapshot folder dir offline, from the folder alone: it
// rebuilds the snapshot from its own sources into a temporary folder,
// compares byte for byte, and runs the checker.
//
//   - The rebuild runs the build's steps (build.go) from the archived
//     sources/, with the options the snapshot records (rebuildOptions, as
//     Rebuild does), into a comparing stage (verify_compare.go): every file
//     is compared with the stored one as it is written, manifest included,
//     and only a file that differs is written out, into the temporary
//     folder, to say how (verify_report.go). The rebuild is not checked
//     again: a file byte-identical to a checked one passes the same checks,
//     and one that is not is reported as differing.
//   - The checker, validate.Check, checks the stored files: every file
//     against manifest.json (missing, extra, size, sha256), every output
//     against its schema, every figure against the independent
//     recomputation.
//
// It never writes into dir. The error is for a failure of Verify itself
// (no temporary folder, a cancelled context); a snapshot that fails its
// checks gives a report with OK false, and VerifyReport.Err.
//
// The checks and the rebuild run at once, on goroutines of their own:
// they share nothing but the folder they read. (The command bounds their
// memory together, with the checker's soft memory limit.) The report lists the checks'
// problems, then the rebuild's.
func Verify(ctx context.Context, dir string) (*VerifyReport, error) {
	rep := &VerifyReport{Dir: dir, Problems: []validate.Problem{}, Diffs: []FileDiff{}, VerifiedBy: ThisGenerator()}
	rebuilt := &VerifyReport{VerifiedBy: rep.VerifiedBy}
	var rebuildErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		crashtest.Pause(ctx, crashtest.Rebuild)
		rebuildErr = rebuildAndCompare(ctx, dir, rebuilt)
	})
	checkErr := validate.Check(ctx, regfile.DirFS(dir))
	wg.Wait()
	if checkErr != nil {
		vr, ok := checkErr.(*validate.Report)
		if !ok {
			return nil, fmt.Errorf("%w: verify: %w", failure.ErrInterrupted, checkErr)
		}
		rep.Problems = append(rep.Problems, vr.Problems...)
	}
	if rebuildErr != nil {
		return nil, rebuildErr
	}
	rep.Problems = append(rep.Problems, rebuilt.Problems...)
	rep.Diffs = append(rep.Diffs, rebuilt.Diffs...)
	rep.Rebuilt, rep.BuiltBy, rep.SameCode, rep.Rerun = rebuilt.Rebuilt, rebuilt.BuiltBy, rebuilt.SameCode, rebuilt.Rerun
	rep.OK = len(rep.Problems) == 0 && len(rep.Diffs) == 0
	return rep, nil
}

// rebuildAndCompare rebuilds the snapshot from dir's archived sources in a
// comparing stage (verify_compare.go) under a temporary folder, and adds every
// difference to rep.
func rebuildAndCompare(ctx context.Context, dir string, rep *VerifyReport) error {
	problem := func(format string, a ...any) {
		rep.Problems = append(rep.Problems, validate.Problem{File: ".", Msg: fmt.Sprintf(format, a...)})
	}
	data, err := regfile.ReadFile(filepath.Join(dir, format.ManifestPath))
	if err != nil {
		problem("not rebuilt: %s cannot be read: %v", format.ManifestPath, err)
		return nil
	}
	var m format.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		problem("not rebuilt: %s cannot be decoded: %v", format.ManifestPath, err)
		return nil
	}
	rep.BuiltBy = &m.Generator
	rep.SameCode = sameCode(m.Generator, rep.VerifiedBy)
	if !rep.SameCode {
		rep.Rerun = rerunCommand(m.Generator, "verify", dir)
	}
	opts := rebuildOptions(dir, &m)
	tmp, err := os.MkdirTemp("", "greentokens-verify-")
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer os.RemoveAll(tmp)
	st, err := rebuildStage(ctx, tmp, dir, opts)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: verify: %w", failure.ErrInterrupted, ctx.Err())
		}
		problem("the rebuild from the archived sources failed: %v", err)
		return nil
	}
	defer st.close()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: verify: %w", failure.ErrInterrupted, err)
	}
	rep.Rebuilt = true
	diffs, err := comparedDiffs(st)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	rep.Diffs = append(rep.Diffs, diffs...)
	return nil
}

// rebuildOptions are the build options that reproduce the snapshot at dir
// from its manifest m: its date, retrieval date, archived sources (served
// as the manifest lists them), the reference year the manifest's grid
// summary records when it was pinned, and the Ember release, which only
// grid.json records. PageGrids stays nil (the default grids): a snapshot
// does not record other page grids. The rebuilt manifest records the
// stored generator, so that it compares byte for byte; Rebuild records
// its own when other code rebuilds, and compares its manifest under this
// one.
func rebuildOptions(dir string, m *format.Manifest) BuildOptions {
	src := &archiveSource{dir: dir, entries: map[string]format.SourceFile{}}
	for _, e := range m.Sources {
		src.entries[e.Name] = e
	}
	gen := m.Generator
	opts := BuildOptions{Date: m.Date, Retrieved: m.Retrieved, Source: src, Generator: &gen}
	if src.ember() == "" {
		opts.NoGrid = true
		return opts
	}
	if m.Grid != nil && m.Grid.YearPinned {
		opts.GridYear = m.Grid.Year
	}
	// Without a readable grid.json the rebuild names no release, and the
	// comparison names the file.
	b, err := regfile.ReadFile(filepath.Join(dir, format.GridPath))
	if err != nil {
		return opts
	}
	var g format.Grid
	if err := json.Unmarshal(b, &g); err != nil {
		return opts
	}
	opts.EmberRelease = g.Source.Release
	return opts
}

// archiveSource serves a snapshot's archived sources to a rebuild, with the
// URL the manifest records, the retrieval time where the manifest has one
// (an RFC 3339 time; a plain date leaves it zero, and Build then uses its
// Retrieved option, which is the manifest's date). The archived bytes are
// served as they are: they are the bytes as published.
type archiveSource struct {
	dir     string
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
	if !fs.ValidPath(e.Path) || !strings.HasPrefix(e.Path, "sources/") {
		return nil, fmt.Errorf("%s: the manifest's path %q is not under sources/", name, e.Path)
	}
	f, err := regfile.Open(filepath.Join(a.dir, filepath.FromSlash(e.Path)))
	if err != nil {
		return nil, err
	}
	var retrieved time.Time
	if t, err := time.Parse(time.RFC3339, e.Retrieved); err == nil {
		retrieved = t
	}
	b := &fetch.Body{ReadCloser: f, URL: e.URL, FinalURL: e.FinalURL, Retrieved: retrieved}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		b.Size = fi.Size()
	}
	return b, nil
}
