package chart

import (
	"strings"
	"testing"
)

// TestDated: a dated chart puts its points at their dates, labels its axis
// with dates (at most maxDateTicks, the first and the last among them),
// rings the marked points, gives the same bytes for the same figure, and
// refuses a date it cannot read.
func TestDated(t *testing.T) {
	d := &Dated{ID: "history", Title: "t", XLabel: "x", YLabel: "y", Alt: "a", Note: "n", Series: []DatedSeries{
		{Name: "B200", Points: []DatedPoint{{Date: "2026-02-16", Y: 39}, {Date: "2026-03-02", Y: 40, Marked: true}, {Date: "2026-03-16", Y: 42, Marked: true},
			{Date: "2026-03-30", Y: 40}, {Date: "2026-04-13", Y: 33, Marked: true, Label: "<why>"}}},
		{Name: "H200", Points: []DatedPoint{{Date: "2026-04-13", Y: 55, Marked: true}}},
	}}
	h, err := DatedHTML(d)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := DatedHTML(d)
	if h != again {
		t.Error("the same figure gave other bytes")
	}
	s := string(h)
	if n := strings.Count(s, `class="ring"`); n != 4 {
		t.Errorf("%d rings, want 4", n)
	}
	if n := strings.Count(s, `<circle class="pt`); n != 6 {
		t.Errorf("%d points, want 6", n)
	}
	var ticks []string
	for _, part := range strings.Split(s, `class="tick"`)[1:] {
		label := part[strings.Index(part, ">")+1 : strings.Index(part, "<")]
		if strings.HasPrefix(label, "2026-") {
			ticks = append(ticks, label)
		}
	}
	if len(ticks) != maxDateTicks || ticks[0] != "2026-02-16" || ticks[len(ticks)-1] != "2026-04-13" {
		t.Errorf("date ticks %v", ticks)
	}
	if strings.Contains(s, "<why>") {
		t.Error("a label is not escaped")
	}
	d.Series[0].Points[0].Date = "16 Feb 2026"
	if _, err := DatedHTML(d); err == nil || !strings.Contains(err.Error(), `"16 Feb 2026"`) {
		t.Errorf("a date it cannot read: %v", err)
	}
}
