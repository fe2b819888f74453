package build

// Steps 1 to 4 for Ember's CSV: fetched as a stream, archived as it is
// parsed, derived into grid.json's areas, and grid.json written.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/transform/grid"
)

// emberName is the name Ember's CSV is archived under, sources/NAME, the
// published bytes: one fixed name per layout, whatever the URL.
func emberName(l grid.Layout) string {
	if l == grid.LayoutLong {
		return fetch.EmberYearly
	}
	return fetch.EmberGlobal
}

// emberOut is what the Ember steps wrote.
type emberOut struct {
	source  format.SourceFile // the archived CSV
	output  format.File       // grid.json
	summary *format.GridSummary
}

// emberSteps fetches Ember's CSV as a stream, archives it as it parses it
// (it is never held whole), derives grid.json's areas and writes it. It
// touches nothing of the build but its own files.
func emberSteps(ctx context.Context, sink Sink, opts Options, log *slog.Logger) (*emberOut, error) {
	body, err := opts.Source.Open(ctx, fetch.EmberGlobal)
	if err != nil {
		return nil, fetchFailure(err, false)
	}
	defer body.Close()
	retrieved, err := retrievedAt(opts, fetch.EmberGlobal, body.Retrieved)
	if err != nil {
		return nil, err
	}
	// The header tells the layout, and so the archive's name, before a
	// byte is archived.
	rd, err := grid.NewReader(body)
	if err != nil {
		return nil, fetchFailure(fmt.Errorf("%s: %w", body.Where(), err), true)
	}
	name := emberName(rd.Layout())
	url := body.URL
	if body.Local != "" {
		url = fetch.EmberOrigin(url, name)
	}
	table, file, err := archiveEmber(sink, body, rd, format.SourcePath(name))
	if err != nil {
		return nil, err
	}
	text, err := sourcetext.Load()
	if err != nil {
		return nil, err
	}
	res := &emberOut{source: format.SourceFile{
		File: file, Name: name, URL: url, FinalURL: body.FinalURL, Retrieved: retrieved,
		Producer: text.Ember.Producer, Licence: text.Ember.Licence,
	}}
	// A long-layout build writes the manifest it always wrote.
	if rd.Layout() != grid.LayoutLong {
		res.source.Layout, res.source.Header = string(rd.Layout()), rd.Header()
	}
	log.Info("archived", "source", name, "url", url, "layout", rd.Layout(), "bytes", file.Size,
		"sha256", file.SHA256, "intensity_rows", table.Len())

	g, summary, err := grid.Build(table, opts.GridYear, grid.SourceMeta{
		URL: url, Retrieved: retrieved[:len(time.DateOnly)], Release: opts.EmberRelease, DataVersion: opts.Date,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", failure.ErrUpstreamData, err)
	}
	for _, x := range summary.Exclusions {
		log.Warn("excluded", "source", name, "area", x.Area, "year", x.Year, "line", x.Line, "value", x.Value, "reason", x.Reason)
	}
	data, err := format.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("%w: grid: %w", failure.ErrUpstreamData, err)
	}
	if res.output, err = sink.WriteFile(format.GridPath, data); err != nil {
		return nil, err
	}
	log.Info("built grid.json", "year", summary.Year, "pinned", summary.YearPinned, "areas", summary.Areas,
		"fallbacks", summary.Fallbacks, "areas_without_year", summary.AreasWithoutYear, "excluded", len(summary.Exclusions))
	res.summary = &summary
	return res, nil
}

// archiveEmber streams the CSV into its archive while parsing it. The
// archive is hashed as it is written, and nowhere else: its size and
// sha256 are those of the bytes that went to the file, the size checked
// against what the reader read.
func archiveEmber(sink Sink, body *fetch.Body, rd *grid.Reader, archive string) (*grid.Table, format.File, error) {
	var table *grid.Table
	var size int64
	file, err := sink.WriteStream(archive, func(w io.Writer) error {
		var err error
		if table, size, err = rd.Stream(w); err != nil {
			return fetchFailure(fmt.Errorf("%s: %w", body.Where(), err), true)
		}
		return nil
	})
	if err != nil {
		return nil, format.File{}, err
	}
	if file.Size != size {
		return nil, format.File{}, fmt.Errorf("%w: %s written (%d bytes) is not what was read (%d bytes)",
			failure.ErrConflict, archive, file.Size, size)
	}
	return table, file, nil
}

// AreaYears is an area of Ember's CSV and the years it has an intensity
// value for, ascending.
type AreaYears struct {
	Area, ISO3 string
	Years      []int
}

// EmberYears reads the archived Ember CSV of rel, checked against its
// manifest, with the build's own parser, and returns each of its areas
// with the years it has a value for, in the CSV's order of areas; nil when
// rel archives no Ember CSV. The command's grid hint says with it which
// years an area missing from grid.json has.
func EmberYears(rel *store.Release) ([]AreaYears, error) {
	src := rel.Source(fetch.EmberGlobal)
	if src == nil {
		src = rel.Source(fetch.EmberYearly)
	}
	if src == nil {
		return nil, nil
	}
	var t *grid.Table
	err := rel.Reader().StreamListed(src.Path, func(r io.Reader) error {
		var err error
		t, err = grid.Parse(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []AreaYears
	at := map[[2]string]int{}
	for v := range t.All() {
		k := [2]string{v.Area, v.ISO3}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, AreaYears{Area: v.Area, ISO3: v.ISO3})
		}
		out[i].Years = append(out[i].Years, v.Year)
	}
	for i := range out {
		slices.Sort(out[i].Years)
		out[i].Years = slices.Compact(out[i].Years)
	}
	return out, nil
}
