package snapshots

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
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
// must be there with the listed size and sha256: else failure.ErrValidation,
// naming the file. The rebuilt folder is then compared with dir; a
// rebuild by other code records that code in its manifest, and compares
// the manifest as verify's rebuild writes it too (compare).
func Rebuild(ctx context.Context, dir string, opts RebuildOptions) (*RebuildResult, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: snapshot %s: %v", failure.ErrValidation, dir, err)
	}
	if err := checkInputs(ctx, dir, m); err != nil {
		return nil, err
	}
	if opts.Out == "" {
		return nil, fmt.Errorf("%w: no output folder", failure.ErrUsage)
	}
	if same, _ := sameFolder(filepath.Join(opts.Out, m.Date), dir); same {
		return nil, fmt.Errorf("%w: %s is the snapshot being rebuilt; rebuild into another output folder", failure.ErrUsage, filepath.Join(opts.Out, m.Date))
	}
	bo := rebuildOptions(dir, m)
	bo.Out, bo.Replace, bo.Logger = opts.Out, opts.Replace, opts.Logger
	asVerified := *bo.Generator // what verify's rebuild records
	res := &RebuildResult{BuiltBy: m.Generator, RebuiltBy: ThisGenerator()}
	if !sameCode(m.Generator, res.RebuiltBy) {
		bo.Generator = &res.RebuiltBy
	}
	built, err := runBuild(ctx, bo, nil)
	if err != nil {
		return nil, err
	}
	res.Result = *built
	if err := res.compare(dir, asVerified); err != nil {
		return nil, fmt.Errorf("%w: comparing %s with %s: %v", failure.ErrConflict, built.Dir, dir, err)
	}
	return res, nil
}

// compare compares the rebuilt folder with the snapshot at dir: every file
// but manifest.json byte for byte, then manifest.json as it is and, when
// that differs, the rebuilt manifest recorded by gen, the generator
// verify's rebuild records (rebuildOptions): equal bytes then mean that
// the generator alone differs.
func (res *RebuildResult) compare(dir string, gen format.Generator) error {
	same, d, err := sameTree(dir, res.Dir, format.ManifestPath)
	if err != nil || !same {
		res.Difference = d
		return err
	}
	stored, err := regfile.ReadFile(filepath.Join(dir, format.ManifestPath))
	if err != nil {
		return err
	}
	rebuilt, err := regfile.ReadFile(filepath.Join(res.Dir, format.ManifestPath))
	if err != nil {
		return err
	}
	if bytes.Equal(stored, rebuilt) {
		res.Identical = true
		return nil
	}
	m, err := decodeManifest(rebuilt)
	if err != nil {
		return err
	}
	own := m.Generator
	m.Generator = gen
	asVerified, err := format.Marshal(m)
	if err != nil {
		return err
	}
	if bytes.Equal(stored, asVerified) && own != gen {
		res.OnlyGenerator = true
		return nil
	}
	res.Difference = format.ManifestPath + " differs"
	return nil
}

// checkInputs checks the files a rebuild reads against the manifest m of
// dir: every listed source, and grid.json, which records the Ember
// release.
func checkInputs(ctx context.Context, dir string, m *format.Manifest) error {
	var files []format.File
	for _, src := range m.Sources {
		files = append(files, src.File)
	}
	for _, f := range m.Outputs {
		if f.Path == format.GridPath {
			files = append(files, f)
		}
	}
	r := newFileReader(ctx)
	for _, f := range files {
		if !fs.ValidPath(f.Path) || f.Path == format.ManifestPath {
			return fmt.Errorf("%w: snapshot %s: %s lists the path %q", failure.ErrValidation, dir, format.ManifestPath, f.Path)
		}
		if err := r.stream(dir, f, nil); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%w: rebuilding %s: %w", failure.ErrInterrupted, dir, ctx.Err())
			}
			return fmt.Errorf("%w: snapshot %s: %v", failure.ErrValidation, dir, err)
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
