package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/jsondecode"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// Release is a published snapshot read back from a store: its files as an
// fs.FS (it is one), and its manifest, decoded once.
//
// Open reads the manifest alone; Load then reads every file it lists,
// checks each against it, and records the model files and grid.json. A
// Release holds no file's bytes: a listed file is read again when asked
// for (ReadListed, Model, Reader), and checked against the manifest once
// more. A release of ten thousand models is a few megabytes loaded (the
// manifest, and the names and sizes of each model), not the hundreds its
// files take decoded.
type Release struct {
	// ID is the release's identity: its manifest's date and the sha256 of
	// manifest.json, which fixes every byte the release holds.
	ID       format.Release
	Manifest *format.Manifest
	// Models are the model files' index entries (format.Model.Entry), by
	// slug, without their Best (Model reads a model file whole); Grid is
	// grid.json, nil when the release has none. Load sets both; they are
	// empty after Open alone.
	Models map[string]format.IndexEntry
	Grid   *format.Grid

	name string
	fsys fs.FS
	// listed are the manifest's entries of every listed output and every
	// listed source, by slash path.
	listed map[string]format.File
	// ctx ends the reads of the release's files early (a signal).
	ctx context.Context
}

// Name names the release in messages: the folder it was read from
// (OUT/DATE), as given. validate.Check names the snapshot by it.
func (r *Release) Name() string { return r.name }

// Open opens the file at the slash path name of the release, as stored:
// a Release is the fs.FS it was read through, unchecked (ReadListed
// checks a file against the manifest).
func (r *Release) Open(name string) (fs.File, error) { return r.fsys.Open(name) }

// Open reads the manifest of the release that fsys holds (a folder through
// regfile.DirFS), and nothing else: it must decode strictly, be in its
// canonical form (the bytes format.Marshal gives for the decoded manifest,
// which a build writes), and list only paths inside the release. name
// names it in messages. Errors wrap failure.ErrValidation, or
// failure.ErrInterrupted once ctx is done; the Release keeps ctx for the
// files it reads later.
func Open(ctx context.Context, fsys fs.FS, name string) (*Release, error) {
	r := &Release{name: name, fsys: fsys, ctx: ctx, Models: map[string]format.IndexEntry{}}
	data, err := r.readManifest()
	if err != nil {
		return nil, r.fail(err)
	}
	m := r.Manifest
	r.listed = make(map[string]format.File, len(m.Sources)+len(m.Outputs))
	for _, f := range r.files() {
		if !fs.ValidPath(f.Path) || f.Path == format.ManifestPath {
			return nil, r.fail(fmt.Errorf("%s lists the path %q", format.ManifestPath, f.Path))
		}
		r.listed[f.Path] = f
	}
	sum := sha256.Sum256(data)
	r.ID = format.Release{Date: m.Date, ManifestSHA256: hex.EncodeToString(sum[:])}
	return r, nil
}

// Load is Open, then Release.Load: the release fsys holds, every listed
// file checked.
func Load(ctx context.Context, fsys fs.FS, name string) (*Release, error) {
	r, err := Open(ctx, fsys, name)
	if err != nil {
		return nil, err
	}
	return r, r.Load(ctx)
}

// LoadDir is Load of the snapshot folder dir (OUT/DATE), read through
// regfile.DirFS: anything but a regular file at a listed path (a FIFO, a
// device, a symbolic link) is refused without being opened for reading.
func LoadDir(ctx context.Context, dir string) (*Release, error) {
	return Load(ctx, regfile.DirFS(dir), dir)
}

// Load reads every file the manifest lists, one at a time, and fails when
// one is missing or differs from its listed size or sha256, or when a
// published file does not decode (a model file, whose slug must be its
// file's name; grid.json; index.json, checked as it is read, never held).
// It records each model file's index entry (Models) and grid.json (Grid).
// Errors wrap failure.ErrValidation (a *FileError when a listed file is
// not as listed), or failure.ErrInterrupted once ctx is done.
//
// Load does not look for files the manifest leaves out, nor recompute any
// figure: the checker does (validate.Check).
func (r *Release) Load(ctx context.Context) error {
	rd := &Reader{rel: r, ctx: ctx}
	for i, f := range r.files() {
		output := i >= len(r.Manifest.Sources)
		var err error
		switch {
		case strings.HasPrefix(f.Path, format.ModelsDir) && strings.HasSuffix(f.Path, ".json") && output:
			var b []byte
			if b, err = rd.ReadListed(f.Path); err == nil {
				var model format.Model
				if err = json.Unmarshal(b, &model); err != nil {
					err = fmt.Errorf("%s: %v", f.Path, err)
				} else if want := format.ModelPath(model.Slug); want != f.Path {
					err = fmt.Errorf("%s: slug %q does not match the file name", f.Path, model.Slug)
				} else {
					e := model.Entry()
					e.Best = nil // Model reads it: ten thousand entries hold no index rows
					r.Models[model.Slug] = e
				}
			}
		case f.Path == format.GridPath && output:
			var b []byte
			if b, err = rd.ReadListed(f.Path); err == nil {
				var g format.Grid
				if err = json.Unmarshal(b, &g); err != nil {
					err = fmt.Errorf("%s: %v", f.Path, err)
				} else {
					r.Grid = &g
				}
			}
		case f.Path == format.IndexPath && output:
			err = rd.StreamListed(f.Path, func(rd io.Reader) error {
				if err := jsondecode.Check(rd, reflect.TypeFor[format.IndexFile]()); err != nil {
					return fmt.Errorf("%s: %v", f.Path, err)
				}
				return nil
			})
		default:
			err = rd.StreamListed(f.Path, nil)
		}
		if err != nil {
			return r.failIn(ctx, err)
		}
	}
	return nil
}

// files are the manifest's entries of the listed sources, then of the
// listed outputs.
func (r *Release) files() []format.File {
	m := r.Manifest
	files := make([]format.File, 0, len(m.Sources)+len(m.Outputs))
	for _, src := range m.Sources {
		files = append(files, src.File)
	}
	return append(files, m.Outputs...)
}

// fail makes err an error of the release: failure.ErrInterrupted once its
// context is done, else failure.ErrValidation naming it.
func (r *Release) fail(err error) error { return r.failIn(r.ctx, err) }

func (r *Release) failIn(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%w: loading the snapshot %s: %w", failure.ErrInterrupted, r.name, cerr)
	}
	return fmt.Errorf("%w: snapshot %s: %w", failure.ErrValidation, r.name, err)
}

// FileError is a file the manifest lists that is missing, cannot be read,
// or is not the bytes the manifest lists (its size or sha256): unlike any
// other fault of a release, one its manifest does not fix, so that the
// same release can be read again once the file is in place (CheckListed).
type FileError struct {
	// File is the manifest's entry of the file.
	File format.File
	Err  error
}

func (e *FileError) Error() string { return e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// CheckListed checks the one listed file that err, an error of Load,
// names as not as listed (a *FileError): nil when it is in place now, with
// its listed size and sha256. An error that names no such file is
// returned as it is: the manifest fixes it.
func (r *Release) CheckListed(ctx context.Context, err error) error {
	var fe *FileError
	if !errors.As(err, &fe) {
		return err
	}
	rd := &Reader{rel: r, ctx: ctx}
	return rd.StreamListed(fe.File.Path, nil)
}

// readManifest reads, decodes and checks manifest.json into r.Manifest,
// and returns its bytes.
func (r *Release) readManifest() ([]byte, error) {
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	f, err := regfile.OpenFS(r.fsys, format.ManifestPath)
	if err != nil {
		return nil, err
	}
	data, err := readBounded(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := checkGenerator(data); err != nil {
		return nil, err
	}
	m, err := decodeManifest(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", format.ManifestPath, err)
	}
	canonical, err := format.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", format.ManifestPath, err)
	}
	if !bytes.Equal(canonical, data) {
		return nil, fmt.Errorf("%s is not in its canonical form (the bytes written by the build); byte %d differs", format.ManifestPath, FirstDiff(canonical, data))
	}
	r.Manifest = m
	return data, nil
}

// readBounded reads the manifest from f, refusing one over
// format.MaxManifestBytes before reading it when its size says so, and
// after reading at most one byte more when it does not (an fs.FS whose
// sizes are not the bytes it serves).
func readBounded(f fs.File) ([]byte, error) {
	tooLarge := func(size string) error {
		return fmt.Errorf("%s is %s bytes, over the %d MiB bound (format.MaxManifestBytes); refusing to read it", format.ManifestPath, size, format.MaxManifestBytes>>20)
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > format.MaxManifestBytes {
		return nil, tooLarge(strconv.FormatInt(fi.Size(), 10))
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, format.MaxManifestBytes+1)); err != nil {
		return nil, err
	}
	if buf.Len() > format.MaxManifestBytes {
		return nil, tooLarge("more than " + strconv.Itoa(format.MaxManifestBytes))
	}
	return buf.Bytes(), nil
}

// checkGenerator holds each string of the manifest's generator to
// format.MaxGeneratorBytes, reading data as JSON tokens, before anything
// is decoded: the generator is echoed wherever the snapshot is named (the
// code that built it). A document that is not JSON is decodeManifest's to
// report.
func checkGenerator(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil
		}
		if key := tok.String(); key != "generator" || dec.PeekKind() != '{' {
			if err := dec.SkipValue(); err != nil {
				return nil
			}
			continue
		}
		dec.ReadToken()
		for dec.PeekKind() == '"' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil
			}
			field := tok.String() // the token is valid until the next read
			v, err := dec.ReadValue()
			if err != nil {
				return nil
			}
			if generatorKeys[field] && v.Kind() == '"' && len(v) > format.MaxGeneratorBytes+2 {
				return fmt.Errorf("%s: generator.%s is %d bytes of JSON, over the %d-byte bound (format.MaxGeneratorBytes)",
					format.ManifestPath, field, len(v)-2, format.MaxGeneratorBytes)
			}
		}
		return nil
	}
	return nil
}

// generatorKeys are the generator's strings, by their JSON key; another
// key is decodeManifest's to refuse.
var generatorKeys = map[string]bool{"module": true, "version": true, "revision": true, "go": true}

// decodeManifest decodes manifest.json strictly: no unknown field, nothing
// after the top-level value.
func decodeManifest(data []byte) (*format.Manifest, error) {
	var m format.Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the top-level value")
	}
	return &m, nil
}

// Listed returns the manifest's entry of a listed output or source, by
// its slash path.
func (r *Release) Listed(path string) (format.File, bool) {
	f, ok := r.listed[path]
	return f, ok
}

// ReadListed returns the bytes of a listed output or source, by its slash
// path ("models/qwen-3-32b.json", "sources/leaderboard/index.json"), read
// now and checked against the manifest: an error when the file is not
// listed, or no longer has its listed size and sha256.
func (r *Release) ReadListed(path string) ([]byte, error) {
	return r.Reader().ReadListed(path)
}

// Model reads and decodes the model file of slug, checked against the
// manifest.
func (r *Release) Model(slug string) (*format.Model, error) {
	if _, ok := r.Models[slug]; !ok {
		return nil, fmt.Errorf("snapshot %s has no model %q", r.name, slug)
	}
	p := format.ModelPath(slug)
	b, err := r.ReadListed(p)
	if err != nil {
		return nil, err
	}
	var m format.Model
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	if m.Slug != slug {
		return nil, fmt.Errorf("%s: slug %q does not match the file name", p, m.Slug)
	}
	return &m, nil
}

// ReadGrid reads and decodes grid.json, checked against the manifest.
func (r *Release) ReadGrid() (*format.Grid, error) {
	b, err := r.ReadListed(format.GridPath)
	if err != nil {
		return nil, err
	}
	var g format.Grid
	if err := json.Unmarshal(b, &g); err != nil {
		return nil, fmt.Errorf("%s: %v", format.GridPath, err)
	}
	return &g, nil
}

// Source returns the manifest's entry of the named upstream file
// ("leaderboard/index.json"), or nil.
func (r *Release) Source(name string) *format.SourceFile {
	for i := range r.Manifest.Sources {
		if r.Manifest.Sources[i].Name == name {
			return &r.Manifest.Sources[i]
		}
	}
	return nil
}

// Slugs returns the models' slugs, sorted.
func (r *Release) Slugs() []string {
	slugs := make([]string, 0, len(r.Models))
	for slug := range r.Models {
		slugs = append(slugs, slug)
	}
	slices.Sort(slugs)
	return slugs
}

// Reader reads the release's listed files one at a time, each checked
// against the manifest, under the release's context.
func (r *Release) Reader() *Reader { return &Reader{rel: r, ctx: r.ctx} }

// Reader reads listed files of a release one at a time, checking each
// against its manifest entry. Its buffers are reused from one file to the
// next. Once its context is done, every read fails with the context's
// error.
type Reader struct {
	rel  *Release
	ctx  context.Context
	h    hash.Hash
	copy []byte       // io.CopyBuffer's
	buf  bytes.Buffer // ReadListed's
	br   *bufio.Reader
}

// ReadListed returns the bytes of the listed file at path, checked against
// its size and sha256. They are valid until the reader's next read.
func (rd *Reader) ReadListed(path string) ([]byte, error) {
	rd.buf.Reset()
	err := rd.stream(path, func(size int64, r io.Reader) error {
		// The size, when the file has its listed one, is room for it whole.
		if f := rd.rel.listed[path]; size == f.Size && size < 1<<30 {
			rd.buf.Grow(int(size) + bytes.MinRead)
		}
		_, err := rd.buf.ReadFrom(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rd.buf.Bytes(), nil
}

// StreamListed hands the listed file at path to fn as it is read (nil:
// only hash it), reads whatever fn leaves, and checks the file's size and
// sha256. A mismatch is the error, whatever fn returned: it says why fn
// may have failed.
func (rd *Reader) StreamListed(path string, fn func(io.Reader) error) error {
	var use func(int64, io.Reader) error
	if fn != nil {
		use = func(_ int64, r io.Reader) error {
			if rd.br == nil {
				rd.br = bufio.NewReaderSize(r, 64<<10)
			} else {
				rd.br.Reset(r)
			}
			err := fn(rd.br)
			rd.br.Reset(nil)
			return err
		}
	}
	return rd.stream(path, use)
}

// stream is StreamListed, fn given the file's size as it is stored.
func (rd *Reader) stream(path string, fn func(size int64, r io.Reader) error) error {
	f, ok := rd.rel.listed[path]
	if !ok {
		return fmt.Errorf("%s is not listed in %s", path, format.ManifestPath)
	}
	if err := rd.ctx.Err(); err != nil {
		return err
	}
	file, err := regfile.OpenFS(rd.rel.fsys, path)
	if err != nil {
		return &FileError{File: f, Err: err}
	}
	defer file.Close()
	if rd.h == nil {
		rd.h, rd.copy = sha256.New(), make([]byte, 64<<10)
	}
	rd.h.Reset()
	cr := &countingReader{r: io.TeeReader(file, rd.h), ctx: rd.ctx}
	var fnErr error
	if fn != nil {
		size := int64(-1)
		if fi, err := file.Stat(); err == nil {
			size = fi.Size()
		}
		fnErr = fn(size, cr)
	}
	if _, err := io.CopyBuffer(io.Discard, cr, rd.copy); err != nil {
		if rd.ctx.Err() != nil {
			return err
		}
		return &FileError{File: f, Err: fmt.Errorf("reading %s: %w", f.Path, err)}
	}
	if sum := hex.EncodeToString(rd.h.Sum(nil)); cr.n != f.Size || sum != f.SHA256 {
		return &FileError{File: f, Err: fmt.Errorf("%s: %d bytes, sha256 %s; %s lists %d bytes, sha256 %s", f.Path, cr.n, sum, format.ManifestPath, f.Size, f.SHA256)}
	}
	return fnErr
}

// countingReader counts the bytes read, and stops when ctx is done.
type countingReader struct {
	r   io.Reader
	n   int64
	ctx context.Context
}

func (c *countingReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// FirstDiff returns the offset of the first byte where a and b differ.
func FirstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
