package validate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"
)

// Early is the part of a snapshot's validation that needs nothing but one
// archived source file: the Ember CSV's size, sha256 and intensity rows,
// which the grid check recomputes grid.json from. A build starts it on the
// CSV's archive as the Ember stage writes it, so that the independent read
// of the CSV runs beside the build's own (on the core the single-threaded
// ingest leaves idle) instead of after it, and then checks the whole
// snapshot with Early.Snapshot, which takes that work instead of parsing
// the CSV again. (The task files were tried too, at 10,000 models: their
// parse beside the build's put the peak RSS over 150 MB for a second
// saved.)
//
// The rows are used only where the bytes Early read are both those the
// manifest lists and those on disk when the snapshot is checked: the
// manifest check hashes the file from disk as it hashes every other (once,
// for both checks), so a change to the file after Early read it (appended
// bytes, a byte flipped) is found as it was before Early, and the CSV is
// then read again. That costs a second sha256 of the CSV in this package
// (30 ms at ember-synth's scale 1), which the early read more than pays
// for.
type Early struct {
	s  *Snap // Dir and ctx only: no manifest yet
	wg sync.WaitGroup
	mu sync.Mutex
	// files are the sources read so far, by slash path.
	files map[string]*earlyFile
}

// earlyFile is what Early found of one source file.
type earlyFile struct {
	hashed
	grid *gridRead // the Ember CSV's rows
}

// gridRead is gridReadCSV's result.
type gridRead struct {
	rows  []gridRow
	probs []Problem
}

// Begin starts the early validation of the snapshot being built in dir.
// Every read ends once ctx is done.
func Begin(ctx context.Context, dir string) *Early {
	return &Early{s: &Snap{Dir: dir, ctx: ctx}, files: map[string]*earlyFile{}}
}

// Ember reads the Ember CSV at slash path p from r, hashing it and reading
// its intensity rows as the grid check does, on a goroutine of its own. r
// reads the file from disk as the build writes it: it returns io.EOF once
// the build has written the whole file, and an error if the build gave it
// up. Ember closes r.
func (e *Early) Ember(p string, r io.ReadCloser) {
	e.wg.Go(func() {
		defer r.Close()
		h := sha256.New()
		cr := &countingReader{r: io.TeeReader(r, h)}
		rows, probs := gridReadCSV(cr, p)
		f := &earlyFile{}
		// The hash covers the whole file, though the reader stopped early.
		if _, err := io.Copy(io.Discard, cr); err != nil {
			f.err = err
		} else if err := e.s.cancelled(); err != nil {
			f.err = err
		} else {
			f.size, f.sum = cr.n, hex.EncodeToString(h.Sum(nil))
			f.grid = &gridRead{rows: rows, probs: probs}
		}
		e.put(p, f)
	})
}

func (e *Early) put(p string, f *earlyFile) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.files[p] = f
}

// Wait waits for the early work to end (a build that fails waits for it
// before removing its staging folder).
func (e *Early) Wait() { e.wg.Wait() }

// Snapshot waits for the early work, then checks the snapshot as
// SnapshotContext does, taking the early work where the manifest lists the
// same bytes.
func (e *Early) Snapshot() error {
	e.Wait()
	return snapshot(e.s.ctx, e.s.Dir, e.files)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// earlyFor returns what Early read of the file at slash path p when the
// bytes it read are those the manifest lists and those on disk now (hashed
// again, once, for the manifest check too: hashOf), else nil: the file is
// then read again.
func (s *Snap) earlyFor(p string) *earlyFile {
	f := s.early[p]
	if f == nil || f.err != nil {
		return nil
	}
	for _, src := range s.Manifest.Sources {
		if src.Path != p {
			continue
		}
		if src.Size != f.size || src.SHA256 != f.sum {
			return nil
		}
		if now := s.hashOf(p); now.err != nil || now.size != f.size || now.sum != f.sum {
			return nil
		}
		return f
	}
	return nil
}
