package snapshots

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// stagingPrefix starts the name of a snapshot being built. Leftovers of a
// killed build carry it and are removed by the next build.
const stagingPrefix = ".staging-"

// lockName is the lock file that keeps two builds out of one output folder.
const lockName = ".lock"

// stage is a snapshot being built in a temporary folder beside its target.
type stage struct {
	dir   string
	files map[string]File // by slash path
}

func newStage(out, date string) (*stage, error) {
	dir, err := os.MkdirTemp(out, stagingPrefix+date+"-")
	if err != nil {
		return nil, fmt.Errorf("creating the staging folder: %w", err)
	}
	return &stage{dir: dir, files: map[string]File{}}, nil
}

// path returns the OS path of a slash path inside the stage.
func (s *stage) path(rel string) string { return filepath.Join(s.dir, filepath.FromSlash(rel)) }

// create opens a new file in the stage; commit it with closeFile.
func (s *stage) create(rel string) (*os.File, error) {
	if !fs.ValidPath(rel) || strings.HasPrefix(rel, ".") {
		return nil, fmt.Errorf("bad snapshot path %q", rel)
	}
	if _, dup := s.files[rel]; dup {
		return nil, fmt.Errorf("%s written twice", rel)
	}
	p := s.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

// write writes a whole file into the stage, synced, and records its size
// and sha256.
func (s *stage) write(rel string, data []byte) (File, error) {
	f, err := s.create(rel)
	if err != nil {
		return File{}, fmt.Errorf("%w: writing %s: %w", ErrConflict, rel, err)
	}
	half := len(data) / 2
	if _, err := f.Write(data[:half]); err != nil {
		f.Close()
		return File{}, fmt.Errorf("%w: writing %s: %w", ErrConflict, rel, err)
	}
	if strings.HasPrefix(rel, "models/") {
		checkpoint(cpMidFile)
	}
	if _, err := f.Write(data[half:]); err != nil {
		f.Close()
		return File{}, fmt.Errorf("%w: writing %s: %w", ErrConflict, rel, err)
	}
	return s.closeFile(rel, f)
}

// closeFile syncs and closes a file made by create and records it.
func (s *stage) closeFile(rel string, f *os.File) (File, error) {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, fmt.Errorf("%w: writing %s: %w", ErrConflict, rel, err)
	}
	file, err := hashFile(s.path(rel), rel)
	if err != nil {
		return File{}, err
	}
	s.files[rel] = file
	return file, nil
}

// hashFile returns the size and sha256 of a file on disk.
func hashFile(path, rel string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return File{}, fmt.Errorf("reading %s: %w", rel, err)
	}
	return File{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// syncDirs fsyncs every folder of the stage, so the renamed snapshot's
// entries are on disk before it becomes visible.
func (s *stage) syncDirs() error {
	return filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return syncDir(p)
	})
}

func syncDir(p string) error {
	d, err := os.Open(p)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("syncing %s: %w", p, err)
	}
	return nil
}

// lock takes the output folder's lock. It waits for a build that holds it,
// saying so through wait, and returns the function that releases it.
func lock(out string, wait func()) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(out, lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the lock of %s: %w", out, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", out, err)
		}
		wait()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", out, err)
		}
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// removeLeftovers deletes staging folders that a killed build left behind.
// The caller holds the lock, so no live build owns them.
func removeLeftovers(out string) ([]string, error) {
	entries, err := os.ReadDir(out)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), stagingPrefix) {
			if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
				return removed, fmt.Errorf("removing the leftover %s: %w", e.Name(), err)
			}
			removed = append(removed, e.Name())
		}
	}
	return removed, nil
}

// sameTree reports whether two folders hold the same files with the same
// bytes, and the first difference when they do not.
func sameTree(a, b string) (bool, string, error) {
	fa, err := listTree(a)
	if err != nil {
		return false, "", err
	}
	fb, err := listTree(b)
	if err != nil {
		return false, "", err
	}
	for i := 0; i < len(fa) || i < len(fb); i++ {
		switch {
		case i >= len(fa):
			return false, fb[i] + " is new", nil
		case i >= len(fb):
			return false, fa[i] + " would be removed", nil
		case fa[i] != fb[i]:
			return false, "the file lists differ at " + min(fa[i], fb[i]), nil
		}
		da, err := os.ReadFile(filepath.Join(a, fa[i]))
		if err != nil {
			return false, "", err
		}
		db, err := os.ReadFile(filepath.Join(b, fb[i]))
		if err != nil {
			return false, "", err
		}
		if !bytes.Equal(da, db) {
			return false, fa[i] + " differs", nil
		}
	}
	return true, "", nil
}

// listTree returns the slash paths of the regular files below dir, sorted.
func listTree(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(files)
	return files, err
}
