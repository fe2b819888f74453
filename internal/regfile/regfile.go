// Package regfile opens files for reading only when they are regular
// files. A named pipe (FIFO) put where a file is expected would block the
// reader forever on open or read; a device could stream without end. Open
// refuses both without opening them for reading. DirFS serves a folder as
// an fs.FS under the same refusals, and refuses symbolic links too.
package regfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
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

// Kind says what the path holds: "a symbolic link", "a named pipe
// (FIFO)", "a folder", ...
func (e *NotRegularError) Kind() string { return kind(e.Mode) }

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
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
	if err := opened(f, name, false); err != nil {
		return nil, err
	}
	return f, nil
}

// opened checks the file just opened at name again: a regular file, or a
// folder when folders are allowed. Otherwise it closes f.
func opened(f *os.File, name string, folders bool) error {
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() && !(folders && fi.IsDir()) {
		err = &NotRegularError{Path: name, Mode: fi.Mode()}
	}
	if err != nil {
		f.Close()
	}
	return err
}

// OpenFS opens the file name of fsys for reading when it is a regular
// file, and fails with a *NotRegularError otherwise, whatever fsys serves
// (DirFS refuses the others before opening them; another fs.FS is held to
// it here).
func OpenFS(fsys fs.FS, name string) (fs.File, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &NotRegularError{Path: name, Mode: fi.Mode()}
	}
	if err != nil {
		f.Close()
		return nil, err
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
func ReadAll(f fs.File) ([]byte, error) {
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

// DirFS returns the files under the folder dir as an fs.FS, for reading a
// snapshot. Its Open opens a regular file or a folder and refuses, with a
// *NotRegularError naming the slash path, anything else: a FIFO, a device,
// a socket, and a symbolic link wherever it stands in the path, whether it
// points inside the folder or out of it (a link is refused, not followed).
// It opens through an os.Root, so no path leaves dir even if a link is
// swapped in meanwhile, and like Open it checks what it opened. dir itself
// is opened as named.
//
// Its Name method returns dir: the name of the snapshot it holds.
func DirFS(dir string) fs.FS { return dirFS(dir) }

type dirFS string

// Name is the folder, as given to DirFS.
func (d dirFS) Name() string { return string(d) }

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// Every element of the path, the last one included, is looked at
	// before anything is opened: a link is never followed, and a FIFO or
	// device never opened.
	for i := 0; i >= 0; {
		elem := name
		if j := strings.IndexByte(name[i:], '/'); j >= 0 {
			elem, i = name[:i+j], i+j+1
		} else {
			i = -1
		}
		fi, err := root.Lstat(elem)
		if err != nil {
			// As os.DirFS says it: "open models/x.json: no such file or
			// directory", not the root's "statat".
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = &fs.PathError{Op: "open", Path: name, Err: pe.Err}
			}
			return nil, err
		}
		if m := fi.Mode(); m&fs.ModeSymlink != 0 || !m.IsRegular() && !m.IsDir() {
			return nil, &NotRegularError{Path: elem, Mode: m}
		}
	}
	// O_NONBLOCK, as in Open.
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := opened(f, name, true); err != nil {
		return nil, err
	}
	return f, nil
}
