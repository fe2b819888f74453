package catalog

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"time"
)

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
