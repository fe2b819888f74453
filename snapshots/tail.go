package snapshots

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// tailReader reads a file of the stage from disk while it is being written, as
// far as it has been written: validate.Early reads the Ember CSV's archive
// this way beside the Ember stage, which writes it as it parses it. Read
// waits for more bytes, and returns io.EOF once the file is committed, or
// errTailAborted once it is given up.
type tailReader struct {
	f *os.File // its own descriptor, read from disk

	mu      sync.Mutex
	more    *sync.Cond // signalled at each write and at the end
	written int64      // bytes written so far
	done    bool       // committed or aborted
	aborted bool
	read    int64 // bytes read so far (the reader's only)
}

var errTailAborted = errors.New("the build gave up writing the file")

// follow returns a reader of w's file from its start, as far as it has been
// written (tailReader). It must be called before the first Write.
func (w *stageFile) follow() (io.ReadCloser, error) {
	if w.f == nil {
		return nil, fmt.Errorf("%s: a comparing stage writes no file to follow", w.rel)
	}
	f, err := os.Open(w.f.Name())
	if err != nil {
		return nil, fmt.Errorf("%w: reading %s: %w", ErrConflict, w.rel, err)
	}
	t := &tailReader{f: f}
	t.more = sync.NewCond(&t.mu)
	w.tail = t
	return t, nil
}

// wrote records that n more bytes are on disk.
func (t *tailReader) wrote(n int) {
	t.mu.Lock()
	t.written += int64(n)
	t.mu.Unlock()
	t.more.Broadcast()
}

// end records that the file is whole (aborted false) or given up.
func (t *tailReader) end(aborted bool) {
	t.mu.Lock()
	t.done, t.aborted = true, aborted
	t.mu.Unlock()
	t.more.Broadcast()
}

func (t *tailReader) Read(p []byte) (int, error) {
	t.mu.Lock()
	for t.read == t.written && !t.done {
		t.more.Wait()
	}
	written, aborted := t.written, t.aborted
	t.mu.Unlock()
	avail := written - t.read
	switch {
	case aborted:
		return 0, errTailAborted
	case avail == 0:
		return 0, io.EOF
	case int64(len(p)) > avail:
		p = p[:avail]
	}
	n, err := t.f.Read(p)
	t.read += int64(n)
	if err == io.EOF {
		// Written but not on disk: the file was changed under the build.
		err = fmt.Errorf("%s: %d bytes written, %d on disk: %w", t.f.Name(), written, t.read, io.ErrUnexpectedEOF)
	}
	return n, err
}

func (t *tailReader) Close() error { return t.f.Close() }
