package fetch

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// body reads one response body: gzip decoded when the server encoded it,
// capped on the decoded size, with a stall timeout, and with every error
// naming what went wrong (a short body is an error, never a short file).
type body struct {
	c         *call
	raw       io.ReadCloser // resp.Body
	r         io.Reader     // raw, or a gzip reader over it once its header is read
	gzip      bool
	n         int64 // decoded bytes handed out
	size      int64 // the announced length of an identity-encoded body; -1: unknown
	stall     *time.Timer
	stalled   atomic.Bool
	err       error // sticky
	streaming bool  // Open's body: errors are *Error, and Close ends the call
	closed    bool
}

// openBody checks a 2xx answer's encoding and announced length, and
// wraps its body.
func (c *call) openBody(resp *http.Response, streaming bool) (*body, error) {
	b := &body{c: c, raw: resp.Body, r: resp.Body, streaming: streaming, size: -1}
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		if resp.ContentLength > c.cap {
			return nil, capError{cap: c.cap, contentLength: resp.ContentLength}
		}
		b.size = resp.ContentLength
	case "gzip", "x-gzip":
		b.gzip, b.r = true, nil
	default:
		return nil, fmt.Errorf("unsupported Content-Encoding %q", enc)
	}
	b.stall = time.AfterFunc(time.Hour, func() {
		b.stalled.Store(true)
		b.raw.Close() // unblocks the Read
	})
	b.stall.Stop()
	return b, nil
}

func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.closed {
		return 0, errors.New("fetch: read on a closed body")
	}
	if len(p) == 0 {
		return 0, nil
	}
	// Ask for at most one byte past the cap, to see whether there is one.
	if room := b.c.cap - b.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	b.stall.Reset(b.c.h.opts.Timeout)
	n, err := b.read(p)
	b.stall.Stop()
	b.n += int64(n)
	b.c.received.Store(b.n)
	if b.n > b.c.cap {
		n -= int(b.n - b.c.cap)
		b.n = b.c.cap
		err = capError{cap: b.c.cap}
	}
	switch {
	case err == nil:
		return n, nil
	case err == io.EOF:
		b.c.stopDeadline() // the body is whole
		if b.streaming {
			b.c.logDone(b.n, nil)
		}
		return n, io.EOF
	case b.c.overdue.Load():
		err = b.c.deadlineError()
	case b.stalled.Load():
		err = fmt.Errorf("no data for %v while reading the body (after %d bytes)", b.c.h.opts.Timeout, b.n)
	case !errors.As(err, new(capError)):
		err = fmt.Errorf("reading the body (after %d bytes): %w", b.n, cause(err))
	}
	if b.streaming {
		err = &Error{URL: b.c.url, Status: b.c.status, Err: err}
		b.c.logDone(b.n, err)
	}
	b.err = err
	return n, err
}

func (b *body) read(p []byte) (int, error) {
	if b.r == nil { // gzip: its header is the body's first bytes
		zr, err := gzip.NewReader(b.raw)
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return 0, fmt.Errorf("gzip: %w", err)
		}
		b.r = zr
	}
	return b.r.Read(p)
}

// Close releases the connection. For an Open body it ends the fetch; a
// body closed before its end is logged as such.
func (b *body) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	b.stall.Stop()
	err := b.raw.Close()
	if b.streaming {
		if b.err == nil {
			b.c.logClosedEarly(b.n) // a no-op after EOF
		}
		b.c.end()
	}
	return err
}
