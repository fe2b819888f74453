package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/leadgreen/greentokens/snapshots"
)

// LoadDir loads one snapshot folder as the catalog loads each dated folder
// (every file checked against the manifest and its schema, the published
// files and archived JSON sources held in memory), whatever the folder's
// name: for a command that works on one snapshot. Its errors wrap
// snapshots.ErrValidation.
func LoadDir(dir string) (*Snapshot, error) {
	s, err := load(dir, "")
	return s, invalidSnapshot(dir, err)
}

// invalidSnapshot makes an error of loading the snapshot folder dir wrap
// snapshots.ErrValidation; nil stays nil.
func invalidSnapshot(dir string, err error) error {
	if err != nil && !errors.Is(err, snapshots.ErrValidation) {
		err = fmt.Errorf("%w: %s: %w", snapshots.ErrValidation, filepath.Base(dir), err)
	}
	return err
}

// FS is the snapshot's files held in memory as a read-only file system,
// by slash path (File's paths): nothing is read from disk.
func (s *Snapshot) FS() fs.FS { return memFS(s.files) }

type memFS map[string]*File

func (m memFS) Open(name string) (fs.File, error) {
	f, ok := m[name]
	if !ok || !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{Reader: bytes.NewReader(f.Bytes), f: f}, nil
}

type memFile struct {
	*bytes.Reader
	f *File
}

func (f *memFile) Stat() (fs.FileInfo, error) { return fileInfo{f.f}, nil }
func (f *memFile) Close() error               { return nil }

type fileInfo struct{ f *File }

func (i fileInfo) Name() string       { return filepath.Base(i.f.Path) }
func (i fileInfo) Size() int64        { return int64(len(i.f.Bytes)) }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }
