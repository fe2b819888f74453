package snapshots

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/leadgreen/greentokens/internal/regfile"
)

// rebuildStage rebuilds the snapshot from its archived sources (opts,
// rebuildOptions) into a new stage under tmp, as a build writes one. The
// caller removes tmp.
func rebuildStage(ctx context.Context, tmp string, opts BuildOptions) (*stage, error) {
	if err := checkDates(opts); err != nil {
		return nil, err
	}
	st, err := newStage(tmp, opts.Date)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConflict, err)
	}
	if _, err := produce(ctx, st, opts, slog.New(slog.DiscardHandler)); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

// compareTrees lists how the rebuilt folder differs from the stored
// snapshot, file by file and byte for byte: a file only in the snapshot is
// "extra", one only in the rebuild "missing", and one whose bytes differ
// "changed" (diffFile says how).
func compareTrees(stored, rebuilt string) ([]FileDiff, error) {
	sp, err := listTree(stored)
	if err != nil {
		return nil, err
	}
	rp, err := listTree(rebuilt)
	if err != nil {
		return nil, err
	}
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	var diffs []FileDiff
	i, j := 0, 0
	for i < len(sp) || j < len(rp) {
		switch {
		case j == len(rp) || (i < len(sp) && sp[i] < rp[j]):
			diffs = append(diffs, FileDiff{Path: sp[i], Kind: "extra"})
			i++
			continue
		case i == len(sp) || rp[j] < sp[i]:
			diffs = append(diffs, FileDiff{Path: rp[j], Kind: "missing"})
			j++
			continue
		}
		p := sp[i]
		i, j = i+1, j+1
		sPath, rPath := filepath.Join(stored, filepath.FromSlash(p)), filepath.Join(rebuilt, filepath.FromSlash(p))
		if same, err := sameFile(sPath, rPath, bufA, bufB); err == nil && same {
			continue
		}
		sb, err := regfile.ReadFile(sPath)
		if err != nil {
			diffs = append(diffs, FileDiff{Path: p, Kind: "changed", Note: "cannot be read: " + err.Error()})
			continue
		}
		rb, err := os.ReadFile(rPath)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(sb, rb) {
			diffs = append(diffs, diffFile(p, sb, rb))
		}
	}
	return diffs, nil
}
