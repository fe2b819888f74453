// Package build builds a dated snapshot of the Green Tokens index from the
// upstream files, and publishes it in a store (snapshots/store), whole or
// not at all. Its steps, top to bottom (Build, in build.go):
//
//	fetch    the upstream files, each whole (Ember's CSV as a stream);
//	archive  their bytes, unchanged, under sources/;
//	derive   the leaderboard's rows, what is excluded and why, the evidence;
//	write    the published files: model files, index.json, grid.json, pages;
//	         then manifest.json, which lists every one of them;
//	check    the staged folder with the checker, validate.Check;
//	guard    the removal guard: no published model dropped, no grid
//	         shrunk, unless asked (guard.go);
//	publish  the stage as OUT/DATE, in one rename.
//
// A signal (ctx) is honoured until that rename: every step checks ctx,
// the guard between the models it compares, and publish right before the
// rename; the build then ends with failure.ErrInterrupted, nothing
// published.
//
// Ember's CSV goes through fetch, archive, derive and write (ember.go)
// once the leaderboard is derived, before the leaderboard's files are
// written: it is streamed into its archive as it is parsed, and only
// grid.json is read by the rest (the pages). The steps write through a
// Sink: a stage of the store, or verify's comparing sink, which runs them
// again from a snapshot's archived sources (Produce). The manifest names
// the code that wrote the snapshot (ThisGenerator).
package build

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"slices"
	"sort"
	"time"

	"github.com/leadgreen/greentokens/exports"
	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/crashtest"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/validate"
)

// Options say what to build and where.
type Options struct {
	// Out holds the dated snapshots (OUT/DATE/).
	Out string
	// Date is the data version, YYYY-MM-DD; the snapshot's folder name.
	Date string
	// Retrieved is the retrieval date, YYYY-MM-DD, that the published files
	// carry (their source blocks' "retrieved", the manifest's "retrieved").
	// Required when the source does not know when its files were fetched (a
	// local folder); for an HTTP source it defaults to the date the Text
	// Conversation task file was fetched. Each manifest source entry keeps
	// its own fetch time when the source knows it.
	Retrieved string
	// Source hands out the upstream files.
	Source fetch.Source
	// Replace lets a build replace an existing snapshot of the same date
	// whose content differs. Without it that is an ErrConflict.
	Replace bool
	// Logger receives progress; nil discards it.
	Logger *slog.Logger

	// NoGrid leaves out the Ember stage: no grid.json, no carbon figures.
	NoGrid bool
	// GridYear pins grid.json's reference year; 0 takes the latest
	// complete year (the rule sourcetext's Ember.YearRule words).
	GridYear int
	// EmberRelease names Ember's release ("September 2026"); the CSV does
	// not carry it.
	EmberRelease string
	// PageGrids are the grids of the pages' carbon tables; nil means
	// render.DefaultGrids().
	PageGrids []string

	// LockTimeout bounds the wait for another build that holds the output
	// folder's lock: past it the build fails with ErrConflict, naming the
	// holder's PID. Zero waits as long as it takes. A cancelled ctx ends
	// the wait at once (ErrInterrupted).
	LockTimeout time.Duration

	// AllowRemoval names models (by slug or model id) and tasks (by id)
	// that this build may drop although the latest earlier snapshot under
	// Out has them; any other dropped model fails the build with
	// ErrRemoval, any other dropped task with ErrTaskRemoval (guard.go).
	AllowRemoval []string
	// AllowGridShrink lets grid.json lose more than a tenth of the areas
	// of the latest earlier snapshot's; without it that fails the build
	// with ErrGridShrink (guard.go).
	AllowGridShrink bool
	// Reproduce says that the build reproduces a snapshot from its own
	// archived sources (verify.Rebuild): it is checked and published as
	// any build, and the removal guard does not run, since it decides
	// nothing about what is published.
	Reproduce bool

	// Generator is recorded as the manifest's generator; nil records the
	// running code (ThisGenerator). Verify's rebuild passes the stored one,
	// and tests that compare builds a fixed one.
	Generator *format.Generator
}

// Result says what a build did.
type Result struct {
	// Dir is the snapshot folder.
	Dir string
	// Unchanged is true when an identical snapshot was already there.
	Unchanged bool
	// Replaced is true when a different snapshot was replaced.
	Replaced bool
	Manifest *format.Manifest
}

// Sink is where the build's steps write a snapshot's files, each once: a
// stage of the store (store.Stage), which writes them to disk, or verify's
// comparing sink, which compares them with a published release as they
// come. A failure to write is an error wrapping failure.ErrConflict.
type Sink interface {
	// WriteFile writes the file at the slash path rel, whole, in one
	// write, and returns its manifest entry.
	WriteFile(rel string, data []byte) (format.File, error)
	// WriteStream writes the file at rel as fn writes it, and returns its
	// manifest entry; an error of fn is returned as it is.
	WriteStream(rel string, fn func(w io.Writer) error) (format.File, error)
	// FS reads back the files written, as written.
	FS() fs.FS
}

// Build fetches the upstream files, derives the published files, checks
// them with validate.Check, and moves the finished snapshot to
// OUT/DATE/. On any error nothing is left under OUT but what was there.
func Build(ctx context.Context, opts Options) (*Result, error) {
	return run(ctx, opts, validate.Check)
}

// run runs every step into a new stage under opts.Out, the staged folder
// checked by check.
func run(ctx context.Context, opts Options, check func(context.Context, fs.FS) error) (_ *Result, err error) {
	log := logger(opts.Logger)
	if err := checkDates(opts); err != nil {
		return nil, err
	}
	if opts.Out == "" || opts.Source == nil {
		return nil, fmt.Errorf("%w: no output folder or no source", failure.ErrUsage)
	}
	st, err := store.NewStage(ctx, opts.Out, opts.Date, opts.LockTimeout, log)
	if err != nil {
		return nil, err
	}
	defer func() { st.Close(err != nil) }()
	m, err := produce(ctx, crashSink(st), opts, log)
	if err != nil {
		return nil, err
	}
	if err := checkStage(ctx, st, check); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w before publishing: %w", failure.ErrInterrupted, err)
	}
	if !opts.Reproduce {
		if err := guardRemovals(ctx, st, opts, log); err != nil {
			return nil, err
		}
	}
	return publish(ctx, st, opts, m, log)
}

// Produce runs the steps that make a snapshot's files, fetch, archive,
// derive and write, into sink, and returns the manifest, written last:
// verify runs them again, into its comparing sink, from a snapshot's
// archived sources. opts.Out, Replace and the guard's options are not
// read.
func Produce(ctx context.Context, sink Sink, opts Options) (*format.Manifest, error) {
	if err := checkDates(opts); err != nil {
		return nil, err
	}
	return produce(ctx, sink, opts, logger(opts.Logger))
}

// produce runs the steps that make a snapshot's files into sink, manifest
// last: fetch, archive, derive, write. It holds what the step it is at
// needs, no more: an upstream file's bytes until they are parsed, a model
// file until it is written, index.json's struct and the rows the pages
// cite until the pages are written. The checks then start from little
// more than the manifest.
func produce(ctx context.Context, sink Sink, opts Options, log *slog.Logger) (*format.Manifest, error) {
	all, err := sourcetext.Load()
	if err != nil {
		return nil, err
	}
	text := &all.Leaderboard
	up, err := fetchLeaderboard(ctx, opts, log)
	if err != nil {
		return nil, err
	}
	sources, err := archiveLeaderboard(sink, up, text, log)
	if err != nil {
		return nil, err
	}
	d, err := derive(up, opts, text, log)
	if err != nil {
		return nil, err
	}
	var g *emberOut
	if !opts.NoGrid {
		if g, err = emberSteps(ctx, sink, opts, log); err != nil {
			return nil, err
		}
	}
	rec := d.record
	out, err := write(sink, d, g, opts, all.Licence, log)
	if err != nil {
		return nil, err
	}
	m := newManifest(opts, rec, append(sources, out.sources...), out.files, out.grid)
	if m.Licence, err = licence(all.Licence, opts.Date); err != nil {
		return nil, err
	}
	return m, writeManifest(sink, m)
}

// Step 1: fetch.

// fetched is one upstream file that the fetch step read whole.
type fetched struct {
	name string
	file *fetch.File
	// retrieved is its manifest entry's retrieval time (retrievedAt).
	retrieved string
}

// upstream is the leaderboard's files, in the order they are fetched and
// archived.
type upstream []fetched

// file returns the fetched file of that name.
func (up upstream) file(name string) *fetch.File {
	for _, f := range up {
		if f.name == name {
			return f.file
		}
	}
	panic("no upstream file " + name) // fetchLeaderboard fetched every one asked for
}

// has reports whether the file of that name was fetched.
func (up upstream) has(name string) bool {
	for _, f := range up {
		if f.name == name {
			return true
		}
	}
	return false
}

// tasks are the registered tasks whose files were fetched, in the
// registry's order: the snapshot's tasks (the manifest's selection.tasks).
func (up upstream) tasks() []format.Task {
	var out []format.Task
	for _, t := range format.Tasks() {
		if up.has(t.File()) {
			out = append(out, t)
		}
	}
	return out
}

// fetchLeaderboard reads each of the leaderboard's files whole from
// opts.Source: the index and the commits, then the file of every
// registered task (format.Tasks) the index lists in its tasks (every
// registered task when the index has no such field). A registered task the
// index does not list is left out of the snapshot and logged; the primary
// task is always fetched. Whether a task left out was in the latest
// earlier snapshot is the removal guard's to say (guard.go).
func fetchLeaderboard(ctx context.Context, opts Options, log *slog.Logger) (upstream, error) {
	var up upstream
	get := func(name string) error {
		f, err := fetch.ReadAll(ctx, opts.Source, name)
		if err != nil {
			return fetchFailure(err, false)
		}
		retrieved, err := retrievedAt(opts, name, f.Retrieved)
		if err != nil {
			return err
		}
		up = append(up, fetched{name: name, file: f, retrieved: retrieved})
		return nil
	}
	for _, name := range []string{fetch.LeaderboardIndex, fetch.LeaderboardCommits} {
		if err := get(name); err != nil {
			return nil, err
		}
	}
	idx, err := leaderboard.ParseIndex(up.file(fetch.LeaderboardIndex).Data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
	}
	for _, t := range format.Tasks() {
		if !t.Primary && idx.Tasks != nil && !slices.Contains(idx.Tasks, t.ID) {
			log.Warn("a registered task is not listed in the leaderboard's index; left out", "task", t.ID)
			continue
		}
		if err := get(t.File()); err != nil {
			return nil, err
		}
	}
	return up, nil
}

// fetchFailure gives a failed fetch its kind, and a failed ingest when
// parsing is set (the parser read the body as it came): bytes that came
// but cannot be used (not JSON, empty, over the cap, and when parsing,
// malformed) are bad upstream data; no answer, an error status, a refused
// URL or a connection lost mid-way is an unreachable upstream; a cancelled
// build (a signal) is neither; a write that failed in the output folder
// stays what it is.
func fetchFailure(err error, parsing bool) error {
	var fe *fetch.Error
	var pe *fs.PathError
	switch {
	case errors.Is(err, failure.ErrConflict):
		return err
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: %w", failure.ErrInterrupted, err)
	case errors.Is(err, fetch.ErrNotJSON), errors.Is(err, fetch.ErrEmpty), errors.Is(err, fetch.ErrTooLarge):
		return fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
	case parsing && !errors.As(err, &fe) && !errors.As(err, &pe):
		return fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
	}
	return fmt.Errorf("%w: %w", failure.ErrUpstream, err)
}

// retrievedAt is what a manifest source entry says of when the file was
// fetched: the fetch time when the source knows it, else the date the
// build was given.
func retrievedAt(opts Options, name string, fetched time.Time) (string, error) {
	switch {
	case !fetched.IsZero():
		return fetched.UTC().Format(time.RFC3339), nil
	case opts.Retrieved != "":
		return opts.Retrieved, nil
	}
	return "", fmt.Errorf("%w: %s carries no retrieval date; give --retrieved", failure.ErrUsage, name)
}

// Step 2: archive.

// archiveLeaderboard stores each fetched file's bytes unchanged under
// sources/, and returns their manifest entries.
func archiveLeaderboard(sink Sink, up upstream, text *sourcetext.Leaderboard, log *slog.Logger) ([]format.SourceFile, error) {
	var sources []format.SourceFile
	for _, u := range up {
		f := u.file
		file, err := sink.WriteFile(format.SourcePath(u.name), f.Data)
		if err != nil {
			return nil, err
		}
		log.Info("archived", "source", u.name, "url", f.URL, "bytes", file.Size, "sha256", file.SHA256)
		sources = append(sources, format.SourceFile{
			File: file, Name: u.name, URL: f.URL, FinalURL: f.FinalURL, Retrieved: u.retrieved,
			Producer: text.Producer, Licence: text.Licence,
		})
		crashtest.Kill(crashtest.SourceArchived)
	}
	return sources, nil
}

// Step 3: derive.

// derived is what the derive step hands to the write step.
type derived struct {
	// lb is the leaderboard: the index, the commit, and every task's
	// stable rows.
	lb     *transform.Leaderboard
	record record
}

// record is what the manifest records of the derivation.
type record struct {
	retrieved  string
	exclusions []format.Exclusion
	evidence   format.Evidence
	// tasks are the snapshot's tasks, in the registry's order.
	tasks []string
}

// derive parses the fetched leaderboard files, applies the selection and
// stability rules to every task (so that every exclusion is on record),
// and dates the data. The files' bytes are let go once parsed.
func derive(up upstream, opts Options, text *sourcetext.Leaderboard, log *slog.Logger) (*derived, error) {
	primary := up.file(format.PrimaryTask().File())
	rec := record{retrieved: opts.Retrieved, exclusions: []format.Exclusion{}}
	if rec.retrieved == "" {
		rec.retrieved = primary.Retrieved.UTC().Format(time.DateOnly)
	}
	index, commits := up.file(fetch.LeaderboardIndex), up.file(fetch.LeaderboardCommits)
	lb, excluded, err := transform.NewLeaderboard(transform.LeaderboardFiles{
		Index: index.Data, Commits: commits.Data, Primary: primary.Data, PrimaryURL: primary.URL,
	}, opts.Date, rec.retrieved)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
	}
	index.Data, commits.Data, primary.Data = nil, nil, nil
	d := &derived{lb: lb}
	var all []transform.Excluded
	for _, e := range excluded {
		all = append(all, transform.Excluded{Label: e.Row.Label(), Exclusion: transform.TokenExclusion(e)})
	}
	for _, t := range up.tasks() {
		if t.Primary {
			continue
		}
		f := up.file(t.File())
		ex, err := lb.AddTaskFile(t.ID, f.Data, f.URL)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
		}
		f.Data = nil
		all = append(all, ex...)
	}
	for _, e := range all {
		log.Warn("excluded a row", "row", e.Label, "reason", e.Exclusion.Reason)
		rec.exclusions = append(rec.exclusions, e.Exclusion)
	}
	for _, t := range up.tasks() {
		rec.tasks = append(rec.tasks, t.ID)
	}
	if rec.evidence, err = evidence(lb, text, rec.retrieved, log); err != nil {
		return nil, err
	}
	logNewGPUs(log, lb)
	d.record = rec
	return d, nil
}

// evidence dates the leaderboard data (the index's date, the newest
// commit's) and checks that the retrieval date can be true.
func evidence(lb *transform.Leaderboard, text *sourcetext.Leaderboard, retrieved string, log *slog.Logger) (format.Evidence, error) {
	compiled, _, conflict, err := lb.Evidence(text)
	if err != nil {
		return format.Evidence{}, err
	}
	if conflict != "" {
		log.Warn("the compiled-date evidence disagrees", "conflict", conflict)
	}
	if len(retrieved) >= len(time.DateOnly) && compiled > retrieved[:len(time.DateOnly)] {
		return format.Evidence{}, fmt.Errorf("%w: the leaderboard data was compiled on %s, after the retrieval date %s: the retrieval date (--retrieved) cannot be true", failure.ErrUsage, compiled, retrieved[:len(time.DateOnly)])
	}
	return format.Evidence{
		IndexLastUpdated: lb.Index.LastUpdated, LastCommitSHA: lb.Commit.SHA,
		LastCommitDate: lb.Commit.Date.Format(time.DateOnly), Compiled: compiled, Conflict: conflict,
	}, nil
}

// Step 4: write.

// written is what the write step wrote.
type written struct {
	// files are the published files: model files, index.json, grid.json
	// and the pages.
	files []format.File
	// sources are the sources archived beside (Ember's CSV).
	sources []format.SourceFile
	// grid is the Ember stage's summary, nil without one.
	grid *format.GridSummary
}

// write writes the model files, index.json, then the pages, which read
// the model files and grid.json (g, the Ember steps' output; nil without
// grid), then exports/, from the same files (licensed under lic). d's leaderboard is let go once the pages have the rows they cite.
func write(sink Sink, d *derived, g *emberOut, opts Options, lic sourcetext.Licence, log *slog.Logger) (*written, error) {
	models, idx, err := writeModels(sink, d, log)
	if err != nil {
		return nil, err
	}
	rows, err := pageRows(idx, d)
	if err != nil {
		return nil, err
	}
	tasks, err := writeTasks(sink, d, log)
	if err != nil {
		return nil, err
	}
	d.lb = nil
	index, err := writeIndex(sink, idx)
	if err != nil {
		return nil, err
	}
	pages, err := writePages(sink, opts, idx, rows)
	if err != nil {
		return nil, err
	}
	exported, err := exports.Write(sink, exports.Snapshot{FS: sink.FS(), Index: idx, Grid: g != nil, Date: opts.Date, Licence: lic})
	if err != nil && !errors.Is(err, failure.ErrConflict) { // the data's, not the disk's
		err = fmt.Errorf("%w: writing the exports: %w", failure.ErrValidation, err)
	}
	if err != nil {
		return nil, err
	}
	out := &written{files: append(append(append(append(models, index), pages...), tasks...), exported...)}
	if g != nil {
		out.sources = []format.SourceFile{g.source}
		out.files = append(out.files, g.output)
		out.grid = g.summary
	}
	log.Info("built index.json and pages", "gpu_comparisons", len(idx.GPUComparisons),
		"task_comparisons", len(idx.TaskComparisons), "pages", len(pages))
	return out, nil
}

// writeModels builds each model file, adds it to index.json's builder and
// writes it, in order, then lets it go: only the index's entries stay. An error of the index is reported once every
// model file is written, as if the index were built after them.
func writeModels(sink Sink, d *derived, log *slog.Logger) ([]format.File, *format.IndexFile, error) {
	ib := transform.NewIndexBuilder(d.lb)
	var indexErr error
	var files []format.File
	var writeErr error
	modelErr := transform.EachModel(d.lb, func(model *transform.Built) error {
		f, err := writeModel(sink, format.ModelPath(model.File.Slug), model.File)
		if err != nil {
			writeErr = err
			return errStopped
		}
		files = append(files, f)
		if indexErr == nil {
			indexErr = ib.Add(model)
		}
		return nil
	})
	n := len(files)
	switch {
	case writeErr != nil:
		return nil, nil, writeErr
	case modelErr != nil:
		return nil, nil, fmt.Errorf("%w: %w", failure.ErrUpstreamData, modelErr)
	}
	log.Info("built model files", "models", n, "configurations", len(d.lb.Tasks[format.PrimaryTask().ID]), "excluded", len(d.record.exclusions))
	idx, err := ib.Index()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
	}
	return files, idx, nil
}

// writeTasks writes the files of every task of the snapshot but the
// primary one (transform.TaskFiles): its model files, then its index.
func writeTasks(sink Sink, d *derived, log *slog.Logger) ([]format.File, error) {
	var files []format.File
	for _, id := range d.record.tasks {
		t, _ := format.LookupTask(id)
		if !t.HasFiles() {
			continue
		}
		tf, err := transform.TaskFiles(d.lb, id)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
		}
		for _, f := range tf {
			data, err := format.Marshal(f.Value)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %w", failure.ErrUpstreamData, f.Path, err)
			}
			file, err := sink.WriteFile(f.Path, data)
			if err != nil {
				return nil, err
			}
			files = append(files, file)
		}
		log.Info("built a task's files", "task", id, "models", len(tf)-1)
	}
	return files, nil
}

// writeModel writes a model file into the stage.
func writeModel(sink Sink, rel string, model *format.Model) (format.File, error) {
	data, err := format.Marshal(model)
	if err != nil {
		return format.File{}, fmt.Errorf("%w: %s: %w", failure.ErrUpstreamData, rel, err)
	}
	return sink.WriteFile(rel, data)
}

// errStopped stops EachModel once a model file has failed; writeModels
// has the error.
var errStopped = errors.New("stopped: a model file failed")

// pageRows are the stable rows the pages cite, by task and row id: the
// pages need them, not the model files (they read those back from the
// stage) nor the rest of the leaderboard.
func pageRows(idx *format.IndexFile, d *derived) (map[string]map[string]*leaderboard.Row, error) {
	rows := map[string]map[string]*leaderboard.Row{}
	for _, t := range idx.Source.Tasks {
		var err error
		if rows[t.Task], err = leaderboard.RowIDs(t.Task, d.lb.Tasks[t.Task]); err != nil {
			return nil, fmt.Errorf("%w: loading the staged files for the pages: %s: %v", failure.ErrValidation, t.File, err)
		}
	}
	return rows, nil
}

// writeIndex writes index.json into the stage as it is encoded, so that
// its bytes (tens of megabytes for ten thousand models) are never held.
func writeIndex(sink Sink, idx *format.IndexFile) (format.File, error) {
	f, err := sink.WriteStream(format.IndexPath, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		if err := idx.Encode(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil && !errors.Is(err, failure.ErrConflict) { // the data's, not the disk's
		return format.File{}, fmt.Errorf("%w: %s: %w", failure.ErrUpstreamData, format.IndexPath, err)
	}
	return f, err
}

// writePages renders every model's page and writes it into the stage, one
// at a time, as "greentokens render" would from the published snapshot: from index.json (idx, the
// struct just written), the model files read back from the stage,
// grid.json, and the stable rows the pages cite (rows).
func writePages(sink Sink, opts Options, idx *format.IndexFile, rows map[string]map[string]*leaderboard.Row) ([]format.File, error) {
	s, err := render.New(sink.FS(), idx, rows)
	if err != nil {
		return nil, fmt.Errorf("%w: loading the staged files for the pages: %v", failure.ErrValidation, err)
	}
	files := make([]format.File, 0, len(idx.Models))
	for _, e := range idx.Models {
		b, err := render.Render(s, e.Slug, render.Options{Grids: opts.PageGrids})
		if err != nil {
			return nil, fmt.Errorf("%w: rendering the pages: %v", failure.ErrValidation, err)
		}
		f, err := sink.WriteFile(format.PagePath(e.Slug), b)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// newManifest is the manifest of what the steps wrote, its lists sorted
// by path.
func newManifest(opts Options, rec record, sources []format.SourceFile, outputs []format.File, g *format.GridSummary) *format.Manifest {
	gen := ThisGenerator()
	if opts.Generator != nil {
		gen = *opts.Generator
	}
	sort.Slice(sources, func(i, j int) bool { return sources[i].Path < sources[j].Path })
	sort.Slice(outputs, func(i, j int) bool { return outputs[i].Path < outputs[j].Path })
	return &format.Manifest{
		Version: format.ManifestVersion, Date: opts.Date, Retrieved: rec.retrieved, Generator: gen,
		Selection: format.Selection{
			ITLDeadlineMS: format.ITLDeadlineMS, MinSteadyStateSeconds: leaderboard.MinSteadySeconds,
			MinBatchFraction: leaderboard.MinBatchFraction, Tasks: rec.tasks,
		},
		Sources: sources, Outputs: outputs, Evidence: rec.evidence, Exclusions: rec.exclusions, Grid: g,
	}
}

// writeManifest writes manifest.json, the stage's last file.
func writeManifest(sink Sink, m *format.Manifest) error {
	data, err := format.Marshal(m)
	if err != nil {
		return err
	}
	crashtest.Kill(crashtest.Manifest)
	_, err = sink.WriteFile(format.ManifestPath, data)
	return err
}

// Step 5: check.

// checkStage runs the checker, validate.Check (check), on the staged
// folder, read through regfile.DirFS as any snapshot is.
func checkStage(ctx context.Context, st *store.Stage, check func(context.Context, fs.FS) error) error {
	if err := check(ctx, regfile.DirFS(st.Dir())); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w while validating: %w", failure.ErrInterrupted, ctx.Err())
		}
		return fmt.Errorf("%w: %w", failure.ErrValidation, err)
	}
	crashtest.Kill(crashtest.Validated)
	return nil
}

// Step 6: publish.

// publish makes the checked stage OUT/DATE (the store's Prepare and
// Publish), unless an identical snapshot is there already; a different one
// is replaced only when asked. A signal is honoured until the rename: ctx
// is checked once the stage is prepared (its sync can take a while), right
// before it, and the build ends with failure.ErrInterrupted, nothing
// published.
func publish(ctx context.Context, st *store.Stage, opts Options, m *format.Manifest, log *slog.Logger) (*Result, error) {
	how, diff, err := st.Prepare(opts.Replace)
	if err != nil {
		return nil, err
	}
	target := st.Target()
	res := &Result{Dir: target, Manifest: m}
	if how != store.Same {
		crashtest.Pause(ctx, crashtest.Publish)
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w before publishing %s: %w", failure.ErrInterrupted, target, err)
		}
		crashtest.Kill(crashtest.Rename)
		if err := st.Publish(); err != nil {
			return nil, err
		}
		crashtest.Kill(crashtest.Renamed)
	}
	switch how {
	case store.New:
		log.Info("wrote the snapshot", "dir", target, "outputs", len(m.Outputs), "sources", len(m.Sources))
	case store.Same:
		log.Info("an identical snapshot is already there; nothing written", "dir", target)
		res.Unchanged = true
	case store.Replaced:
		log.Warn("replaced a different snapshot", "dir", target, "difference", diff)
		log.Info("wrote the snapshot", "dir", target, "outputs", len(m.Outputs), "sources", len(m.Sources))
		res.Replaced = true
	}
	return res, nil
}

// logger is l, or one that discards.
func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}

// checkDates checks the dates a build is given (they name its folder).
func checkDates(opts Options) error {
	if err := checkDate("--date", opts.Date); err != nil {
		return err
	}
	if opts.Retrieved != "" {
		return checkDate("--retrieved", opts.Retrieved)
	}
	return nil
}

// checkDate checks a date flag's value, YYYY-MM-DD.
func checkDate(flag, s string) error {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return fmt.Errorf("%w: %s %q is not a YYYY-MM-DD date", failure.ErrUsage, flag, s)
	}
	return nil
}
