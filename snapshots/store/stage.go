package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// stagingPrefix starts the name of a snapshot being built. Leftovers of a
// killed build carry it and are removed by the next build.
const stagingPrefix = ".staging-"

// Stage is a snapshot being built in a temporary folder beside its target,
// OUT/DATE, with the output folder's lock held (NewStage): the build's
// write sink on disk.
//
// Its files are written without a sync each: Prepare makes the whole stage
// durable at once, before Publish renames it into place. A build killed
// before that leaves a staging folder, which the next build removes; so a
// snapshot is never visible before all of its bytes are on disk.
//
// A stage is used from one goroutine, and needs no lock: the build's steps
// run in sequence on the goroutine that made it (one file written at a
// time, the pages reading the files back through FS between writes). It
// starts no goroutine of its own: the sync runs on the caller's.
type Stage struct {
	dir       string
	out, date string
	files     map[string]format.File // by slash path
	// dirs are the folders made so far, by slash path: each is made once.
	dirs map[string]bool
	// root is the staging folder, open from its creation: every folder
	// and file of the stage is made through it, so none is made outside
	// it, whatever symbolic link stands in its way, nor in another
	// folder renamed into the stage's place.
	root *os.Root
	// dirFile is the staging folder too, for the sync: syncfs reports a
	// write-back error of the file system that happened after the
	// descriptor was opened (Linux 5.8 and later).
	dirFile *os.File
	// syncfs is unix.Syncfs: the file system's sync.
	syncfs func(fd int) error
	// synced is set once the sync has begun: nothing more may be written.
	synced bool
	// lock is the output folder's lock, held until Close.
	lock *Lock
	// outcome is what Prepare found at OUT/DATE.
	outcome  Outcome
	prepared bool
}

func newStage(out, date string) (*Stage, error) {
	dir, err := mkdirStaging(out, stagingPrefix+date+"-")
	if err != nil {
		return nil, fmt.Errorf("creating the staging folder: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("opening the staging folder: %w", err)
	}
	dirFile, err := root.Open(".")
	if err != nil {
		root.Close()
		os.Remove(dir)
		return nil, fmt.Errorf("opening the staging folder: %w", err)
	}
	return &Stage{dir: dir, out: out, date: date, files: map[string]format.File{}, dirs: map[string]bool{},
		root: root, dirFile: dirFile, syncfs: unix.Syncfs}, nil
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

// Dir is the staging folder: the snapshot as written so far, for the
// checker and the removal guard to read (through regfile.DirFS).
func (s *Stage) Dir() string { return s.dir }

// FS is the stage's files as written, for the build to read back (the
// pages read the model files and grid.json), through regfile.DirFS as
// every snapshot is read.
func (s *Stage) FS() fs.FS { return regfile.DirFS(s.dir) }

// CheckPath checks that rel can name a file of a snapshot: a slash path
// inside it (fs.ValidPath) that does not start with a dot (a staging
// folder's, the lock's).
func CheckPath(rel string) error {
	if !fs.ValidPath(rel) || strings.HasPrefix(rel, ".") {
		return fmt.Errorf("bad snapshot path %q", rel)
	}
	return nil
}

// create opens a new file in the stage, once a path: a second create of
// one path fails (O_EXCL), as does a file written after the stage's sync
// began (it would not be on disk before the snapshot appears). The file
// and its folders are made through the stage's os.Root: a path is never
// made outside the stage, and the file itself is new, a regular file
// (O_EXCL refuses whatever is there already, a symbolic link included,
// and never follows it).
func (s *Stage) create(rel string) (*os.File, error) {
	if err := CheckPath(rel); err != nil {
		return nil, err
	}
	_, dup := s.files[rel]
	switch {
	case dup:
		return nil, fmt.Errorf("%s written twice", rel)
	case s.synced:
		return nil, fmt.Errorf("%s written after the stage's sync started", rel)
	}
	if dir := path.Dir(rel); dir != "." && !s.dirs[dir] {
		if err := s.root.MkdirAll(filepath.FromSlash(dir), dirMode); err != nil {
			return nil, err
		}
		s.dirs[dir] = true
	}
	return s.root.OpenFile(filepath.FromSlash(rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, fileMode)
}

// WriteFile writes the file at the slash path rel, whole, in one write, and
// returns its manifest entry: the size and sha256 of data. An error in
// writing it (a full disk) is an ErrConflict naming the file.
func (s *Stage) WriteFile(rel string, data []byte) (format.File, error) {
	return s.WriteStream(rel, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteStream writes the file at rel as fn writes it to w, piece by piece
// (index.json as it is encoded, Ember's CSV as it is parsed), and returns
// its manifest entry: its size and sha256 are those of the bytes written,
// counted as they go, the file never read back. An error of fn is
// returned as it is, and the file is not recorded (a failed build removes
// its stage); an error in writing to w is an ErrConflict naming the file.
// An archived source (sources/...) that an earlier snapshot of the output
// folder holds with the same bytes is then shared with it, by a reflink or
// a hard link (link.go).
func (s *Stage) WriteStream(rel string, fn func(w io.Writer) error) (format.File, error) {
	f, err := s.create(rel)
	if err != nil {
		return format.File{}, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, rel, err)
	}
	w := &hashingWriter{w: f, rel: rel, h: sha256.New()}
	if err := fn(w); err != nil {
		f.Close()
		return format.File{}, err
	}
	if err := f.Close(); err != nil {
		return format.File{}, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, rel, err)
	}
	file := w.file()
	s.files[rel] = file
	s.share(rel, file) // an archived source an earlier snapshot holds: shared with it (link.go)
	return file, nil
}

// hashingWriter writes to w, counting and hashing the bytes written; an
// error in writing is an ErrConflict naming the file.
type hashingWriter struct {
	w   io.Writer
	rel string
	h   hash.Hash
	n   int64
}

func (w *hashingWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.h.Write(p[:n])
	w.n += int64(n)
	if err != nil {
		return n, fmt.Errorf("%w: writing %s: %w", failure.ErrConflict, w.rel, err)
	}
	return n, nil
}

// file is the manifest entry of the bytes written.
func (w *hashingWriter) file() format.File {
	return format.File{Path: w.rel, Size: w.n, SHA256: hex.EncodeToString(w.h.Sum(nil))}
}

// sync makes the whole stage durable: every file's bytes and every
// folder's entries. One syncfs(2) of the file system that holds the stage
// replaces an fsync of each of its thousands of files and folders. Linux
// 5.8 and later report through it an error in writing back any file of the
// file system since the stage was opened (see root). Publishing syncs once
// the checks have passed, so a build that fails them never waits for the
// disk; once the sync has begun, nothing more may be written into the
// stage.
func (s *Stage) sync() error {
	s.synced = true
	if err := s.syncfs(int(s.dirFile.Fd())); err != nil {
		return fmt.Errorf("syncing %s: %w", s.dir, err)
	}
	return nil
}
