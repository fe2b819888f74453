package chart

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/render"
)

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max, lo, hi float64
		ticks            []float64
	}{
		{39.05, 479.4, 20, 500, []float64{20, 50, 100, 200, 500}},
		{8, 456, 5, 500, []float64{5, 10, 20, 50, 100, 200, 500}},
		// More than seven 1-2-5 ticks: the powers of ten only.
		{7.6, 3000, 5, 5000, []float64{10, 100, 1000}},
		// A value on a tick is its own end.
		{10, 100, 10, 100, []float64{10, 20, 50, 100}},
		// One value: the ticks either side.
		{100, 100, 50, 200, []float64{50, 100, 200}},
		{0.3, 0.9, 0.2, 1, []float64{0.2, 0.5, 1}},
	} {
		lo, hi, ticks := logTicks(tc.min, tc.max)
		if !near(lo, tc.lo) || !near(hi, tc.hi) || !allNear(ticks, tc.ticks) {
			t.Errorf("logTicks(%v, %v) = %v, %v, %v; want %v, %v, %v", tc.min, tc.max, lo, hi, ticks, tc.lo, tc.hi, tc.ticks)
		}
	}
}

func TestLinTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max, lo, hi float64
		ticks            []float64
	}{
		{312, 6912, 0, 8000, []float64{0, 2000, 4000, 6000, 8000}},
		{536, 1180, 0, 1500, []float64{0, 500, 1000, 1500}},
		{0, 2.2, 0, 2.5, []float64{0, 0.5, 1, 1.5, 2, 2.5}},
		{-37.9, 700, -200, 800, []float64{-200, 0, 200, 400, 600, 800}},
	} {
		lo, hi, ticks := linTicks(tc.min, tc.max)
		if !near(lo, tc.lo) || !near(hi, tc.hi) || !allNear(ticks, tc.ticks) {
			t.Errorf("linTicks(%v, %v) = %v, %v, %v; want %v, %v, %v", tc.min, tc.max, lo, hi, ticks, tc.lo, tc.hi, tc.ticks)
		}
	}
}

func TestScale(t *testing.T) {
	s := newScale(20, 480, 300, 16, true) // a y axis: pixels grow downwards
	if s.lo != 20 || s.hi != 500 {
		t.Fatalf("domain %v..%v, want 20..500", s.lo, s.hi)
	}
	for _, tc := range []struct{ v, px float64 }{
		{20, 300}, {500, 16}, {100, 300 - (300-16)*math.Log10(5)/math.Log10(25)},
		{math.Sqrt(20 * 500), 158}, // the geometric mean is half way on a log axis
	} {
		if got := s.at(tc.v); math.Abs(got-tc.px) > 1e-9 {
			t.Errorf("log at(%v) = %v, want %v", tc.v, got, tc.px)
		}
	}
	l := newScale(0, 6912, 70, 540, false)
	if got := l.at(4000); math.Abs(got-(70+470*0.5)) > 1e-9 {
		t.Errorf("linear at(4000) = %v, want the middle of 0..8000", got)
	}
	for _, tc := range []struct {
		v    float64
		want string
	}{{1000, "1,000"}, {0.5, "0.5"}, {20, "20"}, {1500, "1,500"}, {0.02, "0.02"}, {-200, "-200"}} {
		if got := tickLabel(tc.v); got != tc.want {
			t.Errorf("tickLabel(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func figure() *render.Figure {
	return &render.Figure{ID: "energy", Title: "Energy <per> token", XLabel: "Running batch", YLabel: "Wh/M", LogX: true, LogY: true,
		Alt: `Alt "text" & more`, Note: "Ringed: the index row.",
		Series: []render.Series{
			{Name: "1 × B200", Points: []render.Point{
				{X: 8, Y: 429.2, Label: "cap 8"}, {X: 383, Y: 39.05, Label: "cap 384", Index: true}, {X: 456, Y: 41.9, Label: "cap 512"}}},
			{Name: `<script>alert("x")</script>`, Points: []render.Point{
				{X: 8, Y: 452, Label: "<b>cap</b> 8"}, {X: 256, Y: 63.5, Label: "cap 256", Index: true}, {X: 340, Y: 64.6, Label: "cap 384 over", Over: true}}},
		}}
}

var circleRE = regexp.MustCompile(`<circle class="([^"]*)" cx="([^"]*)" cy="([^"]*)"`)

func TestLineChart(t *testing.T) {
	h, err := HTML(figure())
	if err != nil {
		t.Fatal(err)
	}
	s := string(h)
	pts := circleRE.FindAllStringSubmatch(s, -1)
	var classes []string
	for _, p := range pts {
		classes = append(classes, p[1])
	}
	// The ring comes just before its point, at the same place.
	want := []string{"pt", "ring", "pt index", "pt", "pt", "ring", "pt index", "pt over"}
	if diff := cmp.Diff(want, classes); diff != "" {
		t.Fatalf("circles (-want +got):\n%s", diff)
	}
	if pts[1][2] != pts[2][2] || pts[1][3] != pts[2][3] {
		t.Errorf("the ring is not on the index point: %v %v", pts[1], pts[2])
	}
	// The index point of 1 × B200 (383, 39.05) on the axes 5..500 and 20..500.
	xs := newScale(8, 456, marginL, lineW-marginR, true)
	ys := newScale(39.05, 452, lineH-marB, marginT, true)
	if pts[2][2] != px(xs.at(383)) || pts[2][3] != px(ys.at(39.05)) {
		t.Errorf("the index point is at (%s, %s), want (%s, %s)", pts[2][2], pts[2][3], px(xs.at(383)), px(ys.at(39.05)))
	}
	// The segment into a point past the deadline is dashed, the others solid.
	if n := strings.Count(s, `<path class="line over"`); n != 1 {
		t.Errorf("%d dashed paths, want 1", n)
	}
	for _, want := range []string{
		`<title id="fig-energy-t">Energy &lt;per&gt; token</title>`,
		`<desc id="fig-energy-d">Alt &#34;text&#34; &amp; more</desc>`,
		`aria-labelledby="fig-energy-t fig-energy-d"`, `role="img"`,
		`data-series="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"`,
		`<title>&lt;b&gt;cap&lt;/b&gt; 8</title>`,
		`>Running batch</text>`, `>Wh/M</text>`, `>500</text>`, `>20</text>`,
		`<li><span class="sw s1"></span>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</li>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the chart lacks %s", want)
		}
	}
	if strings.Contains(s, "<script>") || strings.Contains(s, "<b>") {
		t.Errorf("unescaped text in the chart:\n%s", s)
	}
	again, _ := HTML(figure())
	if again != h {
		t.Errorf("the same figure gave other bytes")
	}
}

func TestBarChart(t *testing.T) {
	f := &render.Figure{ID: "carbon", Title: "Carbon", XLabel: "kg CO2e per billion output tokens", Alt: "bars",
		Bars: []render.Bar{{Label: "India", Value: 27.6, Text: "27.6"}, {Label: "Norway", Value: 1.2, Text: "1.2"}, {Label: "<i>x</i>", Value: 0, Text: "0.0"}},
		Ref:  1, RefLabel: "1×"}
	h, err := HTML(f)
	if err != nil {
		t.Fatal(err)
	}
	s := string(h)
	widths := regexp.MustCompile(`<rect class="bar" x="8.0" y="[^"]*" width="([^"]*)"`).FindAllStringSubmatch(s, -1)
	if len(widths) != 3 {
		t.Fatalf("%d bars, want 3", len(widths))
	}
	// 0..40 (27.6 × 1.12 = 30.9, up to a step of 10) over 8..540.
	for i, want := range []float64{27.6, 1.2, 0} {
		if widths[i][1] != px(want/40*532) {
			t.Errorf("bar %d: width %s, want %s", i, widths[i][1], px(want/40*532))
		}
	}
	if !strings.Contains(s, `<line class="ref" x1="`+px(8+532.0/40)+`"`) || !strings.Contains(s, "&lt;i&gt;x&lt;/i&gt;") {
		t.Errorf("no reference line at 1, or an unescaped label:\n%s", s)
	}
	// The reference line runs across each bar but never through a label
	// (its baseline to 4 units under it, 13 over it for a 13-unit font).
	refs := regexp.MustCompile(`<line class="ref" [^>]*y1="([^"]*)" y2="([^"]*)"`).FindAllStringSubmatch(s, -1)
	labels := regexp.MustCompile(`<text class="barlabel" x="[^"]*" y="([^"]*)"`).FindAllStringSubmatch(s, -1)
	bars := regexp.MustCompile(`<rect class="bar" x="[^"]*" y="([^"]*)"`).FindAllStringSubmatch(s, -1)
	if len(refs) != len(labels) || len(bars) != len(labels) {
		t.Fatalf("%d reference segments for %d labels and %d bars", len(refs), len(labels), len(bars))
	}
	f64 := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	for i, r := range refs {
		y1, y2, bar := f64(r[1]), f64(r[2]), f64(bars[i][1])
		for j, l := range labels {
			if ly := f64(l[1]); y1 < ly+4 && y2 > ly-13 {
				t.Errorf("reference segment %d (%v..%v) crosses label %d (baseline %v)", i, y1, y2, j, ly)
			}
		}
		if y1 > bar || y2 < bar+14 {
			t.Errorf("reference segment %d (%v..%v) does not cross bar %d (%v..%v)", i, y1, y2, i, bar, bar+14)
		}
	}
}

func TestBadFigures(t *testing.T) {
	for name, f := range map[string]*render.Figure{
		"empty":         {ID: "x"},
		"zero on a log": {ID: "x", LogY: true, Series: []render.Series{{Name: "a", Points: []render.Point{{X: 1, Y: 0}}}}},
		"NaN":           {ID: "x", Series: []render.Series{{Name: "a", Points: []render.Point{{X: math.NaN(), Y: 1}}}}},
		"infinite bar":  {ID: "x", Bars: []render.Bar{{Label: "a", Value: math.Inf(1)}}},
	} {
		if _, err := HTML(f); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func allNear(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}
