package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/format"
)

// An archived source that an earlier snapshot of the same output folder
// holds with the same bytes (a weekly build whose Ember CSV has not
// changed) is shared with it rather than stored again: once written into
// the stage and hashed, the staged copy is replaced by a reflink of the
// earlier file (FICLONE: a file of its own sharing the earlier one's
// blocks, where the file system has it: Btrfs, XFS), else by a hard link
// to it, else it stays a copy. Either way it is a regular file of the
// same bytes, which every reader reads as any other.
//
// The earlier file is opened without following a symbolic link, must be a
// regular file of the same size, and is hashed before it is shared; the
// link is made under a new name in the stage and renamed over the staged
// copy, and a hard link is kept only when it is the very file hashed. The
// stage only ever creates new files, and a snapshot's files are never
// opened for writing (Publish renames folders, a replaced snapshot is
// removed by unlinking its names), so no build writes through a link into
// an earlier snapshot.

// maxShareCandidates bounds the earlier files of the same size hashed for
// one source: the newest snapshots first.
const maxShareCandidates = 4

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
	tried := 0
	var rejected []fileID
	for _, e := range slices.Backward(entries) {
		if e.Err != nil || e.Date == s.date || tried == maxShareCandidates {
			continue
		}
		p := filepath.Join(s.out, e.Date, filepath.FromSlash(rel))
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != file.Size || slices.Contains(rejected, idOf(fi)) {
			continue
		}
		tried++
		src, id, ok := openSame(p, file)
		if !ok {
			rejected = append(rejected, id)
			continue
		}
		linked := s.link(rel, p, src, id)
		src.Close()
		if linked {
			return
		}
	}
}

// fileID is a file's device and inode.
type fileID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(st.Dev), st.Ino}
	}
	return fileID{}
}

// openSame opens the regular file at p, not following a symbolic link,
// and reports whether it holds the bytes of file (its size and sha256).
func openSame(p string, file format.File) (*os.File, fileID, bool) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fileID{}, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != file.Size {
		f.Close()
		return nil, fileID{}, false
	}
	h := sha256.New()
	if n, err := io.Copy(h, f); err != nil || n != file.Size || hex.EncodeToString(h.Sum(nil)) != file.SHA256 {
		f.Close()
		return nil, idOf(fi), false
	}
	return f, idOf(fi), true
}

// link makes the staged file at rel the bytes of src, the earlier file at
// p, whose identity is id: a reflink of src, else a hard link to p when p
// is still src; false when neither could be made.
func (s *Stage) link(rel, p string, src *os.File, id fileID) bool {
	dst := s.path(rel)
	tmp := filepath.Join(filepath.Dir(dst), ".link-"+filepath.Base(dst))
	if f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode); err == nil {
		err = unix.IoctlFileClone(int(f.Fd()), int(src.Fd()))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil && os.Rename(tmp, dst) == nil {
			return true
		}
		os.Remove(tmp)
	}
	if err := os.Link(p, tmp); err != nil {
		return false
	}
	if fi, err := os.Lstat(tmp); err != nil || idOf(fi) != id || os.Rename(tmp, dst) != nil {
		os.Remove(tmp)
		return false
	}
	return true
}
