package snapshots

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/page"
	"github.com/leadgreen/greentokens/transform/sourcetext"
	"github.com/leadgreen/greentokens/validate"
	"golang.org/x/sys/unix"
)

// Tasks are the leaderboard tasks a snapshot archives: Text Conversation,
// the index's workload, and Problem Solving, for the task comparison.
var Tasks = []string{fetch.TaskChat, fetch.TaskProblem}

// BuildOptions say what to build and where.
type BuildOptions struct {
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
	// complete year (grid.YearRule).
	GridYear int
	// EmberRelease names Ember's release ("September 2026"); the CSV does
	// not carry it.
	EmberRelease string
	// PageGrids are the grids of the pages' carbon tables; nil means
	// page.DefaultGrids.
	PageGrids []string

	// LockTimeout bounds the wait for another build that holds the output
	// folder's lock: past it the build fails with ErrConflict, naming the
	// holder's PID. Zero waits as long as it takes. A cancelled ctx ends
	// the wait at once (ErrInterrupted).
	LockTimeout time.Duration

	// AllowRemoval names models (by slug or model id) that this build may
	// drop although the latest earlier snapshot under Out has them; any
	// other dropped model fails the build with ErrRemoval (see guard.go).
	AllowRemoval []string
	// AllowGridShrink lets grid.json lose more than a tenth of the areas
	// of the latest earlier snapshot's; without it that fails the build
	// with ErrGridShrink (see guard.go).
	AllowGridShrink bool

	// Generator is recorded as the manifest's generator; nil records the
	// running code (ThisGenerator). Verify's rebuild passes the stored one,
	// and tests that compare builds a fixed one.
	Generator *Generator
}

// Result says what a build did.
type Result struct {
	// Dir is the snapshot folder.
	Dir string
	// Unchanged is true when an identical snapshot was already there.
	Unchanged bool
	// Replaced is true when a different snapshot was replaced.
	Replaced bool
	Manifest *Manifest
}

// Build fetches the upstream files, derives the published files, checks
// them with validate.Snapshot, and moves the finished snapshot to
// OUT/DATE/. On any error nothing is left under OUT but what was there.
func Build(ctx context.Context, opts BuildOptions) (_ *Result, err error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := checkDates(opts); err != nil {
		return nil, err
	}
	if opts.Out == "" || opts.Source == nil {
		return nil, fmt.Errorf("%w: no output folder or no source", ErrUsage)
	}
	if err := os.MkdirAll(opts.Out, dirMode); err != nil {
		return nil, fmt.Errorf("%w: creating %s: %v", ErrConflict, opts.Out, err)
	}
	held, err := lock(ctx, opts.Out, opts.LockTimeout, func(holder string) {
		log.Warn("another build holds the output folder; waiting", "out", opts.Out, "holder", holder)
	})
	if err != nil {
		return nil, err
	}
	defer func() { held.release(err != nil) }()
	removed, err := removeLeftovers(opts.Out)
	for _, r := range removed {
		log.Warn("removed the leftover of an interrupted build", "folder", r)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConflict, err)
	}

	st, err := newStage(opts.Out, opts.Date)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConflict, err)
	}
	defer os.RemoveAll(st.dir) // a no-op once the stage is renamed
	defer st.close()
	m, err := buildInto(ctx, st, opts, log)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w before publishing: %v", ErrInterrupted, err)
	}
	if err := guardRemovals(st, opts, log); err != nil {
		return nil, err
	}
	return publish(st, opts, m, log)
}

// checkDates checks the dates a build is given (they name its folder).
func checkDates(opts BuildOptions) error {
	if err := checkDate("--date", opts.Date); err != nil {
		return err
	}
	if opts.Retrieved != "" {
		return checkDate("--retrieved", opts.Retrieved)
	}
	return nil
}

// buildInto fills the stage: sources, outputs, manifest; then validates it.
//
// It holds what it needs for the stage it is at, no more: an upstream
// file's bytes until they are parsed, the model files until index.json is
// built from them, index.json (as the struct, never its bytes) and the
// stable rows until the pages are rendered, each page until it is written.
// validate.Snapshot then starts from little more than the manifest.
func buildInto(ctx context.Context, st *stage, opts BuildOptions, log *slog.Logger) (*Manifest, error) {
	text, err := sourcetext.LoadLeaderboard()
	if err != nil {
		return nil, err
	}
	gen := ThisGenerator()
	if opts.Generator != nil {
		gen = *opts.Generator
	}
	m := &Manifest{
		Version: ManifestVersion, Date: opts.Date, Generator: gen,
		Selection: Selection{
			ITLDeadlineMS: transform.ITLDeadlineMS, MinSteadyStateSeconds: transform.MinSteadySeconds,
			MinBatchFraction: transform.MinBatchFraction, Tasks: Tasks,
		},
		Exclusions: []Exclusion{},
	}
	names := []string{fetch.LeaderboardIndex, fetch.LeaderboardCommits}
	for _, t := range Tasks {
		names = append(names, fetch.LeaderboardTask(t))
	}
	raw := map[string]*fetch.File{}
	for _, name := range names {
		f, err := archive(ctx, st, opts, name, text, log)
		if err != nil {
			return nil, err
		}
		raw[name] = f.file
		m.Sources = append(m.Sources, f.entry)
		checkpoint(cpSourceArchived)
	}
	// The Ember stage runs beside the leaderboard's: it reads and writes
	// only its own files. Its errors keep their place in the order of the
	// stages, after the leaderboard's parsing and before the model files:
	// an error before it (early) stops it and wins, an error after it
	// (late) loses to its error.
	g := startGrid(ctx, st, opts, log)
	defer g.stop()
	early := func(err error) error { g.stop(); return err }
	late := func(err error) error {
		if _, gerr := g.wait(); gerr != nil {
			return gerr
		}
		return err
	}

	chat := raw[fetch.LeaderboardTask(fetch.TaskChat)]
	m.Retrieved = opts.Retrieved
	if m.Retrieved == "" {
		m.Retrieved = chat.Retrieved.UTC().Format(time.DateOnly)
	}

	lb, excluded, err := transform.NewLeaderboard(transform.LeaderboardFiles{
		Index: raw[fetch.LeaderboardIndex].Data, Commits: raw[fetch.LeaderboardCommits].Data,
		Chat: chat.Data, ChatURL: chat.URL,
	}, opts.Date, m.Retrieved)
	if err != nil {
		return nil, early(fmt.Errorf("%w: %v", ErrUpstreamData, err))
	}
	// The bytes are archived and parsed: let them go.
	raw[fetch.LeaderboardIndex].Data, raw[fetch.LeaderboardCommits].Data, chat.Data = nil, nil, nil
	// The other tasks are filtered too, so their exclusions are on record;
	// each is parsed once, here, for index.json and the pages as well.
	stable := map[string][]transform.Row{}
	for _, t := range Tasks[1:] {
		f := raw[fetch.LeaderboardTask(t)]
		rows, err := transform.ParseTask(t, f.Data)
		if err == nil {
			err = lb.CheckIndexed(rows)
		}
		if err != nil {
			return nil, early(fmt.Errorf("%w: %v", ErrUpstreamData, err))
		}
		f.Data = nil
		rs, ex := transform.Stable(rows)
		stable[t] = rs
		excluded = append(excluded, ex...)
	}
	for _, e := range excluded {
		log.Warn("excluded a row", "row", e.Row.Label(), "reason", e.Reason)
		m.Exclusions = append(m.Exclusions, Exclusion{
			Task: e.Row.Task, Row: e.Row.Index, ModelID: e.Row.ModelID, GPU: e.Row.GPU,
			NumGPUs: e.Row.NumGPUs, MaxNumSeqs: e.Row.MaxNumSeqs, Reason: e.Reason,
		})
	}
	excluded = nil // it points into the task files' parsed rows

	compiled, _, conflict, err := lb.Evidence(text)
	if err != nil {
		return nil, late(err)
	}
	m.Evidence = Evidence{
		IndexLastUpdated: lb.Index.LastUpdated, LastCommitSHA: lb.Commit.SHA,
		LastCommitDate: lb.Commit.Date.Format(time.DateOnly), Compiled: compiled, Conflict: conflict,
	}
	if conflict != "" {
		log.Warn("the compiled-date evidence disagrees", "conflict", conflict)
	}
	if len(m.Retrieved) >= len(time.DateOnly) && compiled > m.Retrieved[:len(time.DateOnly)] {
		return nil, fmt.Errorf("%w: the leaderboard data was compiled on %s, after the retrieval date %s: the retrieval date (--retrieved) cannot be true", ErrUsage, compiled, m.Retrieved[:len(time.DateOnly)])
	}

	problem, ok := stable[transform.TaskProblem]
	if !ok {
		return nil, late(fmt.Errorf("the tasks %q leave out %s, which index.json compares", Tasks, transform.TaskProblem))
	}
	logNewGPUs(log, lb.Chat, problem)
	// Each model file is added to index.json as it is built, here, in
	// order, and marshalled and written on a pool of workers, then let go:
	// only the index's entries stay. An error of the index is reported
	// once every model file is written, as if the index were built after
	// them.
	ib := transform.NewIndexBuilder(lb, problem)
	var indexErr error
	written := 0
	models := newFilePool()
	modelErr := transform.EachModel(lb, func(model *transform.Model) error {
		rel := "models/" + model.Slug + ".json"
		if !models.submit(func() (File, error) { return stageOutput(st, rel, model) }) {
			return errStopped
		}
		written++
		if indexErr == nil {
			indexErr = ib.Add(model)
		}
		return nil
	})
	files, err := models.wait()
	switch {
	case err != nil: // a model file before the one EachModel stopped at
		return nil, late(err)
	case modelErr != nil:
		return nil, late(fmt.Errorf("%w: %v", ErrUpstreamData, modelErr))
	}
	m.Outputs = append(m.Outputs, files...)
	log.Info("built model files", "models", written, "configurations", len(lb.Chat), "excluded", len(m.Exclusions))

	idx, err := ib.Index()
	if err != nil {
		return nil, late(fmt.Errorf("%w: %v", ErrUpstreamData, err))
	}
	// The pages need the stable rows by id, not the model files (they read
	// them back from the stage) nor the rest of the leaderboard.
	rows := map[string]map[string]*transform.Row{}
	for _, t := range idx.Source.Tasks {
		task := lb.Chat
		if t.Task != transform.TaskChat {
			task = stable[t.Task]
		}
		if rows[t.Task], err = transform.RowIDs(t.Task, task); err != nil {
			return nil, late(fmt.Errorf("%w: loading the staged files for the pages: %s: %v", ErrValidation, t.File, err))
		}
	}
	// Let go of what index.json and the pages do not need.
	ib, lb, stable, problem = nil, nil, nil, nil
	// index.json is written beside the pages (neither needs the other;
	// both only read idx). Its error keeps its place: after the grid's,
	// before the pages'.
	indexDone := make(chan stagedIndex, 1)
	go func() {
		f, err := stageIndex(st, idx)
		indexDone <- stagedIndex{f, err}
	}()
	// The pages read grid.json.
	gs, err := g.wait()
	if err != nil {
		<-indexDone
		return nil, err
	}
	if gs != nil {
		m.Sources = append(m.Sources, gs.source)
		m.Outputs = append(m.Outputs, gs.output)
		m.Grid = gs.summary
	}
	pages, err := renderPages(st, opts, idx, rows)
	index := <-indexDone
	switch {
	case index.err != nil:
		return nil, index.err
	case err != nil:
		return nil, err
	}
	m.Outputs = append(m.Outputs, index.file)
	m.Outputs = append(m.Outputs, pages...)
	log.Info("built index.json and pages", "gpu_comparisons", len(idx.GPUComparisons),
		"task_comparisons", len(idx.TaskComparisons), "pages", len(pages))
	idx, rows = nil, nil // validation starts from little more than the manifest

	sort.Slice(m.Sources, func(i, j int) bool { return m.Sources[i].Path < m.Sources[j].Path })
	sort.Slice(m.Outputs, func(i, j int) bool { return m.Outputs[i].Path < m.Outputs[j].Path })
	data, err := transform.Marshal(m)
	if err != nil {
		return nil, err
	}
	checkpoint(cpManifest)
	if _, err := st.write(ManifestName, data); err != nil {
		return nil, err
	}
	if !st.comparing() {
		st.startSync() // beside the checks; publish waits for it
		if err := validateSnapshot(ctx, st.dir); err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w while validating: %w", ErrInterrupted, ctx.Err())
			}
			return nil, fmt.Errorf("%w: %v", ErrValidation, err)
		}
	}
	checkpoint(cpValidated)
	return m, nil
}

// stageOutput writes a published JSON file into the stage (a model file).
func stageOutput(st *stage, rel string, v any) (File, error) {
	data, err := transform.Marshal(v)
	if err != nil {
		return File{}, fmt.Errorf("%w: %s: %v", ErrUpstreamData, rel, err)
	}
	return st.write(rel, data)
}

// errStopped stops EachModel once a model file has failed; the pool has
// the error.
var errStopped = errors.New("stopped: a model file failed")

// stagedIndex is stageIndex's result.
type stagedIndex struct {
	file File
	err  error
}

// stageIndex writes index.json into the stage as it is encoded, so that
// its bytes (tens of megabytes for ten thousand models) are never held.
func stageIndex(st *stage, idx *transform.IndexFile) (File, error) {
	w, err := st.open(transform.IndexName)
	if err != nil {
		return File{}, err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	err = idx.Encode(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		w.abort()
		if errors.Is(err, ErrConflict) { // the disk's, not the data's
			return File{}, err
		}
		return File{}, fmt.Errorf("%w: %s: %v", ErrUpstreamData, transform.IndexName, err)
	}
	return w.commit()
}

// renderPages renders every model's page and writes it into the stage, on
// a pool of workers (each holds one page at a time), as "greentokens
// render" would from the published
// snapshot: from index.json (idx, the struct just written), the model
// files read back from the stage, grid.json, and the stable rows of the
// archived task files (rows, parsed once from the archived bytes).
func renderPages(st *stage, opts BuildOptions, idx *transform.IndexFile, rows map[string]map[string]*transform.Row) ([]File, error) {
	s, err := page.New(st.fsys(), idx, rows)
	if err != nil {
		return nil, fmt.Errorf("%w: loading the staged files for the pages: %v", ErrValidation, err)
	}
	pool := newFilePool()
	for _, e := range idx.Models {
		if !pool.submit(func() (File, error) {
			b, err := page.Render(s, e.Slug, page.Options{Grids: opts.PageGrids})
			if err != nil {
				return File{}, fmt.Errorf("%w: rendering the pages: %v", ErrValidation, err)
			}
			return st.write(page.Path(e.Slug), b)
		}) {
			break
		}
	}
	return pool.wait()
}

type archived struct {
	file  *fetch.File
	entry Source
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
	case errors.Is(err, ErrConflict):
		return err
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%w: %v", ErrInterrupted, err)
	case errors.Is(err, fetch.ErrNotJSON), errors.Is(err, fetch.ErrEmpty), errors.Is(err, fetch.ErrTooLarge):
		return fmt.Errorf("%w: %v", ErrUpstreamData, err)
	case parsing && !errors.As(err, &fe) && !errors.As(err, &pe):
		return fmt.Errorf("%w: %v", ErrUpstreamData, err)
	}
	return fmt.Errorf("%w: %v", ErrUpstream, err)
}

// retrievedAt is what a manifest source entry says of when the file was
// fetched: the fetch time when the source knows it, else the date the
// build was given.
func retrievedAt(opts BuildOptions, name string, fetched time.Time) (string, error) {
	switch {
	case !fetched.IsZero():
		return fetched.UTC().Format(time.RFC3339), nil
	case opts.Retrieved != "":
		return opts.Retrieved, nil
	}
	return "", fmt.Errorf("%w: %s carries no retrieval date; give --retrieved", ErrUsage, name)
}

// archive fetches one upstream file and stores its bytes unchanged under
// sources/.
func archive(ctx context.Context, st *stage, opts BuildOptions, name string, text *sourcetext.Leaderboard, log *slog.Logger) (*archived, error) {
	f, err := fetch.ReadAll(ctx, opts.Source, name)
	if err != nil {
		return nil, fetchFailure(err, false)
	}
	retrieved, err := retrievedAt(opts, name, f.Retrieved)
	if err != nil {
		return nil, err
	}
	file, err := st.write("sources/"+name, f.Data)
	if err != nil {
		return nil, err
	}
	log.Info("archived", "source", name, "url", f.URL, "bytes", file.Size, "sha256", file.SHA256)
	return &archived{file: f, entry: Source{
		File: file, Name: name, URL: f.URL, FinalURL: f.FinalURL, Retrieved: retrieved,
		Producer: text.Producer, Licence: text.Licence,
	}}, nil
}

// publish moves a validated stage to OUT/DATE, unless an identical snapshot
// is there already; a different one is replaced only when asked.
func publish(st *stage, opts BuildOptions, m *Manifest, log *slog.Logger) (*Result, error) {
	target := filepath.Join(opts.Out, opts.Date)
	res := &Result{Dir: target, Manifest: m}
	if _, err := os.Stat(target); err == nil {
		same, diff, err := sameTree(target, st.dir)
		if err != nil {
			return nil, fmt.Errorf("%w: comparing with %s: %v", ErrConflict, target, err)
		}
		if same {
			log.Info("an identical snapshot is already there; nothing written", "dir", target)
			res.Unchanged = true
			return res, nil
		}
		if !opts.Replace {
			return nil, fmt.Errorf("%w: %s exists with other content (%s); pass --replace to replace it", ErrConflict, target, diff)
		}
		// Swap the two folders in one step: at every instant OUT/DATE is a
		// whole snapshot. The old one is left in the stage and removed.
		if err := st.sync(); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConflict, err)
		}
		checkpoint(cpRename)
		if err := unix.Renameat2(unix.AT_FDCWD, st.dir, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE); err != nil {
			return nil, fmt.Errorf("%w: replacing %s: %v", ErrConflict, target, err)
		}
		os.RemoveAll(st.dir)
		log.Warn("replaced a different snapshot", "dir", target, "difference", diff)
		res.Replaced = true
	} else {
		// Every byte of the stage is on disk before it becomes OUT/DATE.
		if err := st.sync(); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrConflict, err)
		}
		checkpoint(cpRename)
		// NOREPLACE: the kernel refuses if OUT/DATE appeared meanwhile
		// (even as an empty folder, which a plain rename would replace).
		if err := unix.Renameat2(unix.AT_FDCWD, st.dir, unix.AT_FDCWD, target, unix.RENAME_NOREPLACE); err != nil {
			return nil, fmt.Errorf("%w: publishing %s: %v", ErrConflict, target, err)
		}
	}
	checkpoint(cpRenamed)
	if err := syncDir(opts.Out); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConflict, err)
	}
	log.Info("wrote the snapshot", "dir", target, "outputs", len(m.Outputs), "sources", len(m.Sources))
	return res, nil
}

// validateSnapshot checks a staged snapshot; tests wrap it to tamper
// first.
var validateSnapshot = validate.SnapshotContext
