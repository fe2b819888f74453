package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/leadgreen/greentokens/internal/failure"
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
// EWOULDBLOCK), and writes this process's PID into it.
func tryLock(p string) (*Lock, error) {
	created := true
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
	if errors.Is(err, fs.ErrExist) {
		created = false
		f, err = os.OpenFile(p, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errLockGone
		}
	}
	if err != nil {
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
	named, err2 := os.Stat(p)
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

// lockHolder names the build that holds the lock at p: "PID N" as the
// lock file says, or "PID unknown" (a build of an older version).
func lockHolder(p string) string {
	b, err := os.ReadFile(p)
	if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil && pid > 0 {
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
