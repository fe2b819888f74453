package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/format"
)

// An archived source that an earlier snapshot of the same output folder
// holds with the same bytes (a weekly build whose Ember CSV has not
// changed) is shared with it rather than stored again: once written into
// the stage and hashed, the staged copy is replaced by a reflink of the
// earlier file (FICLONE: a file of its own sharing the earlier one's
// blocks, where the file system has it: Btrfs, XFS), else by a hard link
// to it (one file in both snapshots), else it stays a copy. Either way it
// is a regular file of the same bytes, which every reader reads as any
// other, and the manifest is the same.
//
// The earlier file is reached from the output folder's os.Root, so
// nothing outside the output folder is ever shared; it is opened without
// following a symbolic link, must be a regular file of the same size, and
// is hashed before it is shared. The link is made under a new name in the
// stage, by the descriptors of the two folders, and renamed over the
// staged copy; a hard link is kept only when it is the very file hashed.
// The stage only ever creates new files, and a snapshot's files are never
// opened for writing (Publish renames folders; a replaced snapshot is
// removed by unlinking its names), so no build writes through a link into
// an earlier snapshot.

// maxShareCandidates bounds the earlier files of the same size hashed for
// one source: the newest snapshots first.
const maxShareCandidates = 4

// linkPrefix starts the name under which a shared source is made in the
// stage before it is renamed over the staged copy.
const linkPrefix = ".link-"

// share replaces the staged source at rel, whose bytes are file, by a
// reflink or a hard link to the same bytes in an earlier snapshot of the
// output folder, when one holds them. Any failure leaves the copy as it is:
// sharing never fails a build.
func (s *Stage) share(rel string, file format.File) {
	if !strings.HasPrefix(rel, format.SourcesDir) {
		return
	}
	entries, err := Folder(s.out).Entries(context.Background())
	if err != nil {
		return
	}
	out, err := os.OpenRoot(s.out)
	if err != nil {
		return
	}
	defer out.Close()
	dst, err := s.root.Open(filepath.FromSlash(path.Dir(rel)))
	if err != nil {
		return
	}
	defer dst.Close()
	base := path.Base(rel)
	tried := 0
	var rejected []fileID
	for _, e := range slices.Backward(entries) {
		if e.Err != nil || e.Date == s.date || tried == maxShareCandidates {
			continue
		}
		dir, err := out.Open(filepath.Join(e.Date, filepath.FromSlash(path.Dir(rel))))
		if err != nil {
			continue
		}
		src, id, ok := openSame(dir, base, file, rejected)
		switch {
		case ok:
			tried++
			linked := link(dir, src, id, dst, base)
			src.Close()
			if linked {
				dir.Close()
				return
			}
		case id != (fileID{}):
			tried++
			rejected = append(rejected, id)
		}
		dir.Close()
	}
}

// fileID is a file's device and inode.
type fileID struct{ dev, ino uint64 }

func idOf(st *unix.Stat_t) fileID { return fileID{uint64(st.Dev), st.Ino} }

// openSame opens the file base in the folder dir, not following a
// symbolic link, and reports whether it is a regular file holding the
// bytes of file (its size and sha256). A file hashed and found to differ
// returns its identity, so that another name for it is not hashed again
// (rejected: those found so far); one not hashed returns none.
func openSame(dir *os.File, base string, file format.File, rejected []fileID) (*os.File, fileID, bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil ||
		st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size != file.Size || slices.Contains(rejected, idOf(&st)) {
		return nil, fileID{}, false
	}
	fd, err := unix.Openat(int(dir.Fd()), base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fileID{}, false
	}
	f := os.NewFile(uintptr(fd), base)
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size != file.Size {
		f.Close()
		return nil, fileID{}, false
	}
	h := sha256.New()
	if n, err := io.Copy(h, f); err != nil || n != file.Size || hex.EncodeToString(h.Sum(nil)) != file.SHA256 {
		f.Close()
		return nil, idOf(&st), false
	}
	return f, idOf(&st), true
}

// link makes the staged file base in the stage's folder dst the bytes of
// src, the earlier file base in the folder srcDir, whose identity is id: a
// reflink of src, else a hard link to it when the name is still that very
// file; false when neither could be made.
func link(srcDir, src *os.File, id fileID, dst *os.File, base string) bool {
	tmp := linkPrefix + base
	dfd := int(dst.Fd())
	if fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, fileMode); err == nil {
		err = unix.IoctlFileClone(fd, int(src.Fd()))
		if cerr := unix.Close(fd); err == nil {
			err = cerr
		}
		if err == nil && unix.Renameat(dfd, tmp, dfd, base) == nil {
			return true
		}
		unix.Unlinkat(dfd, tmp, 0)
	}
	// Without AT_SYMLINK_FOLLOW, linkat links a symbolic link itself,
	// never its target: the check of identity refuses it.
	if err := unix.Linkat(int(srcDir.Fd()), base, dfd, tmp, 0); err != nil {
		return false
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, tmp, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || idOf(&st) != id || unix.Renameat(dfd, tmp, dfd, base) != nil {
		unix.Unlinkat(dfd, tmp, 0)
		return false
	}
	return true
}
