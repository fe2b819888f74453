package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// LockFile is the lock file that keeps two builds out of one output
// folder, OUT/.lock.
const LockFile = ".lock"

// lockPoll is how often a build waiting for the lock tries it again. The
// wait polls rather than blocking in flock(2), so that a signal or
// LockTimeout ends it at once.
const lockPoll = 50 * time.Millisecond

// Lock is the output folder's lock, held: an flock(2) on OUT/.lock, which
// holds the holder's PID for a build that waits to name.
type Lock struct {
	f       *os.File
	path    string
	created bool // this build created the lock file
}

// errLockGone: the lock file was removed between its opening and its
// locking (by a build that failed); the lock must be taken again.
var errLockGone = errors.New("the lock file was replaced")

// LockFolder takes the lock of the output folder out. While another build
// holds it, it says so once through waiting (with the holder's PID when
// the lock file names it) and tries again every lockPoll, until it gets it,
// ctx ends (failure.ErrInterrupted), or timeout passes when it is positive
// (failure.ErrConflict, naming the holder).
func LockFolder(ctx context.Context, out string, timeout time.Duration, waiting func(holder string)) (*Lock, error) {
	p := filepath.Join(out, LockFile)
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	var tick *time.Ticker
	holder := ""
	for {
		l, err := tryLock(p)
		switch {
		case err == nil:
			return l, nil
		case errors.Is(err, errLockGone):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return nil, fmt.Errorf("%w: %v", failure.ErrConflict, err)
		}
		if tick == nil {
			holder = lockHolder(p)
			waiting(holder)
			tick = time.NewTicker(lockPoll)
			defer tick.Stop()
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w while waiting for the lock of %s, held by %s: %w", failure.ErrInterrupted, out, holder, ctx.Err())
		case <-expired:
			return nil, fmt.Errorf("%w: another build (%s) still holds the lock of %s after %v (--lock-timeout); nothing written",
				failure.ErrConflict, lockHolder(p), out, timeout)
		case <-tick.C:
		}
	}
}

// tryLock takes the lock at p if no one holds it (else an error wrapping
// EWOULDBLOCK), and writes this process's PID into it. The lock file is
// opened only when it is a regular file (openLock): a symbolic link at p,
// wherever it points, is refused and never followed, so a build never
// truncates or writes a file outside its output folder.
func tryLock(p string) (*Lock, error) {
	created := true
	f, err := openLock(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
	if errors.Is(err, fs.ErrExist) {
		created = false
		f, err = openLock(p, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errLockGone
		}
	}
	var nr *regfile.NotRegularError
	switch {
	case errors.As(err, &nr):
		return nil, fmt.Errorf("%s is %s, not a regular file; refusing to open it as the output folder's lock (a build opens only regular files there): remove it", p, nr.Kind())
	case err != nil:
		return nil, fmt.Errorf("opening the lock %s: %w", p, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, syscall.EWOULDBLOCK
		}
		return nil, fmt.Errorf("locking %s: %w", p, err)
	}
	// A failed build removes the lock file it created, while it holds it:
	// a lock taken on the removed file keeps no one out.
	held, err1 := f.Stat()
	named, err2 := os.Lstat(p)
	if err1 != nil || err2 != nil || !os.SameFile(held, named) {
		f.Close()
		return nil, errLockGone
	}
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	if err := f.Truncate(0); err == nil {
		f.WriteAt(pid, 0) // only to name the holder; the flock is the lock
	}
	return &Lock{f: f, path: p, created: created}, nil
}

// openLock opens the lock file at p with flag, when it is a regular file:
// O_NOFOLLOW refuses a symbolic link as the last element of p (ELOOP),
// O_NONBLOCK keeps a FIFO swapped in from blocking the open, and the
// opened file is checked to be a regular file. Anything else is a
// *regfile.NotRegularError naming p.
func openLock(p string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(p, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, &regfile.NotRegularError{Path: p, Mode: fs.ModeSymlink}
	case errors.Is(err, syscall.EISDIR):
		return nil, &regfile.NotRegularError{Path: p, Mode: fs.ModeDir}
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &regfile.NotRegularError{Path: p, Mode: fi.Mode()}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// lockHolder names the build that holds the lock at p: "PID N" as the
// lock file says, or "PID unknown" (a build of an older version, or a
// lock file that is not a regular file).
func lockHolder(p string) string {
	f, err := openLock(p, os.O_RDONLY, 0)
	if err != nil {
		return "PID unknown"
	}
	defer f.Close()
	b := make([]byte, 32) // a PID and its newline
	n, _ := io.ReadFull(f, b)
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil && pid > 0 {
		return "PID " + strconv.Itoa(pid)
	}
	return "PID unknown"
}

// Release gives the lock up. A build that failed removes the lock file
// when it created it, so that it leaves nothing behind; it does so while
// it still holds the lock (see tryLock).
func (l *Lock) Release(failed bool) {
	if failed && l.created {
		os.Remove(l.path)
	}
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}
