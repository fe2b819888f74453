// Package sharedblocks tells, for the tests and benchmarks of a build that
// shares an earlier snapshot's sources, whether two files store their
// bytes once: one file under two names (a hard link), or two files whose
// every extent is the same blocks of the disk (a reflink, FICLONE), as the
// file system's extent map (the FIEMAP ioctl) gives them; and how many
// bytes of disk a tree of files takes, each block shared counted once.
package sharedblocks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Kind is how two files store their bytes.
type Kind int

const (
	Apart    Kind = iota // each its own blocks (a copy)
	HardLink             // one file under two names
	Reflink              // two files on the same blocks
)

func (k Kind) String() string {
	switch k {
	case HardLink:
		return "a hard link"
	case Reflink:
		return "a reflink"
	}
	return "apart"
}

// Of reports how the files at a and b store their bytes. Two empty files
// are Apart: they have no blocks to share; so are two files of a file
// system that gives no extent map and clones no file (tmpfs).
func Of(a, b string) (Kind, error) {
	fa, err := os.Lstat(a)
	if err != nil {
		return 0, err
	}
	fb, err := os.Lstat(b)
	if err != nil {
		return 0, err
	}
	if os.SameFile(fa, fb) {
		return HardLink, nil
	}
	ea, err := extents(a)
	if errors.Is(err, unix.EOPNOTSUPP) {
		can, cerr := CanReflink(filepath.Dir(a))
		if cerr == nil && !can {
			return Apart, nil
		}
	}
	if err != nil {
		return 0, err
	}
	eb, err := extents(b)
	if err != nil {
		return 0, err
	}
	if len(ea) > 0 && slices.Equal(ea, eb) {
		return Reflink, nil
	}
	return Apart, nil
}

// Usage is what the regular files under root take on disk: stored, the
// bytes of their distinct extents (a block that two names or two clones
// share counted once), and copies, the bytes of every file's extents
// counted for each name (what the same files would take as copies).
// Both count whole allocated blocks.
func Usage(root string) (stored, copies int64, err error) {
	seen := map[extent]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		es, err := extents(p)
		if err != nil {
			return err
		}
		for _, e := range es {
			copies += int64(e.length)
			if !seen[extent{physical: e.physical, length: e.length}] {
				seen[extent{physical: e.physical, length: e.length}] = true
				stored += int64(e.length)
			}
		}
		return nil
	})
	return stored, copies, err
}

// CanReflink reports whether the file system of the folder dir clones a
// file (FICLONE).
func CanReflink(dir string) (bool, error) {
	a, err := os.CreateTemp(dir, ".reflink-")
	if err != nil {
		return false, err
	}
	defer os.Remove(a.Name())
	defer a.Close()
	b, err := os.CreateTemp(dir, ".reflink-")
	if err != nil {
		return false, err
	}
	defer os.Remove(b.Name())
	defer b.Close()
	return unix.IoctlFileClone(int(b.Fd()), int(a.Fd())) == nil, nil
}

// The FIEMAP ioctl's request and its structures (linux/fiemap.h).
const (
	fsIocFiemap     = 0xC020660B
	fiemapFlagSync  = 0x1
	fiemapExtentEnd = 0x1 // FIEMAP_EXTENT_LAST
	maxExtents      = 256
)

type fiemap struct {
	start, length                uint64
	flags, mapped, count, unused uint32
	extents                      [maxExtents]fiemapExtent
}

type fiemapExtent struct {
	logical, physical, length uint64
	reserved64                [2]uint64
	flags                     uint32
	reserved                  [3]uint32
}

// extent is where a piece of a file lies on the disk.
type extent struct{ logical, physical, length uint64 }

// extents is the file at p's extent map, its data synced first.
func extents(p string) ([]extent, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []extent
	var start uint64
	for {
		m := fiemap{start: start, length: ^uint64(0) - start, flags: fiemapFlagSync, count: maxExtents}
		if _, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), fsIocFiemap, uintptr(unsafe.Pointer(&m))); errno != 0 {
			return nil, fmt.Errorf("the extent map of %s (FIEMAP): %w", p, errno)
		}
		if m.mapped == 0 {
			return out, nil
		}
		for _, e := range m.extents[:m.mapped] {
			out = append(out, extent{e.logical, e.physical, e.length})
			if e.flags&fiemapExtentEnd != 0 {
				return out, nil
			}
			start = e.logical + e.length
		}
		if m.mapped < maxExtents {
			return out, nil
		}
	}
}
