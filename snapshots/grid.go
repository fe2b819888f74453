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

// buildGrid streams Ember's CSV into the stage's archive while parsing it,
// and writes grid.json. The CSV is never held whole in memory.
func buildGrid(ctx context.Context, st *stage, opts BuildOptions, m *Manifest, log *slog.Logger) (*GridSummary, error) {
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
		return nil, fetchFailure(fmt.Errorf("%s: %w", body.URL, err), true)
	}
	file, err := f.commit()
	if err != nil {
		return nil, err
	}
	if file.Size != size {
		return nil, fmt.Errorf("%w: %s written (%d bytes) is not what was read (%d bytes)",
			ErrConflict, emberArchive, file.Size, size)
	}
	m.Sources = append(m.Sources, Source{
		File: file, Name: fetch.EmberYearly, URL: body.URL, Retrieved: retrieved,
		Producer: emberProducer, Licence: emberLicence,
	})
	log.Info("archived", "source", fetch.EmberYearly, "url", body.URL, "bytes", file.Size,
		"sha256", file.SHA256, "intensity_rows", len(table.Values))

	g, summary, err := grid.Build(table, opts.GridYear, grid.SourceMeta{
		URL: body.URL, Retrieved: retrieved[:len(time.DateOnly)], Release: opts.EmberRelease, DataVersion: opts.Date,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpstreamData, err)
	}
	data, err := grid.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpstreamData, err)
	}
	out, err := st.write(grid.FileName, data)
	if err != nil {
		return nil, err
	}
	m.Outputs = append(m.Outputs, out)
	log.Info("built grid.json", "year", summary.Year, "areas", summary.Areas, "areas_without_year", summary.AreasWithoutYear)
	return &GridSummary{Year: summary.Year, Areas: summary.Areas, AreasWithoutYear: summary.AreasWithoutYear}, nil
}
