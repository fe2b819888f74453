package snapshots

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
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/leadgreen/greentokens/internal/crashtest"

	"github.com/leadgreen/greentokens/internal/failure"

	"golang.org/x/sys/unix"

	"github.com/leadgreen/greentokens/internal/regfile"
)

// The store's ends of a build: openStage takes the output folder's lock,
// removes what killed builds left and makes a new stage; stage.publish
// renames the checked stage into place, atomically.

// openStage prepares out for a build of date: it creates out, takes its
// lock (waiting at most lockTimeout when positive, saying so through log),
// removes the leftovers of killed builds, and makes a new stage. release
// removes the stage (a no-op once it is published) and gives the lock up;
// failed says whether the build failed.
func openStage(ctx context.Context, out, date string, lockTimeout time.Duration, log *slog.Logger) (_ *stage, release func(failed bool), err error) {
	if err := os.MkdirAll(out, dirMode); err != nil {
		return nil, nil, fmt.Errorf("%w: creating %s: %v", failure.ErrConflict, out, err)
	}
	held, err := lock(ctx, out, lockTimeout, func(holder string) {
		log.Warn("another build holds the output folder; waiting", "out", out, "holder", holder)
	})
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			held.release(true)
		}
	}()
	removed, err := removeLeftovers(out)
	for _, r := range removed {
		log.Warn("removed the leftover of an interrupted build", "folder", r)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	st, err := newStage(out, date)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	return st, func(failed bool) {
		st.close()
		os.RemoveAll(st.dir)
		held.release(failed)
	}, nil
}

// publishOutcome is what stage.publish did.
type publishOutcome int

const (
	publishedNew  publishOutcome = iota // the stage is OUT/DATE
	publishedSame                       // an identical snapshot was there; the stage is dropped
	publishedOver                       // a different snapshot was there and is replaced
)

// publish moves the stage to out/date, unless an identical snapshot is
// there already; a different one is replaced only when replace is set,
// and diff then says how it differed.
func (s *stage) publish(out, date string, replace bool) (target string, how publishOutcome, diff string, err error) {
	target = filepath.Join(out, date)
	how = publishedNew
	if _, err := os.Stat(target); err == nil {
		same, d, err := sameTree(target, s.dir)
		if err != nil {
			return "", 0, "", fmt.Errorf("%w: comparing with %s: %v", failure.ErrConflict, target, err)
		}
		if same {
			return target, publishedSame, "", nil
		}
		if !replace {
			return "", 0, "", fmt.Errorf("%w: %s exists with other content (%s); pass --replace to replace it", failure.ErrConflict, target, d)
		}
		// Swap the two folders in one step: at every instant OUT/DATE is a
		// whole snapshot. The old one is left in the stage and removed.
		if err := s.sync(); err != nil {
			return "", 0, "", fmt.Errorf("%w: %v", failure.ErrConflict, err)
		}
		crashtest.Kill(crashtest.Rename)
		if err := unix.Renameat2(unix.AT_FDCWD, s.dir, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE); err != nil {
			return "", 0, "", fmt.Errorf("%w: replacing %s: %v", failure.ErrConflict, target, err)
		}
		os.RemoveAll(s.dir)
		how, diff = publishedOver, d
	} else {
		// Every byte of the stage is on disk before it becomes OUT/DATE.
		if err := s.sync(); err != nil {
			return "", 0, "", fmt.Errorf("%w: %v", failure.ErrConflict, err)
		}
		crashtest.Kill(crashtest.Rename)
		// NOREPLACE: the kernel refuses if OUT/DATE appeared meanwhile
		// (even as an empty folder, which a plain rename would replace).
		if err := unix.Renameat2(unix.AT_FDCWD, s.dir, unix.AT_FDCWD, target, unix.RENAME_NOREPLACE); err != nil {
			return "", 0, "", fmt.Errorf("%w: publishOutcome %s: %v", failure.ErrConflict, target, err)
		}
	}
	crashtest.Kill(crashtest.Renamed)
	if err := syncDir(out); err != nil {
		return "", 0, "", fmt.Errorf("%w: %v", failure.ErrConflict, err)
	}
	return target, how, diff, nil
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

// sameTree reports whether two folders hold the same files with the same
// bytes, and the first difference when they do not. The files at the
// slash paths except are left out of the comparison, in both folders.
func sameTree(a, b string, except ...string) (bool, string, error) {
	fa, err := listTree(a)
	if err != nil {
		return false, "", err
	}
	fb, err := listTree(b)
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
		same, err := sameFile(filepath.Join(a, fa[i]), filepath.Join(b, fb[i]), bufA, bufB)
		if err != nil {
			return false, "", err
		}
		if !same {
			return false, fa[i] + " differs", nil
		}
	}
	return true, "", nil
}

// sameFile reports whether two files hold the same bytes, reading them a
// block at a time into ba and bb (index.json alone can be tens of
// megabytes).
func sameFile(a, b string, ba, bb []byte) (bool, error) {
	fa, err := regfile.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := regfile.Open(b)
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
