package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// RebuildOptions say where an auditor's rebuild goes.
type RebuildOptions struct {
	// Out holds the rebuilt snapshot (OUT/DATE/, DATE the manifest's).
	Out string
	// Replace lets the rebuild replace a snapshot of that date in Out whose
	// content differs. The snapshot being rebuilt is never replaced.
	Replace bool
	// Logger receives progress; nil discards it.
	Logger *slog.Logger
}

// RebuildResult says what a rebuild did, and how its files compare with
// the snapshot's.
type RebuildResult struct {
	build.Result
	// Identical is true when the rebuilt folder holds the snapshot's files,
	// byte for byte.
	Identical bool
	// OnlyGenerator is true when the rebuild, by other code, differs from
	// the snapshot in manifest.json's generator alone: every other file,
	// and every other byte of manifest.json, identical. (Verify's rebuild
	// records the snapshot's generator, and finds the files identical.)
	OnlyGenerator bool
	// Difference names the first difference when neither is true
	// ("models/x.json differs"); verify says how a file differs.
	Difference string
	// BuiltBy is the code that built the snapshot (its manifest's
	// generator), RebuiltBy the code that rebuilt it. The rebuilt manifest
	// records BuiltBy when they are the same code, else RebuiltBy.
	BuiltBy, RebuiltBy format.Generator
}

// Rebuild builds the snapshot fsys holds (OUT/DATE through
// regfile.DirFS) again, from its archived sources/, into opts.Out/DATE,
// taking every input from what the snapshot records: the date, the
// retrieval dates, the URLs, the reference year when it was pinned (the
// manifest's grid summary) and Ember's release (grid.json). It runs the
// build's steps as a build does (the same options Verify's rebuild uses,
// the checks, the atomic publish) but for the removal guard: a rebuild
// reproduces a snapshot, it decides nothing about what is published
// (build.Options.Reproduce).
//
// Before anything is built the snapshot's manifest must decode strictly
// and be in its canonical form (store.Open), the snapshot must hold
// regular files and folders only (checkTree), and every source it lists,
// and grid.json, must be there with the listed size and sha256: else
// ErrValidation, naming the file. The rebuilt folder is then compared with
// the snapshot; a rebuild by other code records that code in its
// manifest, and compares the manifest as verify's rebuild writes it too
// (compare). A snapshot read from a folder is never rebuilt into itself.
//
// Every error wraps one of the kinds docs/operations.md gives rebuild an
// exit code for: failure.ErrUsage (the options), ErrValidation (the
// snapshot: what it records cannot be read or rebuilt, or the rebuild
// differs from it), ErrConflict (the output folder) and ErrInterrupted
// (rebuildFailure).
func Rebuild(ctx context.Context, fsys fs.FS, opts RebuildOptions) (*RebuildResult, error) {
	name := nameOf(fsys)
	rel, err := store.Open(ctx, fsys, name)
	if err != nil {
		return nil, err
	}
	if err := checkTree(rel); err != nil {
		return nil, err
	}
	if err := checkInputs(ctx, rel); err != nil {
		return nil, err
	}
	if opts.Out == "" {
		return nil, fmt.Errorf("%w: no output folder", failure.ErrUsage)
	}
	m := rel.Manifest
	if target := filepath.Join(opts.Out, m.Date); sameFolder(target, name) {
		return nil, fmt.Errorf("%w: %s is the snapshot being rebuilt; rebuild into another output folder", failure.ErrUsage, target)
	}
	bo := rebuildOptions(rel)
	bo.Out, bo.Replace, bo.Logger, bo.Reproduce = opts.Out, opts.Replace, opts.Logger, true
	asVerified := *bo.Generator // what verify's rebuild records
	res := &RebuildResult{BuiltBy: m.Generator, RebuiltBy: build.ThisGenerator()}
	if !sameCode(m.Generator, res.RebuiltBy) {
		bo.Generator = &res.RebuiltBy
	}
	built, err := build.Build(ctx, bo)
	if err != nil {
		return nil, rebuildFailure(ctx, rel, err)
	}
	res.Result = *built
	if err := res.compare(rel, asVerified); err != nil {
		return nil, fmt.Errorf("%w: comparing %s with %s: %v", failure.ErrConflict, built.Dir, name, err)
	}
	return res, nil
}

// compare compares the rebuilt folder with the snapshot rel: every file
// but manifest.json byte for byte, then manifest.json as it is and, when
// that differs, the rebuilt manifest recorded by gen, the generator
// verify's rebuild records (rebuildOptions): equal bytes then mean that
// the generator alone differs.
func (res *RebuildResult) compare(rel *store.Release, gen format.Generator) error {
	same, d, err := store.SameFiles(rel, regfile.DirFS(res.Dir), format.ManifestPath)
	if err != nil || !same {
		res.Difference = d
		return err
	}
	// store.Open found the stored manifest in its canonical form, and the
	// build wrote the rebuilt one in it: these are their bytes.
	stored, err := format.Marshal(rel.Manifest)
	if err != nil {
		return err
	}
	rebuilt, err := format.Marshal(res.Manifest)
	if err != nil {
		return err
	}
	if bytes.Equal(stored, rebuilt) {
		res.Identical = true
		return nil
	}
	m := *res.Manifest
	m.Generator = gen
	asVerified, err := format.Marshal(&m)
	if err != nil {
		return err
	}
	if bytes.Equal(stored, asVerified) && res.Manifest.Generator != gen {
		res.OnlyGenerator = true
		return nil
	}
	res.Difference = format.ManifestPath + " differs"
	return nil
}

// checkTree checks that the snapshot rel holds regular files and folders
// only, as verify's checker requires: a symbolic link (wherever it points),
// a FIFO or a device anywhere in it, listed or not, is an ErrValidation
// naming it, found before anything is read or built.
func checkTree(rel *store.Release) error {
	err := fs.WalkDir(rel, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if m := d.Type(); m&fs.ModeType != 0 && !d.IsDir() {
			return &regfile.NotRegularError{Path: p, Mode: m}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: snapshot %s: %v (a snapshot holds regular files only)", failure.ErrValidation, rel.Name(), err)
	}
	return nil
}

// rebuildFailure gives an error of the build a rebuild runs its kind: an
// interrupted rebuild and an output folder that cannot take the rebuilt
// snapshot stay what they are; every other failure (what the snapshot
// records is not a usable date, an archived source cannot be served or
// parsed, the rebuilt files fail their checks) is the snapshot's, an
// ErrValidation, whatever kind a build from upstream would give it.
func rebuildFailure(ctx context.Context, rel *store.Release, err error) error {
	switch {
	case ctx.Err() != nil && !errors.Is(err, failure.ErrInterrupted):
		return fmt.Errorf("%w: rebuilding %s: %w", failure.ErrInterrupted, rel.Name(), ctx.Err())
	case errors.Is(err, failure.ErrInterrupted), errors.Is(err, failure.ErrConflict), errors.Is(err, failure.ErrValidation):
		return err
	}
	return fmt.Errorf("%w: snapshot %s cannot be rebuilt from what it records: %v", failure.ErrValidation, rel.Name(), err)
}

// checkInputs checks the files a rebuild reads against the manifest of
// rel: every listed source, and grid.json, which records the Ember
// release.
func checkInputs(ctx context.Context, rel *store.Release) error {
	var paths []string
	for _, src := range rel.Manifest.Sources {
		paths = append(paths, src.Path)
	}
	if _, ok := rel.Listed(format.GridPath); ok {
		paths = append(paths, format.GridPath)
	}
	rd := rel.Reader()
	for _, p := range paths {
		if err := rd.StreamListed(p, nil); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%w: rebuilding %s: %w", failure.ErrInterrupted, rel.Name(), ctx.Err())
			}
			return fmt.Errorf("%w: snapshot %s: %v", failure.ErrValidation, rel.Name(), err)
		}
	}
	return nil
}

// sameFolder reports whether a and b are one folder.
func sameFolder(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}
