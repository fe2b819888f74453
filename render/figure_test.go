package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFigures: the Qwen 3 32B page's charts hold every configuration once,
// in the tables' groups, with the index rows marked, and the carbon bars
// hold the carbon table's figures.
func TestFigures(t *testing.T) {
	d := seedDoc(t)
	figs := map[string]*Figure{}
	var tables []*Table
	for _, b := range d.Blocks {
		switch b := b.(type) {
		case *Figure:
			figs[b.ID] = b
		case *Table:
			tables = append(tables, b)
		}
	}
	if len(figs) != 4 || len(tables) != 4 {
		t.Fatalf("%d figures and %d tables; want energy, throughput, power, carbon and 3 configuration tables and a carbon table", len(figs), len(tables))
	}
	for _, id := range []string{"energy", "throughput", "power"} {
		f := figs[id]
		var names []string
		var index []string
		n := 0
		for gi, sr := range f.Series {
			names = append(names, sr.Name)
			for i, p := range sr.Points {
				n++
				row := tables[gi].Rows[i]
				if p.Index != row.Marked {
					t.Errorf("%s %s point %d: index %v, the table's row marked %v", id, sr.Name, i, p.Index, row.Marked)
				}
				if p.Index {
					index = append(index, sr.Name+" "+row.Cells[1])
				}
				if !strings.Contains(p.Label, "running batch "+row.Cells[1]+", "+row.Cells[2]+" Wh/M") || p.Over {
					t.Errorf("%s point %q is not the table's row %v", id, p.Label, row.Cells)
				}
			}
		}
		if diff := cmp.Diff([]string{"1 × B200", "1 × H100", "2 × H100"}, names); diff != "" {
			t.Errorf("%s series:\n%s", id, diff)
		}
		if diff := cmp.Diff([]string{"1 × B200 383", "2 × H100 256"}, index); diff != "" {
			t.Errorf("%s index rows:\n%s", id, diff)
		}
		if n != 22 || !f.LogX || f.Title == "" || f.XLabel == "" || f.YLabel == "" || f.Alt == "" {
			t.Errorf("%s: %d points, log x %v, title %q, labels %q %q, alt %q", id, n, f.LogX, f.Title, f.XLabel, f.YLabel, f.Alt)
		}
	}
	if !figs["energy"].LogY || figs["throughput"].LogY || figs["power"].LogY {
		t.Errorf("only energy per token has a log y axis")
	}
	if got := figs["energy"].Series[0].Points[8]; !got.Index || got.X < 382.5 || got.X >= 383.5 || got.X == 383 {
		t.Errorf("the index point %+v: want the unrounded running batch behind 383", got)
	}
	var bars, rows []string
	for _, b := range figs["carbon"].Bars {
		bars = append(bars, b.Label+" "+b.Text)
	}
	for _, r := range tables[3].Rows {
		rows = append(rows, r.Cells[0]+" "+r.Cells[2])
	}
	if diff := cmp.Diff(rows, bars); diff != "" || len(bars) != 7 {
		t.Errorf("carbon bars (-table +bars):\n%s", diff)
	}
	if !strings.Contains(figs["carbon"].Alt, "Saudi Arabia 27.0 kg") || !strings.Contains(figs["carbon"].Alt, "Norway 1.2 kg") {
		t.Errorf("carbon alt: %q", figs["carbon"].Alt)
	}
}

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"Qwen 3 32B":                       "Qwen 3 32B",
		`\<script\>alert(1)\</script\>`:    "<script>alert(1)</script>",
		`\*bold\* \_it\_ a \| b \&amp; c`:  "*bold* _it_ a | b &amp; c",
		`a \\ b`:                           `a \ b`,
		`\\\*`:                             `\*`,
		`C:\path and a trailing \`:         `C:\path and a trailing \`,
		`\[link\](https://evil.example) x`: "[link](https://evil.example) x",
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOnIsPlain(t *testing.T) {
	if got := On(2, "MI300_X"); got != "2 × MI300_X" {
		t.Errorf("On = %q: the exported form is plain text", got)
	}
}
