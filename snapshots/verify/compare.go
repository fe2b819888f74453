package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// Verify's rebuild compares as it writes: its sink, the comparing sink, is
// the build's write sink (build.Sink) that writes no file that matches the
// stored snapshot. Each file is compared with the stored one as its bytes
// come; only a file that differs (or that the snapshot lacks) is written
// out, into the sink's folder, from the first difference on with the
// stored bytes before it, so that it can be read and described. A file the
// build reads back (the pages read the model files and grid.json) comes
// from the stored snapshot when it matched, else from the sink's folder.
// For a snapshot that verifies it writes nothing at all.

// comparingSink is the build's write sink of verify's rebuild: it compares
// each file with the one of stored at its path, and writes out into dir
// only the files that differ. Like the store's stage it is used from one
// goroutine, and takes each path once.
type comparingSink struct {
	stored fs.FS
	dir    string
	files  map[string]format.File // what was written, by slash path
	// writing holds the path whose stream is open; differs the paths
	// written out into dir.
	writing string
	differs map[string]bool
}

func newComparingSink(stored fs.FS, dir string) *comparingSink {
	return &comparingSink{stored: stored, dir: dir, files: map[string]format.File{}, differs: map[string]bool{}}
}

// path returns the OS path of a slash path in the sink's folder.
func (c *comparingSink) path(rel string) string { return filepath.Join(c.dir, filepath.FromSlash(rel)) }

// WriteFile compares data with the stored file at rel, writing it out
// when it differs, and returns its manifest entry.
func (c *comparingSink) WriteFile(rel string, data []byte) (format.File, error) {
	return c.WriteStream(rel, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteStream compares the bytes fn writes with the stored file at rel as
// they come, writing the file out when they differ, and returns its
// manifest entry: the size and sha256 of the bytes written. A path is
// written once, as in a stage.
func (c *comparingSink) WriteStream(rel string, fn func(w io.Writer) error) (format.File, error) {
	_, dup := c.files[rel]
	switch err := store.CheckPath(rel); {
	case err != nil:
		return format.File{}, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, rel, err)
	case dup || c.writing == rel:
		return format.File{}, fmt.Errorf("%w: writing %s: %s written twice", failure.ErrConflict, rel, rel)
	}
	c.writing = rel
	defer func() { c.writing = "" }()
	w := &comparingWriter{c: c, rel: rel, h: sha256.New()}
	w.cmp, _ = regfile.OpenFS(c.stored, rel) // none: w differs from its first byte
	defer w.close()
	defer func() {
		if w.f != nil { // a stream that failed
			w.f.Close()
		}
	}()
	if err := fn(w); err != nil {
		return format.File{}, err
	}
	if err := w.settle(); err != nil {
		return format.File{}, err
	}
	if w.f != nil {
		if err := w.f.Close(); err != nil {
			return format.File{}, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, rel, err)
		}
		w.f = nil
	}
	file := format.File{Path: rel, Size: w.n, SHA256: hex.EncodeToString(w.h.Sum(nil))}
	c.files[rel] = file
	return file, nil
}

// comparingWriter is a file being written into a comparing sink: f is nil
// while its bytes match those of cmp, the stored file.
type comparingWriter struct {
	c   *comparingSink
	rel string
	h   hash.Hash
	n   int64 // the bytes written so far
	cmp fs.File
	buf []byte // the stored bytes being compared
	f   *os.File
}

// compareChunk bounds the buffer that holds stored bytes to compare: a
// source written whole (a 22 MB task file at 10,000 models) is compared a
// chunk at a time.
const compareChunk = 64 << 10

func (w *comparingWriter) Write(p []byte) (int, error) {
	if w.f == nil && !w.matches(p) {
		if err := w.diverge(); err != nil {
			return 0, err
		}
	}
	if w.f != nil {
		if _, err := w.f.Write(p); err != nil {
			return 0, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, w.rel, err)
		}
	}
	w.h.Write(p)
	w.n += int64(len(p))
	return len(p), nil
}

// matches reports whether p is the stored file's next bytes, reading them.
func (w *comparingWriter) matches(p []byte) bool {
	if w.cmp == nil {
		return false
	}
	if k := min(len(p), compareChunk); len(w.buf) < k {
		w.buf = make([]byte, k)
	}
	for rest := p; len(rest) > 0; {
		b := w.buf[:min(len(rest), len(w.buf))]
		if n, _ := io.ReadFull(w.cmp, b); n != len(b) || !bytes.Equal(b, rest[:len(b)]) {
			return false
		}
		rest = rest[len(b):]
	}
	return true
}

// diverge writes the file out: it creates it in the sink's folder and
// copies into it the stored bytes matched so far, which are the file's
// first w.n bytes; the rest is written there.
func (w *comparingWriter) diverge() error {
	p := w.c.path(w.rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, w.rel, err)
	}
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, w.rel, err)
	}
	w.c.differs[w.rel] = true
	w.f = out
	w.close()
	if w.n == 0 {
		return nil
	}
	stored, err := regfile.OpenFS(w.c.stored, w.rel)
	if err != nil {
		return fmt.Errorf("%w: copying the stored %s's first %d bytes: %w", failure.ErrConflict, w.rel, w.n, err)
	}
	defer stored.Close()
	if n, err := io.CopyN(out, stored, w.n); err != nil {
		return fmt.Errorf("%w: copying the stored %s's first %d bytes: %d copied: %w", failure.ErrConflict, w.rel, w.n, n, err)
	}
	return nil
}

// settle, at the end of a file that matched so far, writes it out when the
// stored file is longer, or missing.
func (w *comparingWriter) settle() error {
	if w.f != nil {
		return nil
	}
	if w.cmp != nil {
		var one [1]byte
		if _, err := io.ReadFull(w.cmp, one[:]); err == io.EOF {
			return nil // the same bytes
		}
	}
	return w.diverge()
}

// close closes the stored file.
func (w *comparingWriter) close() {
	if w.cmp != nil {
		w.cmp.Close()
		w.cmp = nil
	}
}

// FS is the files as the build wrote them, for the build to read back:
// each that matched from the stored snapshot, each that differed from the
// sink's folder.
func (c *comparingSink) FS() fs.FS { return comparedFS{c} }

type comparedFS struct{ c *comparingSink }

func (fsys comparedFS) Open(name string) (fs.File, error) {
	_, written := fsys.c.files[name]
	switch {
	case !written:
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case fsys.c.differs[name]:
		return os.Open(fsys.c.path(name))
	}
	return regfile.OpenFS(fsys.c.stored, name)
}

// diffs lists how the files the build wrote differ from the stored
// snapshot's: a file only in the snapshot is "extra", one only in the
// rebuild "missing", and one that was written out "changed" (diffFile
// says how).
func (c *comparingSink) diffs() ([]FileDiff, error) {
	stored, err := store.ListFiles(c.stored)
	if err != nil {
		return nil, err
	}
	rebuilt := make([]string, 0, len(c.files))
	for p := range c.files {
		rebuilt = append(rebuilt, p)
	}
	slices.Sort(rebuilt)
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
		if !c.differs[p] {
			continue
		}
		rb, err := os.ReadFile(c.path(p))
		if err != nil {
			return nil, err
		}
		sb, err := readStored(c.stored, p)
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

// readStored reads the whole of the regular file p of fsys.
func readStored(fsys fs.FS, p string) ([]byte, error) {
	f, err := regfile.OpenFS(fsys, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return regfile.ReadAll(f)
}
