package snapshots

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/transform/grid"
)

// Ember's source facts for the manifest.
const (
	emberProducer = "Ember"
	emberLicence  = "CC BY 4.0"
	// emberArchive is where the CSV is archived: the published bytes.
	emberArchive = "sources/" + fetch.EmberYearly
)

// gridStage is what the Ember stage adds to the manifest.
type gridStage struct {
	source  Source // the archived CSV
	output  File   // grid.json
	summary *GridSummary
}

// gridRun is the Ember stage running on its own goroutine.
type gridRun struct {
	cancel context.CancelFunc
	done   chan struct{}
	res    *gridStage
	err    error
}

// startGrid starts the Ember stage, unless opts leave it out (then wait
// returns nil, nil).
func startGrid(ctx context.Context, st *stage, opts BuildOptions, log *slog.Logger) *gridRun {
	ctx, cancel := context.WithCancel(ctx)
	g := &gridRun{cancel: cancel, done: make(chan struct{})}
	if opts.NoGrid {
		close(g.done)
		return g
	}
	go func() {
		defer close(g.done)
		g.res, g.err = buildGrid(ctx, st, opts, log)
	}()
	return g
}

// wait waits for the stage to end and returns what it did.
func (g *gridRun) wait() (*gridStage, error) {
	<-g.done
	return g.res, g.err
}

// stop cancels the stage and waits for it to end (it writes into the stage
// folder, which the caller is about to remove).
func (g *gridRun) stop() {
	g.cancel()
	<-g.done
}

// buildGrid streams Ember's CSV into the stage's archive while parsing it,
// and writes grid.json. The CSV is never held whole in memory. It touches
// nothing of the build but its own files, so it runs beside the leaderboard
// stages.
func buildGrid(ctx context.Context, st *stage, opts BuildOptions, log *slog.Logger) (*gridStage, error) {
	body, err := opts.Source.Open(ctx, fetch.EmberYearly)
	if err != nil {
		return nil, fetchFailure(err, false)
	}
	defer body.Close()
	retrieved, err := retrievedAt(opts, fetch.EmberYearly, body.Retrieved)
	if err != nil {
		return nil, err
	}
	// The archive is hashed as it is written, and nowhere else: its size
	// and sha256 are those of the bytes that went to the file, the size
	// checked against what Stream read.
	f, err := st.open(emberArchive)
	if err != nil {
		return nil, err
	}
	table, size, err := grid.Stream(body, f)
	if err != nil {
		f.abort()
		return nil, fetchFailure(fmt.Errorf("%s: %w", body.Where(), err), true)
	}
	file, err := f.commit()
	if err != nil {
		return nil, err
	}
	if file.Size != size {
		return nil, fmt.Errorf("%w: %s written (%d bytes) is not what was read (%d bytes)",
			ErrConflict, emberArchive, file.Size, size)
	}
	res := &gridStage{source: Source{
		File: file, Name: fetch.EmberYearly, URL: body.URL, FinalURL: body.FinalURL, Retrieved: retrieved,
		Producer: emberProducer, Licence: emberLicence,
	}}
	log.Info("archived", "source", fetch.EmberYearly, "url", body.URL, "bytes", file.Size,
		"sha256", file.SHA256, "intensity_rows", table.Len())

	g, summary, err := grid.Build(table, opts.GridYear, grid.SourceMeta{
		URL: body.URL, Retrieved: retrieved[:len(time.DateOnly)], Release: opts.EmberRelease, DataVersion: opts.Date,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpstreamData, err)
	}
	for _, x := range summary.Exclusions {
		log.Warn("excluded", "source", fetch.EmberYearly, "area", x.Area, "year", x.Year, "line", x.Line, "value", x.Value, "reason", x.Reason)
	}
	data, err := grid.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpstreamData, err)
	}
	if res.output, err = st.write(grid.FileName, data); err != nil {
		return nil, err
	}
	log.Info("built grid.json", "year", summary.Year, "pinned", summary.YearPinned, "areas", summary.Areas,
		"fallbacks", summary.Fallbacks, "areas_without_year", summary.AreasWithoutYear, "excluded", len(summary.Exclusions))
	gs := GridSummary(summary)
	res.summary = &gs
	return res, nil
}
