// Package chart draws a page's figures (render.Figure) as inline SVG inside an
// HTML <figure>: line charts with linear or logarithmic axes, one line per
// series, the index row ringed and points past the latency deadline
// hollow; and horizontal bar charts. The markup comes from html/template,
// so every label is escaped; coordinates are printed to 1 decimal, and the
// same figure always gives the same bytes. Colours come from the site's
// CSS classes (s0, s1, ...), so the charts follow its light and dark schemes.
package chart

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/render"
)

//go:embed chart.tmpl
var tmplText string

var tmpl = template.Must(template.New("chart").Parse(tmplText))

// Size of a line chart's drawing, in SVG user units.
const (
	lineW, lineH                    = 560, 340
	marginL, marginR, marginT, marB = 84, 20, 16, 64
	barRow, barT, barB, barW        = 44, 16, 50, 560
)

type tick struct {
	Pos   string
	Label string
}

type point struct {
	CX, CY, X, Y, Label, Class string
	Index, Over                bool
}

type series struct {
	Class, Name    string
	Solid, Dashed  string // path data
	Points         []point
	HasIndex, Over bool
}

type bar struct {
	Label, Text, Value string
	LabelY, Y, W, TX   string
	// RefY1, RefY2 bound the reference line's segment in the bar's row:
	// from under its label's descenders to the next label's top, so that
	// the line never crosses a label.
	RefY1, RefY2 string
}

type view struct {
	ID, Kind, Title, Alt, Note string
	XLabel, YLabel             string
	W, H                       int
	L, R, T, B                 string
	XTickY, YTickX             string
	XTicks, YTicks             []tick
	XLabelX, XLabelY           string
	YLabelX, YLabelY           string
	Series                     []series
	Bars                       []bar
	BarH                       string
	RefX, RefLabel             string
}

// HTML draws f: a line chart when it has series, a bar chart when it has
// bars. The result is a <figure> with the title as its caption, the SVG
// (role img, its <title> and <desc> the title and the text alternative),
// a legend and the figure's note.
func HTML(f *render.Figure) (template.HTML, error) {
	var v *view
	var err error
	switch {
	case len(f.Series) > 0:
		v, err = lineView(f)
	case len(f.Bars) > 0:
		v, err = barView(f)
	default:
		return "", fmt.Errorf("chart %s: no series and no bars", f.ID)
	}
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return "", fmt.Errorf("chart %s: %w", f.ID, err)
	}
	return template.HTML(b.String()), nil
}

func base(f *render.Figure, kind string) *view {
	return &view{ID: f.ID, Kind: kind, Title: f.Title, Alt: f.Alt, Note: f.Note, XLabel: f.XLabel, YLabel: f.YLabel}
}

func lineView(f *render.Figure) (*view, error) { return lineViewOn(f, nil) }

// xAxis fits a line chart's x axis to the values min..max between the
// pixels a and b, with each tick's label.
type xAxis func(min, max, a, b float64) (scale, []string)

// lineViewOn is lineView with the x axis x fits (nil: newScale's).
func lineViewOn(f *render.Figure, x xAxis) (*view, error) {
	v := base(f, "line")
	v.W, v.H = lineW, lineH
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range f.Series {
		for _, p := range s.Points {
			if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) ||
				(f.LogX && p.X <= 0) || (f.LogY && p.Y <= 0) {
				return nil, fmt.Errorf("chart %s: %s: the point (%v, %v) cannot be drawn on its axes", f.ID, s.Name, p.X, p.Y)
			}
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
		}
	}
	if math.IsInf(minX, 1) {
		return nil, fmt.Errorf("chart %s: no points", f.ID)
	}
	l, r, t, b := float64(marginL), float64(lineW-marginR), float64(marginT), float64(lineH-marB)
	xs := newScale(minX, maxX, l, r, f.LogX)
	var xlabels []string
	if x != nil {
		xs, xlabels = x(minX, maxX, l, r)
	}
	ys := newScale(minY, maxY, b, t, f.LogY)
	v.L, v.R, v.T, v.B = px(l), px(r), px(t), px(b)
	v.XTickY, v.YTickX = px(b+18), px(l-6)
	for i, x := range xs.ticks {
		label := tickLabel(x)
		if xlabels != nil {
			label = xlabels[i]
		}
		v.XTicks = append(v.XTicks, tick{px(xs.at(x)), label})
	}
	for _, y := range ys.ticks {
		v.YTicks = append(v.YTicks, tick{px(ys.at(y)), tickLabel(y)})
	}
	v.XLabelX, v.XLabelY = px((l+r)/2), px(lineH-12)
	v.YLabelX, v.YLabelY = px(16), px((t+b)/2)
	for i, s := range f.Series {
		sv := series{Class: "s" + strconv.Itoa(i%6), Name: s.Name}
		var solid, dashed strings.Builder
		for j, p := range s.Points {
			cx, cy := xs.at(p.X), ys.at(p.Y)
			class := "pt"
			if p.Index {
				class += " index"
				sv.HasIndex = true
			}
			if p.Over {
				class += " over"
				sv.Over = true
			}
			sv.Points = append(sv.Points, point{CX: px(cx), CY: px(cy), X: num(p.X), Y: num(p.Y), Label: p.Label, Class: class, Index: p.Index, Over: p.Over})
			if j == 0 {
				continue
			}
			q := s.Points[j-1]
			seg := &solid
			if p.Over || q.Over {
				seg = &dashed
			}
			fmt.Fprintf(seg, "M%s %sL%s %s", px(xs.at(q.X)), px(ys.at(q.Y)), px(cx), px(cy))
		}
		sv.Solid, sv.Dashed = solid.String(), dashed.String()
		v.Series = append(v.Series, sv)
	}
	return v, nil
}

func barView(f *render.Figure) (*view, error) {
	v := base(f, "bar")
	v.W = barW
	v.H = barT + len(f.Bars)*barRow + barB
	max := f.Ref
	for _, b := range f.Bars {
		if math.IsNaN(b.Value) || math.IsInf(b.Value, 0) {
			return nil, fmt.Errorf("chart %s: %s: the value %v cannot be drawn", f.ID, b.Label, b.Value)
		}
		max = math.Max(max, b.Value)
	}
	l, r := 8.0, float64(barW-marginR)
	// Room for the value printed past the longest bar.
	xs := newScale(0, max*1.12, l, r, false)
	t, bottom := float64(barT), float64(barT+len(f.Bars)*barRow)
	v.L, v.R, v.T, v.B = px(l), px(r), px(t), px(bottom)
	v.XTickY = px(bottom + 18)
	for _, x := range xs.ticks {
		v.XTicks = append(v.XTicks, tick{px(xs.at(x)), tickLabel(x)})
	}
	v.XLabelX, v.XLabelY = px((l+r)/2), px(float64(v.H)-10)
	v.BarH = "14"
	for i, b := range f.Bars {
		y := t + float64(i*barRow)
		w := math.Max(xs.at(b.Value)-xs.at(0), 0)
		v.Bars = append(v.Bars, bar{Label: b.Label, Text: b.Text, Value: num(b.Value),
			LabelY: px(y + 17), Y: px(y + 24), W: px(w), TX: px(l + w + 5),
			RefY1: px(y + 22), RefY2: px(y + barRow)})
	}
	if f.Ref != 0 {
		v.RefX, v.RefLabel = px(xs.at(f.Ref)), f.RefLabel
	}
	return v, nil
}

// num prints a value in its shortest round-trip form, for data attributes.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
