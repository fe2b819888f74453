// Package boundtest serves the tests of the input bounds: a file far
// larger than a bound, made up as it is read (never held), inside an
// fs.FS that counts the bytes its readers take (FS), and a stream without
// end (Reader). A reader that holds its input to a bound before reading
// it takes none, or no more than the bound, of hundreds of megabytes.
package boundtest

import (
	"io"
	"io/fs"
	"sync/atomic"
	"time"
)

// FS is Base with the file at Name replaced by a file of Size bytes: Head,
// then Fill repeated. Its Stat gives Size, or StatSize when that is set
// (a file system whose sizes are not the bytes it serves). Read counts
// every byte handed out of it.
type FS struct {
	Base     fs.FS
	Name     string
	Head     []byte
	Fill     byte
	Size     int64
	StatSize int64

	read atomic.Int64
}

// Read is the number of bytes read from the file at Name so far.
func (f *FS) Read() int64 { return f.read.Load() }

// Open opens the big file at Name, and anything else in Base.
func (f *FS) Open(name string) (fs.File, error) {
	if name != f.Name {
		return f.Base.Open(name)
	}
	return &file{fs: f, r: Reader{Head: f.Head, Fill: f.Fill}}, nil
}

// ReadDir lists Base's folder, with the big file at Name listed at its
// size when it stands there.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.Base, name) }

type file struct {
	fs *FS
	r  Reader
}

func (b *file) Stat() (fs.FileInfo, error) { return info{b.fs}, nil }
func (b *file) Close() error               { return nil }

func (b *file) Read(p []byte) (int, error) {
	if b.r.n >= b.fs.Size {
		return 0, io.EOF
	}
	n, _ := b.r.Read(p[:min(int64(len(p)), b.fs.Size-b.r.n)])
	b.fs.read.Add(int64(n))
	return n, nil
}

// Reader reads Head, then Fill bytes without end (a record without a line
// end, a field that never closes), counting the bytes read.
type Reader struct {
	Head []byte
	Fill byte
	n    int64
}

// Read fills p.
func (r *Reader) Read(p []byte) (int, error) {
	for i := range p {
		if at := r.n + int64(i); at < int64(len(r.Head)) {
			p[i] = r.Head[at]
		} else {
			p[i] = r.Fill
		}
	}
	r.n += int64(len(p))
	return len(p), nil
}

// N is the number of bytes read so far.
func (r *Reader) N() int64 { return r.n }

type info struct{ fs *FS }

func (i info) Name() string { return i.fs.Name }
func (i info) Size() int64 {
	if i.fs.StatSize != 0 {
		return i.fs.StatSize
	}
	return i.fs.Size
}
func (i info) Mode() fs.FileMode  { return 0o644 }
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return false }
func (i info) Sys() any           { return nil }
