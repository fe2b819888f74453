package validate

import (
	"context"
	"hash/crc32"
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
// the CSV again. The archived task files are parsed the same way, once
// the build has archived them (Task), beside the build's own parse and
// model files: at 10,000 models, 0.6 s of CPU on the core the making of
// the model files leaves idle. (Tried before the build set a soft memory
// limit, this put the peak RSS over 150 MB; under it, 138 MiB.)
//
// The rows are used only where the bytes Early read are both those on
// disk when the snapshot is checked and those the manifest lists: Early
// takes a CRC-32C of what it reads (3 ms for ember-synth's 40 MB, where a
// sha256 takes 30), and the manifest check, which hashes the file from disk
// as it hashes every other, takes its CRC-32C too in the same read (hashOf).
// A change to the file after Early read it (appended bytes, a byte
// flipped) is then found as it was before Early, by the manifest check,
// and the CSV is read again for the grid check.
//
// It also checks the outputs the build hands it as it writes them
// (Output: the model files) against their schemas, by the fast pass, on
// a goroutine of its own while the build goes on; the check of the whole
// snapshot takes such a verdict only for a file whose bytes on disk are
// the ones checked (Snap.checkedEarly), and carries on the fast pass's
// memory of the values it found valid.
//
// Early takes no sha256 of its own: a file's sha256 is taken where the
// build writes it and once from disk by the manifest check, and nothing
// else hashes it (issue 13). What Early read or checked is told from what
// is on disk by its size and CRC-32C, against those of the manifest
// check's read, as for the Ember CSV: a file changed after Early saw it
// (a byte flipped, bytes appended, a same-size edit) is read and checked
// again. A CRC-32C is no defence against a change made on purpose to keep
// it (it is linear): such a change made after the build hashed the file
// fails the manifest check's sha256, unless manifest.json is rewritten to
// match too, and then the build's checks could report fewer problems than
// a check of the folder alone. Writing into a build's staging folder while
// it runs is outside what the checks guard against; verify, which checks a
// published folder, takes nothing from Early.
type Early struct {
	s  *Snap // Dir and ctx only: no manifest yet
	wg sync.WaitGroup
	mu sync.Mutex
	// files are the sources read so far, by slash path.
	files map[string]*earlyFile
	// outputs are the outputs found valid against their schemas as they
	// were written, by slash path; checked is the fast pass's memory.
	outputs map[string]earlyOutput
	checked *checkedValues
	// outq holds the outputs handed to Output and not yet checked (nil
	// until the first); Wait closes it (outDone), under outMu.
	outMu   sync.Mutex
	outq    chan earlyData
	outDone bool
	// tasks are the archived task files parsed (Task), by task and path.
	tasks map[string]*earlyTask
}

// earlyTask is a task file Task parsed, with the size and CRC-32C of the
// bytes it read.
type earlyTask struct {
	t    *taskData
	path string // slash path
	size int64
	crc  uint32
}

// earlyData is an output handed to Output, with its schema's form for
// the fast pass.
type earlyData struct {
	p    string
	o    *onceSchema
	data []byte
}

// earlyQueue is the most outputs Output holds for its goroutine: 1.5 MB
// of model files at about 6 KB each. A file handed to it while the queue
// is full is checked with the rest of the snapshot instead.
const earlyQueue = 256

// earlyOutput is the size and CRC-32C of the bytes of an output Early
// found valid against its schema.
type earlyOutput struct {
	size int64
	crc  uint32
}

// earlyFile is what Early found of one source file.
type earlyFile struct {
	size int64
	crc  uint32 // CRC-32C of the bytes read
	err  error
	grid *gridRead // the Ember CSV's rows
}

// castagnoli is the CRC-32C table: the CPU computes it (SSE 4.2, ARMv8),
// at ten times sha256's speed.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// gridRead is gridReadLayout's result.
type gridRead struct {
	rows   []gridRow
	probs  []Problem
	layout gridLayout
}

// Begin starts the early validation of the snapshot being built in dir.
// Every read ends once ctx is done.
//
// It compiles the JSON Schemas at once, on a goroutine of its own (16 ms,
// which the checks would otherwise spend first).
func Begin(ctx context.Context, dir string) *Early {
	e := &Early{s: &Snap{Dir: dir, ctx: ctx}, files: map[string]*earlyFile{}, outputs: map[string]earlyOutput{}, checked: newCheckedValues(), tasks: map[string]*earlyTask{}}
	e.wg.Go(func() { compiledSchemas() })
	return e
}

// Ember reads the Ember CSV at slash path p from r, hashing it and reading
// its intensity rows as the grid check does, on a goroutine of its own. r
// reads the file from disk as the build writes it: it returns io.EOF once
// the build has written the whole file, and an error if the build gave it
// up. Ember closes r.
func (e *Early) Ember(p string, r io.ReadCloser) {
	if e.waited() {
		r.Close()
		return
	}
	e.wg.Go(func() {
		defer r.Close()
		h := crc32.New(castagnoli)
		cr := &countingReader{r: io.TeeReader(r, h)}
		rows, probs, lay := gridReadLayout(cr, p)
		f := &earlyFile{}
		// The checksum covers the whole file, though the reader stopped
		// early.
		if _, err := io.Copy(io.Discard, cr); err != nil {
			f.err = err
		} else if err := e.s.cancelled(); err != nil {
			f.err = err
		} else {
			f.size, f.crc = cr.n, h.Sum32()
			f.grid = &gridRead{rows: rows, probs: probs, layout: lay}
		}
		e.put(p, f)
	})
}

// Output hands Early data, the bytes of the output at slash path p as the
// build has just written them, which the caller no longer changes. A
// goroutine of its own checks them against the file's schema by the fast
// pass (checkonce.go), on a core the build leaves idle (the model files
// are made one at a time). Only a file the checks read whole (a model
// file) with a fast pass is taken, and only while the goroutine is fewer
// than earlyQueue files behind; a file not taken, or that the fast pass
// does not find valid, is checked with the rest of the snapshot, which
// words its problems.
func (e *Early) Output(p string, data []byte) {
	o := onceFor(schemaFor(p))
	if o == nil || len(data) > wholeSize {
		return
	}
	e.outMu.Lock()
	defer e.outMu.Unlock()
	if e.outDone {
		return
	}
	if e.outq == nil {
		e.outq = make(chan earlyData, earlyQueue)
		e.wg.Go(func() {
			for d := range e.outq {
				e.checkOutput(d)
			}
		})
	}
	select {
	case e.outq <- earlyData{p, o, data}:
	default:
	}
}

// Task parses the archived task file of the given task at slash path p,
// which the build has written whole, on a goroutine of its own, as the
// leaderboard and index checks parse it, taking the CRC-32C of what it
// reads. The checks take the parse only where the file on disk is the
// bytes it read (Snap.task); a parse that read the file more than once
// (the three passes, for a file with problems) is not kept.
func (e *Early) Task(task, p string) {
	if e.waited() {
		return
	}
	e.wg.Go(func() {
		h := crc32.New(castagnoli)
		opens := 0
		var cr *countingReader // the last open's
		t, err := openTaskData(task, p, func() (io.ReadCloser, error) {
			opens++
			f, err := e.s.openCancellable(p)
			if err != nil {
				return nil, err
			}
			cr = &countingReader{r: io.TeeReader(f, h)}
			return struct {
				io.Reader
				io.Closer
			}{cr, f}, nil
		})
		if err != nil || opens != 1 || e.s.cancelled() != nil {
			return
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		e.tasks[task+"\x00"+p] = &earlyTask{t: t, path: p, size: cr.n, crc: h.Sum32()}
	})
}

// cancellable returns r, whose reads fail once the checks are ended (ctx
// done): a parse of a large file stops then, not at its end (a build
// that fails waits for its early work before removing its stage). Found
// by a review.
func (s *Snap) cancellable(r io.Reader) io.Reader {
	return readerFunc(func(b []byte) (int, error) {
		if err := s.cancelled(); err != nil {
			return 0, err
		}
		return r.Read(b)
	})
}

// readerFunc is a function as an io.Reader.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// checkOutput checks an output handed to Output.
func (e *Early) checkOutput(d earlyData) {
	if e.s.cancelled() != nil || !e.checked.bytes(d.o, d.data) {
		return
	}
	crc := crc32.Checksum(d.data, castagnoli)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.outputs[d.p] = earlyOutput{size: int64(len(d.data)), crc: crc}
}

func (e *Early) put(p string, f *earlyFile) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.files[p] = f
}

// waited reports whether Wait was called: Early then takes no more work
// (the checks share its maps once it has ended; found by a review).
func (e *Early) waited() bool {
	e.outMu.Lock()
	defer e.outMu.Unlock()
	return e.outDone
}

// Wait waits for the early work to end (a build that fails waits for it
// before removing its staging folder); Output takes nothing more.
func (e *Early) Wait() {
	e.outMu.Lock()
	if !e.outDone {
		e.outDone = true
		if e.outq != nil {
			close(e.outq)
		}
	}
	e.outMu.Unlock()
	e.wg.Wait()
}

// Snapshot waits for the early work, then checks the snapshot as
// SnapshotContext does, taking the early work where the bytes on disk (and
// for the Ember CSV, the manifest) are those Early read.
func (e *Early) Snapshot() error {
	e.Wait()
	return snapshot(e.s.ctx, e.s.Dir, e)
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

// checkedEarly reports whether Early found the output at slash path p
// valid against its schema as the build wrote it, and the bytes on disk
// are the ones it checked: their size and CRC-32C, taken from disk in the
// manifest check's one read (hashOf), are those of the bytes Early
// checked. (Early took its own CRC-32C of them: the build's sha256 is not
// trusted to be of the bytes handed to Early.)
func (s *Snap) checkedEarly(p string) bool {
	eo, ok := s.earlyOutputs[p]
	if !ok {
		return false
	}
	h := s.hashOf(p)
	return h.err == nil && h.size == eo.size && h.crc == eo.crc
}

// earlyFor returns what Early read of the file at slash path p when the
// bytes it read are those on disk now and those the manifest lists, else
// nil: the file is then read again. The file is hashed from disk once, for
// this and for the manifest check (hashOf): its sha256 must be the
// manifest's, and its size and CRC-32C those of the bytes Early read.
func (s *Snap) earlyFor(p string) *earlyFile {
	f := s.early[p]
	if f == nil || f.err != nil {
		return nil
	}
	for _, src := range s.Manifest.Sources {
		if src.Path != p {
			continue
		}
		now := s.hashOf(p)
		if now.err != nil || now.size != f.size || now.crc != f.crc || now.sum != src.SHA256 || now.size != src.Size {
			return nil
		}
		return f
	}
	return nil
}
