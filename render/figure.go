package render

import (
	"fmt"
	"strconv"
	"strings"
)

// Figure is a chart of figures the page's tables also hold. The Markdown
// leaves figures out; the site draws them as SVG. Values are unrounded (the
// archived rows'); the labels carry them as the page prints them.
type Figure struct {
	// ID names the chart: energy, throughput, power or carbon.
	ID    string
	Title string
	// XLabel and YLabel name each axis with its unit; LogX and LogY ask
	// for logarithmic axes.
	XLabel, YLabel string
	LogX, LogY     bool
	// Series are the lines of a line chart, one per GPU and GPU count.
	Series []Series
	// Bars are the bars of a bar chart.
	Bars []Bar
	// Alt is the text alternative: what the chart shows, in words.
	Alt string
	// Note says how to read the marks ("ringed: the index row").
	Note string
	// Ref, when not 0, is a value a bar chart marks with a line (1 for a
	// ratio), named RefLabel.
	Ref      float64
	RefLabel string
}

// Series is one line of a chart.
type Series struct {
	Name   string
	Points []Point
}

// Point is one configuration on a line chart.
type Point struct {
	X, Y float64
	// Label describes the point as the table row does.
	Label string
	// Index marks the index row; Over a median ITL over the deadline.
	Index, Over bool
}

// Bar is one bar of a bar chart.
type Bar struct {
	Label string
	Value float64
	// Text is the value as printed.
	Text string
}

// configID names the section of one GPU and count: "b200-1".
func configID(n int, gpu string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, gpu)) + "-" + strconv.Itoa(n)
}

// group is one GPU and GPU count's configurations, in order.
type configGroup struct {
	name string
	rows []int // positions in v.m.Configurations
}

func (v *view) groups() []configGroup {
	var gs []configGroup
	for i, c := range v.m.Configurations {
		if i == 0 || c.GPU != v.m.Configurations[i-1].GPU || c.NumGPUs != v.m.Configurations[i-1].NumGPUs {
			gs = append(gs, configGroup{name: on(c.NumGPUs, c.GPU)})
		}
		gs[len(gs)-1].rows = append(gs[len(gs)-1].rows, i)
	}
	return gs
}

func (v *view) isIndexRow(id string) bool {
	for _, b := range v.best {
		if b.c.RowID == id {
			return true
		}
	}
	return false
}

// pointLabel describes a configuration as its table row does.
func (v *view) pointLabel(i int) string {
	if v.labels == nil {
		v.labels = make([]string, len(v.m.Configurations))
	}
	if v.labels[i] == "" {
		v.labels[i] = v.makePointLabel(i)
	}
	return v.labels[i]
}

func (v *view) makePointLabel(i int) string {
	c, r := v.m.Configurations[i], v.rows[i]
	s := fmt.Sprintf("%s, cap %d", on(c.NumGPUs, c.GPU), c.MaxNumSeqs)
	if c.Repeat > 1 {
		s += fmt.Sprintf(" (repeat %d)", c.Repeat)
	}
	s += fmt.Sprintf(": running batch %s, %s Wh/M, median ITL %s ms, %s tokens/s, %s W", batch(r), wh(r), itl(r), tps(r), group(strconv.FormatInt(c.GPUPowerWatts, 10)))
	if v.isIndexRow(c.RowID) {
		s += ", index row"
	}
	if !c.UnderITLDeadline {
		s += fmt.Sprintf(", median ITL over %d ms", v.m.ITLDeadlineMS)
	}
	return s
}

// lineFigure draws one figure of every configuration against running
// batch; y gives a row's value.
func (v *view) lineFigure(y func(i int) float64) *Figure {
	f := &Figure{XLabel: "Running batch (requests decoded at once)", LogX: true}
	for _, g := range v.groups() {
		s := Series{Name: g.name}
		for _, i := range g.rows {
			c := v.m.Configurations[i]
			s.Points = append(s.Points, Point{X: v.rows[i].AvgBatch, Y: y(i), Label: v.pointLabel(i),
				Index: v.isIndexRow(c.RowID), Over: !c.UnderITLDeadline})
		}
		f.Series = append(f.Series, s)
	}
	over := 0
	for _, c := range v.m.Configurations {
		if !c.UnderITLDeadline {
			over++
		}
	}
	f.Note = "Ringed: the index row of each GPU."
	if over > 0 {
		f.Note += fmt.Sprintf(" Hollow, on a dashed line: a median inter-token latency over %d ms (%d %s).",
			v.m.ITLDeadlineMS, over, plural(over, "configuration", "configurations"))
	}
	return f
}

// energyFigure is energy per token against running batch, log scales.
func (v *view) energyFigure() *Figure {
	f := v.lineFigure(func(i int) float64 { return v.rows[i].WhPerMillion() })
	f.ID, f.Title, f.YLabel, f.LogY = "energy", "Energy per token against running batch", "Energy per token (Wh/M)", true
	var parts []string
	for _, g := range v.groups() {
		first, last := v.rows[g.rows[0]], v.rows[g.rows[len(g.rows)-1]]
		s := fmt.Sprintf("on %s, %d %s from %s Wh/M at a running batch of %s to %s Wh/M at %s",
			g.name, len(g.rows), plural(len(g.rows), "configuration", "configurations"), wh(first), batch(first), wh(last), batch(last))
		for _, i := range g.rows {
			if v.isIndexRow(v.m.Configurations[i].RowID) {
				s += fmt.Sprintf(", index row %s Wh/M at %s", wh(v.rows[i]), batch(v.rows[i]))
			}
		}
		parts = append(parts, s)
	}
	f.Alt = fmt.Sprintf("Line chart of %s, logarithmic scales: %s. %s", v.m.Name, strings.Join(parts, "; "), f.Note)
	return f
}

// loadFigure is throughput ("throughput") or GPU power ("power") against
// running batch: the reason energy per token falls.
func (v *view) loadFigure(kind string) *Figure {
	if kind == "power" {
		f := v.lineFigure(func(i int) float64 { return v.rows[i].Power })
		f.ID, f.Title, f.YLabel = "power", "GPU power against running batch", "GPU power, all cards (W)"
		f.Alt = v.rangeAlt(f, "GPU power", func(i int) string { return watts(v.rows[i]) + " W" })
		return f
	}
	f := v.lineFigure(func(i int) float64 { return v.rows[i].Throughput })
	f.ID, f.Title, f.YLabel = "throughput", "Throughput against running batch", "Throughput (tokens/s)"
	f.Alt = v.rangeAlt(f, "Throughput", func(i int) string { return tps(v.rows[i]) + " tokens a second" })
	return f
}

func (v *view) rangeAlt(f *Figure, what string, val func(i int) string) string {
	var parts []string
	for _, g := range v.groups() {
		first, last := g.rows[0], g.rows[len(g.rows)-1]
		parts = append(parts, fmt.Sprintf("on %s from %s at a running batch of %s to %s at %s",
			g.name, val(first), batch(v.rows[first]), val(last), batch(v.rows[last])))
	}
	return fmt.Sprintf("Line chart of %s, logarithmic running batch: %s %s. %s", v.m.Name, what, strings.Join(parts, "; "), f.Note)
}

// carbonFigure is kg CO2e per billion output tokens on the display grids.
func (v *view) carbonFigure(rows []carbonRow) *Figure {
	f := &Figure{ID: "carbon", Title: "Carbon per billion output tokens by grid",
		XLabel: "kg CO2e per billion output tokens", YLabel: "Grid"}
	var parts []string
	for _, r := range rows {
		label := r.area.Name
		if r.area.Year != v.s.Grid.Year {
			label += fmt.Sprintf(" (%d)", r.area.Year)
		}
		f.Bars = append(f.Bars, Bar{Label: label, Value: float64(r.kg), Text: kg(r.kg)})
		parts = append(parts, fmt.Sprintf("%s %s kg", label, kg(r.kg)))
	}
	f.Alt = fmt.Sprintf("Bar chart of %s at its index row on %s: %s.", v.m.Name, on(v.lowest.c.NumGPUs, v.lowest.gpu), strings.Join(parts, ", "))
	return f
}

func (v *view) carbonCaption() string {
	return fmt.Sprintf("%s at its index row on %s, priced on each grid", v.m.Name, on(v.lowest.c.NumGPUs, v.lowest.gpu))
}
