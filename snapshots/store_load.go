package snapshots

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/leadgreen/greentokens/internal/crashtest"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/jsondecode"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// Paths of the published files other than the model files.
const ()

// Snapshot is a snapshot folder read back: its manifest, and what is
// needed to compare it with another (Diff) without holding its files. Load
// returns it only when every file the manifest lists is there with the
// listed size and sha256.
//
// It holds no file's bytes: a model file, or any other listed file, is
// read again when asked for (Model, Bytes), and checked against the
// manifest once more. A snapshot of ten thousand models is a few megabytes
// loaded (the manifest, and a name per model), not the hundreds its files
// take decoded.
type Snapshot struct {
	// Dir is the folder as given to Load.
	Dir      string
	Manifest *format.Manifest
	// Models names the model files, by slug; Model reads one.
	Models map[string]ModelRef
	// Grid is grid.json, nil when the snapshot has none.
	Grid *format.Grid

	// gpus are the GPUs of the model files (their gpus); GPUs lists them.
	gpus map[string]bool

	// listed are the manifest's entries of every listed output and every
	// listed source, by slash path.
	listed map[string]format.File
	// ctx ends the reads of the snapshot's files early (LoadContext).
	ctx context.Context
}

// Load reads the snapshot folder dir (OUT/DATE/), one file at a time. It
// fails when manifest.json does not decode strictly or is not in its
// canonical form (the bytes format.Marshal gives for the decoded
// manifest), when a file the manifest lists is missing or differs from its
// listed size or sha256, or when a published file does not decode (a model
// file, grid.json, index.json: index.json is checked as it is read, never
// held). Errors wrap failure.ErrValidation.
//
// Load does not look for files the manifest leaves out, nor recompute any
// figure: Verify does.
//
// Anything but a regular file at a listed path (a FIFO, a device) is
// refused without being opened for reading.
func Load(dir string) (*Snapshot, error) { return LoadContext(context.Background(), dir) }

// LoadContext is Load, ended early when ctx is (a signal): it then fails
// with failure.ErrInterrupted. The Snapshot keeps ctx for the files it reads
// later (Model, Bytes, Diff).
func LoadContext(ctx context.Context, dir string) (*Snapshot, error) {
	fail := func(format string, a ...any) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: loading the snapshot %s: %w", failure.ErrInterrupted, dir, err)
		}
		return fmt.Errorf("%w: snapshot %s: %s", failure.ErrValidation, dir, fmt.Sprintf(format, a...))
	}
	m, err := readManifest(dir)
	if err != nil {
		return nil, fail("%v", err)
	}
	s := &Snapshot{Dir: dir, Manifest: m, Models: map[string]ModelRef{}, gpus: map[string]bool{}, listed: make(map[string]format.File, len(m.Sources)+len(m.Outputs)), ctx: ctx}
	listed := make([]format.File, 0, len(m.Sources)+len(m.Outputs))
	for _, src := range m.Sources {
		listed = append(listed, src.File)
	}
	listed = append(listed, m.Outputs...)
	crashtest.Pause(ctx, crashtest.Loaded)
	r := newFileReader(ctx)
	for i, f := range listed {
		output := i >= len(m.Sources)
		if !fs.ValidPath(f.Path) || f.Path == format.ManifestPath {
			return nil, fail("%s lists the path %q", format.ManifestPath, f.Path)
		}
		s.listed[f.Path] = f
		var err error
		switch {
		case strings.HasPrefix(f.Path, format.ModelsDir) && strings.HasSuffix(f.Path, ".json") && output:
			var b []byte
			if b, err = r.read(dir, f); err == nil {
				var model format.Model
				if err = json.Unmarshal(b, &model); err != nil {
					err = fmt.Errorf("%s: %v", f.Path, err)
				} else if want := format.ModelPath(model.Slug); want != f.Path {
					err = fmt.Errorf("%s: slug %q does not match the file name", f.Path, model.Slug)
				} else {
					s.Models[model.Slug] = modelRef(&model)
					for _, g := range model.GPUs {
						s.gpus[g] = true
					}
				}
			}
		case f.Path == format.GridPath && output:
			var b []byte
			if b, err = r.read(dir, f); err == nil {
				var g format.Grid
				if err = json.Unmarshal(b, &g); err != nil {
					err = fmt.Errorf("%s: %v", f.Path, err)
				} else {
					s.Grid = &g
				}
			}
		case f.Path == format.IndexPath && output:
			err = r.stream(dir, f, func(rd io.Reader) error {
				if err := jsondecode.Check(rd, reflect.TypeFor[format.IndexFile]()); err != nil {
					return fmt.Errorf("%s: %v", f.Path, err)
				}
				return nil
			})
		default:
			err = r.stream(dir, f, nil)
		}
		if err != nil {
			return nil, fail("%v", err)
		}
	}
	return s, nil
}

// Bytes returns the bytes of a listed output file, or of a listed JSON
// source, by its slash path ("models/qwen-3-32b.json",
// "sources/leaderboard/tasks/lm-arena-chat.json"). They are read from the
// folder now, and false is returned when they are no longer the listed
// size and sha256 (or cannot be read).
func (s *Snapshot) Bytes(path string) ([]byte, bool) {
	f, ok := s.listed[path]
	if !ok || (strings.HasPrefix(path, "sources/") && !strings.HasSuffix(path, ".json")) {
		return nil, false
	}
	b, err := s.reader().read(s.Dir, f)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Model reads and decodes the model file of slug, checked against the
// manifest.
func (s *Snapshot) Model(slug string) (*format.Model, error) {
	return s.model(slug, s.reader())
}

func (s *Snapshot) model(slug string, r *fileReader) (*format.Model, error) {
	var m format.Model
	if err := s.decodeModel(slug, r, &m, &m.Slug); err != nil {
		return nil, err
	}
	return &m, nil
}

// diffModel is what Diff reads of a model file: the fields it compares,
// decoded as format.Model decodes them, and not the long texts of the
// source block.
type diffModel struct {
	Slug           string                   `json:"slug"`
	Name           string                   `json:"name"`
	ModelID        string                   `json:"model_id"`
	ParamsB        format.Float             `json:"params_b"`
	ActiveParamsB  format.Float             `json:"active_params_b"`
	Architecture   string                   `json:"architecture"`
	GPUs           []string                 `json:"gpus"`
	Configurations []format.Config          `json:"configurations"`
	Best           map[string]format.Config `json:"best"`
}

// diffModel reads the model file of slug as Diff compares it: a
// format.Model with diffModel's fields only.
func (s *Snapshot) diffModel(slug string, r *fileReader) (*format.Model, error) {
	var d diffModel
	if err := s.decodeModel(slug, r, &d, &d.Slug); err != nil {
		return nil, err
	}
	return &format.Model{Slug: d.Slug, Name: d.Name, ModelID: d.ModelID, ParamsB: d.ParamsB, ActiveParamsB: d.ActiveParamsB,
		Architecture: d.Architecture, GPUs: d.GPUs, Configurations: d.Configurations, Best: d.Best}, nil
}

// decodeModel reads the model file of slug, checked against the manifest,
// into v, whose slug field is at got.
func (s *Snapshot) decodeModel(slug string, r *fileReader, v any, got *string) error {
	f, ok := s.listed[format.ModelPath(slug)]
	if _, known := s.Models[slug]; !ok || !known {
		return fmt.Errorf("snapshot %s has no model %q", s.Dir, slug)
	}
	b, err := r.read(s.Dir, f)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", f.Path, err)
	}
	if *got != slug {
		return fmt.Errorf("%s: slug %q does not match the file name", f.Path, *got)
	}
	return nil
}

// Source returns the manifest's entry of the named upstream file
// ("leaderboard/index.json"), or nil.
func (s *Snapshot) Source(name string) *format.SourceFile {
	for i := range s.Manifest.Sources {
		if s.Manifest.Sources[i].Name == name {
			return &s.Manifest.Sources[i]
		}
	}
	return nil
}

// Slugs returns the models' slugs, sorted.
func (s *Snapshot) Slugs() []string {
	slugs := make([]string, 0, len(s.Models))
	for slug := range s.Models {
		slugs = append(slugs, slug)
	}
	sort.Strings(slugs)
	return slugs
}

// readManifest reads dir's manifest.json: it must decode strictly and be
// in its canonical form (the bytes format.Marshal gives for the decoded
// manifest, which a build writes).
func readManifest(dir string) (*format.Manifest, error) {
	data, err := regfile.ReadFile(filepath.Join(dir, format.ManifestPath))
	if err != nil {
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
		return nil, fmt.Errorf("%s is not in its canonical form (the bytes written by the build); byte %d differs", format.ManifestPath, firstDiff(canonical, data))
	}
	return m, nil
}

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

// reader is a fileReader under the snapshot's context.
func (s *Snapshot) reader() *fileReader {
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return newFileReader(ctx)
}

// fileReader reads listed files, one at a time, checking each against its
// manifest entry. Its buffers are reused from one file to the next. Once
// its context is done, every read fails with the context's error.
type fileReader struct {
	ctx  context.Context
	h    hash.Hash
	copy []byte       // io.CopyBuffer's
	buf  bytes.Buffer // read's
	br   *bufio.Reader
}

func newFileReader(ctx context.Context) *fileReader {
	return &fileReader{ctx: ctx, h: sha256.New(), copy: make([]byte, 64<<10)}
}

// read returns the bytes of the listed file f of dir, checked against f's
// size and sha256. They are valid until the next call.
func (r *fileReader) read(dir string, f format.File) ([]byte, error) {
	r.buf.Reset()
	// The listed size, when the file has it, is room for the whole file.
	if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path))); err == nil && fi.Size() == f.Size && f.Size < 1<<30 {
		r.buf.Grow(int(f.Size) + bytes.MinRead)
	}
	err := r.stream(dir, f, func(rd io.Reader) error {
		_, err := r.buf.ReadFrom(rd)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.buf.Bytes(), nil
}

// stream hands the listed file f of dir to fn as it is read (nil: only
// hash it), reads whatever fn leaves, and checks f's size and sha256. A
// mismatch is the error, whatever fn returned: it says why fn may have
// failed.
func (r *fileReader) stream(dir string, f format.File, fn func(io.Reader) error) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	file, err := regfile.Open(filepath.Join(dir, filepath.FromSlash(f.Path)))
	if err != nil {
		return err
	}
	defer file.Close()
	r.h.Reset()
	cr := &countingReader{r: io.TeeReader(file, r.h), ctx: r.ctx}
	var fnErr error
	if fn != nil {
		if r.br == nil {
			r.br = bufio.NewReaderSize(cr, 64<<10)
		} else {
			r.br.Reset(cr)
		}
		fnErr = fn(r.br)
		r.br.Reset(nil)
	}
	if _, err := io.CopyBuffer(io.Discard, cr, r.copy); err != nil {
		return fmt.Errorf("reading %s: %w", f.Path, err)
	}
	if sum := hex.EncodeToString(r.h.Sum(nil)); cr.n != f.Size || sum != f.SHA256 {
		return fmt.Errorf("%s: %d bytes, sha256 %s; %s lists %d bytes, sha256 %s", f.Path, cr.n, sum, format.ManifestPath, f.Size, f.SHA256)
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

// firstDiff returns the offset of the first byte where a and b differ.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
