package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"time"

	"github.com/leadgreen/greentokens/fetch"
)

// progressEvery is how often a download's progress line is redrawn.
const progressEvery = 250 * time.Millisecond

// isTerminal reports whether w is a character device (a terminal): only
// then does a build draw download progress.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressSource wraps a Source so that each download draws a line with
// its bytes and rate on w.
type progressSource struct {
	fetch.Source
	w   io.Writer
	now func() time.Time
}

// ReadAll implements fetch.ReadAllSource: whole JSON files are read by the
// wrapped source (small, and retried by the HTTP source when a body fails
// mid-way), without a progress line; the streamed Ember CSV shows its
// progress.
func (p progressSource) ReadAll(ctx context.Context, name string) (*fetch.File, error) {
	return fetch.ReadAll(ctx, p.Source, name)
}

func (p progressSource) Open(ctx context.Context, name string) (*fetch.Body, error) {
	b, err := p.Source.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	start := p.now()
	// The file the URL names: which of Ember's files a download is shows
	// in its URL, not in the name it is asked for under (fetch.IsEmber).
	shown := name
	if u, err := url.Parse(b.URL); err == nil && path.Base(u.Path) != "." && path.Base(u.Path) != "/" {
		shown = path.Base(u.Path)
	}
	b.ReadCloser = &progressReader{ReadCloser: b.ReadCloser, name: shown, w: p.w, now: p.now, start: start, last: start}
	return b, nil
}

type progressReader struct {
	io.ReadCloser
	name        string
	w           io.Writer
	now         func() time.Time
	start, last time.Time
	n           int64
	drawn       bool
}

func (r *progressReader) Read(b []byte) (int, error) {
	n, err := r.ReadCloser.Read(b)
	r.n += int64(n)
	if t := r.now(); t.Sub(r.last) >= progressEvery || (err == io.EOF && r.drawn) {
		r.last = t
		r.draw(t)
	}
	return n, err
}

func (r *progressReader) Close() error {
	if r.drawn {
		r.draw(r.now())
		fmt.Fprintln(r.w)
		r.drawn = false
	}
	return r.ReadCloser.Close()
}

func (r *progressReader) draw(t time.Time) {
	rate := 0.0
	if s := t.Sub(r.start).Seconds(); s > 0 {
		rate = float64(r.n) / s
	}
	fmt.Fprintf(r.w, "\r%s: %.1f MB (%.1f MB/s)   ", r.name, float64(r.n)/1e6, rate/1e6)
	r.drawn = true
}
