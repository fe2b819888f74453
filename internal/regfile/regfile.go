// Package regfile opens files for reading only when they are regular
// files. A named pipe (FIFO) put where a file is expected would block the
// reader forever on open or read; a device could stream without end. Open
// refuses both without opening them for reading.
package regfile

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// NotRegularError is a path that holds something other than a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; refusing to read it", e.Path, kind(e.Mode))
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "an irregular file"
}

// Open opens name for reading when it is a regular file (following
// symbolic links), and fails with a *NotRegularError otherwise. It stats
// the path before opening it, so a FIFO or device is never opened; and it
// opens without blocking and checks the opened file again, so a file
// swapped for a FIFO between the two steps is refused too.
func Open(name string) (*os.File, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: name, Mode: fi.Mode()}
	}
	// O_NONBLOCK: opening a FIFO swapped in meanwhile does not wait for a
	// writer; on a regular file it changes nothing.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: name, Mode: fi.Mode()}
	}
	return f, nil
}

// ReadFile reads the whole of a regular file, as os.ReadFile does, and
// refuses any other kind of file as Open does.
func ReadFile(name string) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f)
}

// ReadAll reads the rest of an open file into a buffer sized once from its
// size (io.ReadAll grows one from 512 bytes: eight allocations for a
// 6 KB model file).
func ReadAll(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if fi.Size() < 1<<30 {
		buf.Grow(int(fi.Size()) + bytes.MinRead)
	}
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}

// DirFS is os.DirFS(dir) for reading files: its Open refuses, as Open
// does, anything but a regular file.
func DirFS(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return Open(filepath.Join(string(d), filepath.FromSlash(name)))
}
