package site

import (
	"context"
	"fmt"
	"html/template"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/site/chart"
)

// feedName is the site's Atom feed of the releases.
const feedName = "feed.atom"

// feed is the site's feed.atom: the releases of Options.History up to
// the snapshot's date, or the snapshot alone; each entry links to the
// release's site under Options.BaseURL when there is one.
func (s *Site) feed() ([]byte, error) {
	opts := history.FeedOptions{}
	if base := s.opts.BaseURL; base != "" {
		opts.Self = base + feedName
		if s.opts.History == nil {
			opts.Link = func(string) string { return base }
		}
	}
	if s.opts.History == nil {
		return history.Feed(context.Background(), []*catalog.Snapshot{s.snap}, opts)
	}
	return s.opts.History.Feed(context.Background(), s.snap.Date, opts)
}

// historyBlocks are a model page's section on the model's index rows in
// task across the releases of Options.History up to the snapshot's date:
// a chart of each GPU's energy per the task's unit at the upstream
// compiled dates, each release that changed a figure ringed, and a table
// of those releases with why. None without Options.History, and none for
// a model of Problem Solving that the model files do not publish (its
// history follows index.json's task comparisons, of the model files'
// models).
func (s *Site) historyBlocks(task format.Task, slug string, closeOpen bool) ([]htmlBlock, error) {
	if s.opts.History == nil || task.InIndex && s.snap.Published[slug] == nil {
		return nil, nil
	}
	h, err := s.opts.History.History(context.Background(), history.Request{Model: slug, Task: task.ID}, s.snap.Date)
	if err != nil {
		return nil, err
	}
	unit := task.UnitShort()
	d := &chart.Dated{ID: "history", Title: fmt.Sprintf("%s: each GPU's index row across %d releases", h.Name, len(h.Releases)),
		XLabel: "upstream data compiled (date)", YLabel: task.Unit,
		Note: "ringed: a release that changed the figure (the table below says why)"}
	t := &render.Table{Caption: "The releases that changed an index row, and why",
		Head: []string{"release", "compiled", "GPU", unit, "change", "why"}}
	var alt []string
	for _, s := range h.Series {
		ds := chart.DatedSeries{Name: s.GPU}
		for _, p := range s.Points {
			var why []string
			for _, r := range p.Why {
				why = append(why, r.Kind+": "+r.Detail)
			}
			change := ""
			if p.Change != nil {
				change = *p.Change
				if p.RelativeChangePercent != nil {
					change += fmt.Sprintf(" (%s%%)", fnum(float64(*p.RelativeChangePercent)))
				}
			}
			wh := "none"
			if e := p.Wh(); e != nil {
				wh = fnum(float64(*e))
				label := fmt.Sprintf("release %s, compiled %s: %s %s, %s", p.Release, p.Compiled, wh, unit, *p.RowID)
				if change != "" {
					label += "; " + change + ": " + strings.Join(why, "; ")
				}
				ds.Points = append(ds.Points, chart.DatedPoint{Date: p.Compiled, Y: float64(*e), Label: label, Marked: p.Change != nil})
			}
			if p.Change != nil {
				t.Rows = append(t.Rows, render.TableRow{Cells: []string{p.Release, p.Compiled, s.GPU, wh, change, strings.Join(why, "; ")}})
			}
		}
		if n := len(ds.Points); n > 0 {
			alt = append(alt, fmt.Sprintf("%s from %s to %s %s", s.GPU, fnum(ds.Points[0].Y), fnum(ds.Points[n-1].Y), unit))
		}
		d.Series = append(d.Series, ds)
	}
	blocks := []htmlBlock{{Kind: "h2", ID: "history", Text: "Across releases", Close: closeOpen},
		{Kind: "p", Segs: segs(fmt.Sprintf("Each GPU's index row in the %d releases up to %s, at the date the upstream data was compiled; a release that changed a figure is ringed and listed below with why, from the two releases' manifests and their diff.", len(h.Releases), s.snap.Date))}}
	if len(d.Series) > 0 {
		d.Alt = "Index-row energy across releases: " + strings.Join(alt, "; ") + "."
		fig, err := chart.DatedHTML(d)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, htmlBlock{Kind: "figs", Figs: []template.HTML{fig}})
	}
	if len(t.Rows) == 0 {
		blocks = append(blocks, htmlBlock{Kind: "p", Segs: segs("No release changed an index row.")})
	} else {
		blocks = append(blocks, htmlBlock{Kind: "table", Table: t})
	}
	return blocks, nil
}

// fnum prints x as the published files print a float.
func fnum(x float64) string {
	s, _ := format.FormatFloat(x)
	return s
}
