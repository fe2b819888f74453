package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// The store's ends of a build: NewStage takes the output folder's lock,
// removes what killed builds left and makes a new stage; Prepare and
// Publish move the checked stage into place, atomically; Close gives the
// lock up.

// NewStage prepares out for a build of date: it creates out, takes its
// lock (waiting at most lockTimeout when positive, saying so through log),
// removes the leftovers of killed builds, and makes a new stage in it.
// Close removes the stage (nothing, once it is published) and gives the
// lock up.
func NewStage(ctx context.Context, out, date string, lockTimeout time.Duration, log *slog.Logger) (_ *Stage, err error) {
	if err := os.MkdirAll(out, dirMode); err != nil {
		return nil, fmt.Errorf("%w: creating %s: %v", failure.ErrConflict, out, err)
	}
	held, err := LockFolder(ctx, out, lockTimeout, func(holder string) {
		log.Warn("another build holds the output folder; waiting", "out", out, "holder", holder)
	})
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			held.Release(true)
		}
	}()
	removed, err := removeLeftovers(out)
	for _, r := range removed {
		log.Warn("removed the leftover of an interrupted build", "folder", r)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	st, err := newStage(out, date)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	st.lock = held
	return st, nil
}

// Close removes the stage, unless Publish made it OUT/DATE, and gives the
// output folder's lock up; failed says whether the build failed (a failed
// build removes the lock file it created).
func (s *Stage) Close(failed bool) {
	s.dirFile.Close() // a sync under way has a descriptor of its own
	s.root.Close()
	os.RemoveAll(s.dir)
	if s.lock != nil {
		s.lock.Release(failed)
	}
}

// Outcome is what publishing a stage does.
type Outcome int

const (
	New      Outcome = iota // the stage becomes OUT/DATE
	Same                    // an identical snapshot is there; the stage is dropped
	Replaced                // a different snapshot is there, and the stage replaces it
)

// Target is the folder the stage is published as, OUT/DATE.
func (s *Stage) Target() string { return filepath.Join(s.out, s.date) }

// Prepare compares the stage with what is at OUT/DATE and makes it ready
// to publish: when an identical snapshot is there it is Same, and nothing
// is to be done; a different one is Replaced only when replace is set
// (else an ErrConflict), and difference then says how it differs. Unless
// it is Same, every byte of the stage is on disk when Prepare returns (one
// sync), and nothing more may be written into it: Publish renames it.
func (s *Stage) Prepare(replace bool) (how Outcome, difference string, err error) {
	target := s.Target()
	if _, err := os.Stat(target); err == nil {
		same, d, err := SameFiles(regfile.DirFS(target), regfile.DirFS(s.dir))
		if err != nil {
			return 0, "", fmt.Errorf("%w: comparing with %s: %v", failure.ErrConflict, target, err)
		}
		if same {
			s.outcome, s.prepared = Same, true
			return Same, "", nil
		}
		if !replace {
			return 0, "", fmt.Errorf("%w: %s exists with other content (%s); pass --replace to replace it", failure.ErrConflict, target, d)
		}
		how, difference = Replaced, d
	}
	if err := s.sync(); err != nil {
		return 0, "", fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	s.outcome, s.prepared = how, true
	return how, difference, nil
}

// Publish makes the prepared stage OUT/DATE in one rename, and syncs the
// output folder's entries. A New stage is renamed so that the kernel
// refuses if OUT/DATE appeared meanwhile (even as an empty folder, which a
// plain rename would replace); a Replaced one is swapped with the old
// snapshot in one step, so that at every instant OUT/DATE is a whole
// snapshot, and the old one, left in the stage's place, is removed.
func (s *Stage) Publish() error {
	target := s.Target()
	switch {
	case !s.prepared:
		return fmt.Errorf("%w: publishing %s: the stage was not prepared", failure.ErrConflict, target)
	case s.outcome == Same:
		return nil
	case s.outcome == Replaced:
		if err := unix.Renameat2(unix.AT_FDCWD, s.dir, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE); err != nil {
			return fmt.Errorf("%w: replacing %s: %v", failure.ErrConflict, target, err)
		}
		os.RemoveAll(s.dir)
	default:
		if err := unix.Renameat2(unix.AT_FDCWD, s.dir, unix.AT_FDCWD, target, unix.RENAME_NOREPLACE); err != nil {
			return fmt.Errorf("%w: publishing %s: %v", failure.ErrConflict, target, err)
		}
	}
	if err := syncDir(s.out); err != nil {
		return fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	return nil
}

// syncDir makes a folder's entries durable.
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

// SameFiles reports whether two snapshots hold the same files with the
// same bytes, and the first difference when they do not ("models/x.json
// differs"). The files at the slash paths except are left out of the
// comparison, on both sides.
func SameFiles(a, b fs.FS, except ...string) (bool, string, error) {
	fa, err := ListFiles(a)
	if err != nil {
		return false, "", err
	}
	fb, err := ListFiles(b)
	if err != nil {
		return false, "", err
	}
	left := func(p string) bool { return slices.Contains(except, p) }
	fa, fb = slices.DeleteFunc(fa, left), slices.DeleteFunc(fb, left)
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for i := 0; i < len(fa) || i < len(fb); i++ {
		switch {
		case i >= len(fa):
			return false, fb[i] + " is new", nil
		case i >= len(fb):
			return false, fa[i] + " would be removed", nil
		case fa[i] != fb[i]:
			return false, "the file lists differ at " + min(fa[i], fb[i]), nil
		}
		same, err := sameFile(a, b, fa[i], bufA, bufB)
		if err != nil {
			return false, "", err
		}
		if !same {
			return false, fa[i] + " differs", nil
		}
	}
	return true, "", nil
}

// sameFile reports whether the file at p holds the same bytes in a and b,
// reading them a block at a time into ba and bb (index.json alone can be
// tens of megabytes).
func sameFile(a, b fs.FS, p string, ba, bb []byte) (bool, error) {
	fa, err := a.Open(p)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := b.Open(p)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	if sa, err := fa.Stat(); err != nil {
		return false, err
	} else if sb, err := fb.Stat(); err != nil {
		return false, err
	} else if sa.Size() != sb.Size() {
		return false, nil
	}
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		doneA := ea == io.EOF || ea == io.ErrUnexpectedEOF
		doneB := eb == io.EOF || eb == io.ErrUnexpectedEOF
		switch {
		case ea != nil && !doneA:
			return false, ea
		case eb != nil && !doneB:
			return false, eb
		case doneA || doneB:
			return doneA == doneB, nil
		}
	}
}

// ListFiles returns the slash paths of everything in fsys that is not a
// folder, sorted.
func ListFiles(fsys fs.FS) ([]string, error) {
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files = append(files, p)
		return nil
	})
	slices.Sort(files)
	return files, err
}
