package snapshots

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/leadgreen/greentokens/internal/regfile"
)

// Verify's rebuild compares as it writes: its stage (a comparing stage,
// stage.stored set) writes no file that matches the stored snapshot. Each
// file is compared with the stored one as its bytes come; only a file that
// differs (or that the snapshot lacks) is written out, into the stage
// folder, from the first difference on with the stored bytes before it, so
// that it can be read and described. A file the build reads back (the
// pages read the model files and grid.json) comes from the stored snapshot
// when it matched, else from the stage folder.
//
// For a snapshot that verifies this writes nothing at all. Writing the
// rebuild out into a temporary folder and comparing the two folders after
// it (creating and removing each file costs kernel time) takes verify of
// 1,000 models and ember-synth's 40 MB CSV from 0.9 to 1.6 s on 2 cores
// (the whole job, build and verify, from 2.4 to 3.2 s), and of 10,000
// models from 7.1 to 8.1 s.

// rebuildStage rebuilds the snapshot at stored, from its archived sources
// (opts, rebuildOptions), in a comparing stage in a new folder under tmp.
// The caller removes tmp.
func rebuildStage(ctx context.Context, tmp, stored string, opts BuildOptions) (*stage, error) {
	if err := checkDates(opts); err != nil {
		return nil, err
	}
	st, err := newStage(tmp, opts.Date)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	st.stored = stored
	if _, err := produce(ctx, st, opts, slog.New(slog.DiscardHandler)); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

// comparing reports whether s is a comparing stage (Verify's rebuild).
func (s *stage) comparing() bool { return s.stored != "" }

// openCompared starts a file of a comparing stage: no file is created
// unless its bytes differ from the stored one's.
func (s *stage) openCompared(rel string) (*stageFile, error) {
	if err := s.checkNew(rel); err != nil {
		return nil, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, rel, err)
	}
	dup := s.opened[rel]
	s.opened[rel] = true
	if dup {
		return nil, fmt.Errorf("%w: writing %s: %s written twice", failure.ErrConflict, rel, rel)
	}
	w := &stageFile{s: s, rel: rel, h: sha256.New()}
	w.openStored()
	return w, nil
}

// openStored opens the stored file that w's bytes are compared with; a
// stored file that cannot be opened (missing, not a regular file) leaves
// nothing to match, and w differs from its first byte.
func (w *stageFile) openStored() {
	f, err := regfile.Open(filepath.Join(w.s.stored, filepath.FromSlash(w.rel)))
	if err == nil {
		w.cmp = f
	}
}

// compare consumes p if it is the stored file's next bytes; else it writes
// the file out (diverge) and reports false, for p to be written after.
func (w *stageFile) compare(p []byte) (bool, error) {
	if w.cmp != nil {
		if k := min(len(p), compareChunk); len(w.buf) < k {
			w.buf = make([]byte, k)
		}
		rest := p
		for len(rest) > 0 {
			b := w.buf[:min(len(rest), len(w.buf))]
			if n, _ := io.ReadFull(w.cmp, b); n != len(b) || !bytes.Equal(b, rest[:len(b)]) {
				return false, w.diverge()
			}
			rest = rest[len(b):]
		}
		w.h.Write(p)
		w.n += int64(len(p))
		return true, nil
	}
	return false, w.diverge()
}

// compareChunk bounds the buffer that holds stored bytes to compare: a
// source written whole (a 22 MB task file at 10,000 models) is compared a
// chunk at a time.
const compareChunk = 64 << 10

// diverge writes the file out: it creates it in the stage folder and copies
// into it the stored bytes matched so far, which are the file's first
// w.n bytes; the rest is written there.
func (w *stageFile) diverge() error {
	f, err := w.s.create(w.rel)
	if err != nil {
		w.closeStored()
		return fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, w.rel, err)
	}
	if w.n > 0 {
		if n, err := io.Copy(f, io.NewSectionReader(w.cmp, 0, w.n)); err != nil || n != w.n {
			f.Close()
			w.closeStored()
			return fmt.Errorf("%w: copying the stored %s's first %d bytes: %d copied: %v", failure.ErrConflict, w.rel, w.n, n, err)
		}
	}
	w.closeStored()
	w.f = f
	w.s.differs[w.rel] = true
	return nil
}

// settle, at the commit of a file that matched so far, writes it out when
// the stored file is longer, or missing.
func (w *stageFile) settle() error {
	if w.f != nil {
		return nil
	}
	if w.cmp != nil {
		var one [1]byte
		if _, err := io.ReadFull(w.cmp, one[:]); err == io.EOF {
			w.closeStored()
			return nil // the same bytes
		}
	}
	return w.diverge()
}

func (w *stageFile) closeStored() {
	if w.cmp != nil {
		w.cmp.Close()
		w.cmp = nil
	}
}

// fsys is the stage's files as the build wrote them, for the build to read
// back: the stage folder, or for a comparing stage, each file that matched
// from the stored snapshot and each that differed from the stage folder.
func (s *stage) fsys() fs.FS {
	if s.stored == "" {
		return os.DirFS(s.dir)
	}
	return comparedFS{s}
}

type comparedFS struct{ s *stage }

func (c comparedFS) Open(name string) (fs.File, error) {
	_, written := c.s.files[name]
	differs := c.s.differs[name]
	switch {
	case !written:
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case differs:
		return os.Open(c.s.path(name))
	}
	return regfile.Open(filepath.Join(c.s.stored, filepath.FromSlash(name)))
}

// comparedDiffs lists how the files of a comparing stage, after the
// build, differ from the stored snapshot's: a file only in the snapshot is
// "extra", one only in the rebuild "missing", and one that the rebuild
// wrote out "changed" (diffFile says how).
func comparedDiffs(st *stage) ([]FileDiff, error) {
	stored, err := listTree(st.stored)
	if err != nil {
		return nil, err
	}
	rebuilt := make([]string, 0, len(st.files))
	for p := range st.files {
		rebuilt = append(rebuilt, p)
	}
	sort.Strings(rebuilt)
	var diffs []FileDiff
	i, j := 0, 0
	for i < len(stored) || j < len(rebuilt) {
		switch {
		case j == len(rebuilt) || (i < len(stored) && stored[i] < rebuilt[j]):
			diffs = append(diffs, FileDiff{Path: stored[i], Kind: "extra"})
			i++
			continue
		case i == len(stored) || rebuilt[j] < stored[i]:
			diffs = append(diffs, FileDiff{Path: rebuilt[j], Kind: "missing"})
			j++
			continue
		}
		p := stored[i]
		i, j = i+1, j+1
		if !st.differs[p] {
			continue
		}
		rb, err := os.ReadFile(st.path(p))
		if err != nil {
			return nil, err
		}
		sb, err := regfile.ReadFile(filepath.Join(st.stored, filepath.FromSlash(p)))
		if err != nil {
			diffs = append(diffs, FileDiff{Path: p, Kind: "changed", Note: "cannot be read: " + err.Error()})
			continue
		}
		if !bytes.Equal(sb, rb) {
			diffs = append(diffs, diffFile(p, sb, rb))
		}
	}
	return diffs, nil
}
