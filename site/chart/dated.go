package chart

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"time"

	"github.com/leadgreen/greentokens/render"
)

// Dated is a line chart over dates: one line per series, each point at a
// date (YYYY-MM-DD) on the x axis, whose ticks are dates; a marked point is
// ringed. The history of a model's index rows across releases is one, at
// the upstream data's compiled dates, each release that changed a figure
// marked.
type Dated struct {
	ID, Title, XLabel, YLabel string
	Series                    []DatedSeries
	// Alt is the text alternative; Note says how to read the marks.
	Alt, Note string
}

// DatedSeries is one line of a Dated chart.
type DatedSeries struct {
	Name   string
	Points []DatedPoint
}

// DatedPoint is one point of a Dated chart.
type DatedPoint struct {
	Date  string
	Y     float64
	Label string
	// Marked rings the point.
	Marked bool
}

// maxDateTicks bounds the dates an axis labels: a date takes some 70 of
// the chart's 456 units of axis, and more at 390 px, where the site keeps
// chart text at 12 px or more; three stand clear of each other.
const maxDateTicks = 3

// DatedHTML draws d: a line chart as HTML draws one,
// with dates on its x axis.
func DatedHTML(d *Dated) (template.HTML, error) {
	f := &render.Figure{ID: d.ID, Title: d.Title, XLabel: d.XLabel, YLabel: d.YLabel, Alt: d.Alt, Note: d.Note}
	var dates []float64
	for _, s := range d.Series {
		rs := render.Series{Name: s.Name}
		for _, p := range s.Points {
			day, err := time.Parse(time.DateOnly, p.Date)
			if err != nil {
				return "", fmt.Errorf("chart %s: %s: the date %q: %w", d.ID, s.Name, p.Date, err)
			}
			x := float64(day.Unix() / 86400)
			rs.Points = append(rs.Points, render.Point{X: x, Y: p.Y, Label: p.Label, Index: p.Marked})
			dates = append(dates, x)
		}
		f.Series = append(f.Series, rs)
	}
	slices.Sort(dates)
	dates = slices.Compact(dates)
	v, err := lineViewOn(f, func(min, max, a, b float64) (scale, []string) {
		// A week and a little either side, so that the first and last
		// points, and the dates under them, stand clear of the ends.
		pad := 7 + (max-min)*0.06
		s := scale{lo: min - pad, hi: max + pad, a: a, b: b}
		ticks := dates
		if n := len(dates); n > maxDateTicks {
			ticks = nil
			for i := range maxDateTicks {
				ticks = append(ticks, dates[i*(n-1)/(maxDateTicks-1)])
			}
		}
		s.ticks = ticks
		labels := make([]string, len(ticks))
		for i, t := range ticks {
			labels[i] = time.Unix(int64(t)*86400, 0).UTC().Format(time.DateOnly)
		}
		return s, labels
	})
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return "", fmt.Errorf("chart %s: %w", d.ID, err)
	}
	return template.HTML(b.String()), nil
}
