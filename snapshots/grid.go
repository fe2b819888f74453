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
	// The archive is hashed as it is written: its size and sha256 are
	// those of the bytes that went to the file, checked against those
	// Ingest read.
	f, err := st.open(emberArchive)
	if err != nil {
		return nil, err
	}
	table, published, err := grid.Ingest(body, f)
	if err != nil {
		f.abort()
		return nil, fetchFailure(fmt.Errorf("%s: %w", body.Where(), err), true)
	}
	file, err := f.commit()
	if err != nil {
		return nil, err
	}
	if file.Size != published.Size || file.SHA256 != published.SHA256 {
		return nil, fmt.Errorf("%w: %s written (%d bytes, sha256 %s) is not what was read (%d bytes, sha256 %s)",
			ErrConflict, emberArchive, file.Size, file.SHA256, published.Size, published.SHA256)
	}
	m.Sources = append(m.Sources, Source{
		File: file, Name: fetch.EmberYearly, URL: body.URL, FinalURL: body.FinalURL, Retrieved: retrieved,
		Producer: emberProducer, Licence: emberLicence,
	})
	log.Info("archived", "source", fetch.EmberYearly, "url", body.URL, "bytes", published.Size,
		"sha256", published.SHA256, "intensity_rows", len(table.Values))

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
	out, err := st.write(grid.FileName, data)
	if err != nil {
		return nil, err
	}
	m.Outputs = append(m.Outputs, out)
	log.Info("built grid.json", "year", summary.Year, "pinned", summary.YearPinned, "areas", summary.Areas,
		"fallbacks", summary.Fallbacks, "areas_without_year", summary.AreasWithoutYear, "excluded", len(summary.Exclusions))
	gs := GridSummary(summary)
	return &gs, nil
}
