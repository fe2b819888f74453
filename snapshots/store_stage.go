package snapshots

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/internal/failure"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/format"
)

// stagingPrefix starts the name of a snapshot being built. Leftovers of a
// killed build carry it and are removed by the next build.
const stagingPrefix = ".staging-"

// stage is a snapshot being built in a temporary folder beside its target.
//
// Its files are written without a sync each: sync makes the whole stage
// durable at once, before it is renamed into place (publish). A build
// killed before that leaves a staging folder, which the next build removes;
// so a snapshot is never visible before all of its bytes are on disk.
//
// A stage is used from one goroutine, and needs no lock: the build's steps
// run in sequence on the goroutine that made it (one file written at a
// time, the pages reading the files back through fsys between writes), as
// do Verify's rebuild into its comparing stage and its comparedDiffs (the
// checks running beside the rebuild read the stored snapshot, not the
// stage). It starts no goroutine of its own: sync runs on the caller's.
type stage struct {
	dir   string
	files map[string]format.File // by slash path
	// dirs are the folders made so far, by OS path: each is made once.
	dirs map[string]bool
	// root is the staging folder, open from its creation, for sync: syncfs
	// reports a write-back error of the file system that happened after
	// the descriptor was opened (Linux 5.8 and later).
	root *os.File

	// stored, when set, makes this a comparing stage (Verify's rebuild,
	// verify_compare.go): files are compared with those of the snapshot at
	// stored, and only those that differ are written, their paths in
	// differs.
	stored  string
	differs map[string]bool

	// synced is set once sync has begun: nothing more may be written.
	synced bool
	// opened are the paths a comparing stage has opened, as O_EXCL
	// remembers them for a stage that writes every file.
	opened map[string]bool
}

func newStage(out, date string) (*stage, error) {
	dir, err := mkdirStaging(out, stagingPrefix+date+"-")
	if err != nil {
		return nil, fmt.Errorf("creating the staging folder: %w", err)
	}
	root, err := os.Open(dir)
	if err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("opening the staging folder: %w", err)
	}
	return &stage{dir: dir, files: map[string]format.File{}, dirs: map[string]bool{}, root: root, differs: map[string]bool{}, opened: map[string]bool{}}, nil
}

// Modes of the published folders and files, less the umask: anyone may
// read a snapshot (another account, a web server, an auditor).
const (
	dirMode  = 0o755
	fileMode = 0o644
)

// mkdirStaging makes a new folder named prefix and a random number in out,
// as os.MkdirTemp does but with dirMode (less the umask) instead of 0700:
// the staging folder becomes the published snapshot by a rename.
func mkdirStaging(out, prefix string) (string, error) {
	for range 100 {
		dir := filepath.Join(out, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		err := os.Mkdir(dir, dirMode)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("no unused name for a folder %s* in %s", prefix, out)
}

// close releases the staging folder's descriptor.
func (s *stage) close() {
	s.root.Close() // a sync under way has a descriptor of its own
}

// path returns the OS path of a slash path inside the stage.
func (s *stage) path(rel string) string { return filepath.Join(s.dir, filepath.FromSlash(rel)) }

// create opens a new file in the stage.
func (s *stage) create(rel string) (*os.File, error) {
	if err := s.checkNew(rel); err != nil {
		return nil, err
	}
	p := s.path(rel)
	if dir := filepath.Dir(p); !s.dirs[dir] {
		if err := os.MkdirAll(dir, dirMode); err != nil {
			return nil, err
		}
		s.dirs[dir] = true
	}
	return os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
}

// checkNew checks that rel is a snapshot path not written yet, and that
// the stage has not been synced (a file written after its sync would not
// be on disk before the snapshot appears).
func (s *stage) checkNew(rel string) error {
	if !fs.ValidPath(rel) || strings.HasPrefix(rel, ".") {
		return fmt.Errorf("bad snapshot path %q", rel)
	}
	_, dup := s.files[rel]
	switch {
	case dup:
		return fmt.Errorf("%s written twice", rel)
	case s.synced:
		return fmt.Errorf("%s written after the stage's sync started", rel)
	}
	return nil
}

// write writes a whole file into the stage and records its size and
// sha256, those of data.
func (s *stage) write(rel string, data []byte) (format.File, error) {
	w, err := s.open(rel)
	if err != nil {
		return format.File{}, err
	}
	if _, err := w.Write(data); err != nil {
		w.abort()
		return format.File{}, err
	}
	return w.commit()
}

// open starts a file of the stage that is written piece by piece; commit
// records it, abort gives it up (the stage is removed on failure).
func (s *stage) open(rel string) (*stageFile, error) {
	if s.comparing() {
		return s.openCompared(rel)
	}
	f, err := s.create(rel)
	if err != nil {
		return nil, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, rel, err)
	}
	return &stageFile{s: s, rel: rel, f: f, h: sha256.New()}, nil
}

// stageFile is a file being written into the stage. Its size and sha256
// are those of the bytes written, counted as they go: the file is not read
// back. A write error (a full disk) is an failure.ErrConflict naming the file.
type stageFile struct {
	s   *stage
	rel string
	f   *os.File
	h   hash.Hash
	n   int64

	// In a comparing stage, f is nil while the bytes match those of cmp,
	// the stored file (verify_compare.go); buf holds its bytes to compare.
	cmp *os.File
	buf []byte
}

func (w *stageFile) Write(p []byte) (int, error) {
	if w.f == nil {
		if same, err := w.compare(p); same || err != nil {
			if err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	n, err := w.f.Write(p)
	w.h.Write(p[:n])
	w.n += int64(n)
	if err != nil {
		return n, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, w.rel, err)
	}
	return n, nil
}

// commit closes the file and records it in the stage.
func (w *stageFile) commit() (format.File, error) {
	if w.s.comparing() {
		if err := w.settle(); err != nil {
			return format.File{}, err
		}
		if w.f == nil { // the stored bytes
			return w.s.record(format.File{Path: w.rel, Size: w.n, SHA256: hex.EncodeToString(w.h.Sum(nil))}), nil
		}
	}
	if err := w.f.Close(); err != nil {
		return format.File{}, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, w.rel, err)
	}
	return w.s.record(format.File{Path: w.rel, Size: w.n, SHA256: hex.EncodeToString(w.h.Sum(nil))}), nil
}

// record adds a committed file to the stage's list.
func (s *stage) record(file format.File) format.File {
	s.files[file.Path] = file
	return file
}

// abort closes a file that failed; the stage is not published.
func (w *stageFile) abort() {
	w.closeStored()
	if w.f != nil {
		w.f.Close()
	}
}

// sync makes the whole stage durable: every file's bytes and every
// folder's entries. One syncfs(2) of the file system that holds the stage
// replaces an fsync of each of its thousands of files and folders. Linux
// 5.8 and later report through it an error in writing back any file of the
// file system since the stage was opened (see root). Publishing syncs once
// the checks have passed, so a build that fails them never waits for the
// disk; once the sync has begun, nothing more may be written into the
// stage.
func (s *stage) sync() error {
	s.synced = true
	if err := syncfs(int(s.root.Fd())); err != nil {
		return fmt.Errorf("syncing %s: %w", s.dir, err)
	}
	return nil
}

// syncfs is unix.Syncfs; tests replace it.
var syncfs = unix.Syncfs
