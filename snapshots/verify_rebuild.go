package snapshots

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
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
	Result
	// Identical is true when the rebuilt folder holds the snapshot's files,
	// byte for byte.
	Identical bool
	// Difference names the first difference when it does not ("models/x.json
	// differs"); verify says how a file differs.
	Difference string
	// BuiltBy is the code that built the snapshot (its manifest's
	// generator), RebuiltBy the code that rebuilt it. The rebuilt manifest
	// records BuiltBy when they are the same code, else RebuiltBy.
	BuiltBy, RebuiltBy Generator
}

// Rebuild builds the snapshot at dir again, from its archived sources/,
// into opts.Out/DATE, taking every input from what the snapshot records:
// the date, the retrieval dates, the URLs, the reference year when it was
// pinned (the manifest's grid summary) and Ember's release (grid.json).
// It runs the build's steps as Build does (the same options Verify's
// rebuild uses, the checks, the atomic publish) but for the removal guard:
// a rebuild reproduces a snapshot, it decides nothing about what is
// published.
//
// Before anything is built the snapshot's manifest must decode strictly
// and be in its canonical form, and every source it lists, and grid.json,
// must be there with the listed size and sha256: else ErrValidation,
// naming the file. The rebuilt folder is then compared with dir.
func Rebuild(ctx context.Context, dir string, opts RebuildOptions) (*RebuildResult, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: snapshot %s: %v", ErrValidation, dir, err)
	}
	if err := checkInputs(ctx, dir, m); err != nil {
		return nil, err
	}
	if opts.Out == "" {
		return nil, fmt.Errorf("%w: no output folder", ErrUsage)
	}
	if same, _ := sameFolder(filepath.Join(opts.Out, m.Date), dir); same {
		return nil, fmt.Errorf("%w: %s is the snapshot being rebuilt; rebuild into another output folder", ErrUsage, filepath.Join(opts.Out, m.Date))
	}
	bo := rebuildOptions(dir, m)
	bo.Out, bo.Replace, bo.Logger = opts.Out, opts.Replace, opts.Logger
	res := &RebuildResult{BuiltBy: m.Generator, RebuiltBy: ThisGenerator()}
	if !m.Generator.SameCode(res.RebuiltBy) {
		bo.Generator = &res.RebuiltBy
	}
	built, err := runBuild(ctx, bo, nil)
	if err != nil {
		return nil, err
	}
	res.Result = *built
	res.Identical, res.Difference, err = sameTree(dir, built.Dir)
	if err != nil {
		return nil, fmt.Errorf("%w: comparing %s with %s: %v", ErrConflict, built.Dir, dir, err)
	}
	return res, nil
}

// checkInputs checks the files a rebuild reads against the manifest m of
// dir: every listed source, and grid.json, which records the Ember
// release.
func checkInputs(ctx context.Context, dir string, m *Manifest) error {
	var files []File
	for _, src := range m.Sources {
		files = append(files, src.File)
	}
	for _, f := range m.Outputs {
		if f.Path == GridName {
			files = append(files, f)
		}
	}
	r := newFileReader(ctx)
	for _, f := range files {
		if !fs.ValidPath(f.Path) || f.Path == ManifestName {
			return fmt.Errorf("%w: snapshot %s: %s lists the path %q", ErrValidation, dir, ManifestName, f.Path)
		}
		if err := r.stream(dir, f, nil); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%w: rebuilding %s: %w", ErrInterrupted, dir, ctx.Err())
			}
			return fmt.Errorf("%w: snapshot %s: %v", ErrValidation, dir, err)
		}
	}
	return nil
}

// sameFolder reports whether a and b are one folder.
func sameFolder(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}
