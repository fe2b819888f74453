package history

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/internal/printable"
)

// Compact is a History in a few words per GPU, for an assistant's context:
// each GPU's first point, every point whose figure changed, with the kinds
// of its reasons, and its last point.
type Compact struct {
	Model    string          `json:"model"`
	Name     string          `json:"name"`
	Task     string          `json:"task"`
	Unit     string          `json:"unit"`
	Releases int             `json:"releases"`
	First    string          `json:"first"`
	Last     string          `json:"last"`
	Series   []CompactSeries `json:"series"`
}

// CompactSeries is one GPU's compact points.
type CompactSeries struct {
	GPU    string         `json:"gpu"`
	Points []CompactPoint `json:"points"`
}

// CompactPoint is a release's index row in three figures: the release, the
// upstream compiled date, the energy per the task's unit (null: no index
// row; under the key named for the unit, as a Point's), and why it
// changed.
type CompactPoint struct {
	Release      string        `json:"release"`
	Compiled     string        `json:"compiled"`
	WhPerMillion *format.Float `json:"wh_per_million_output_tokens,omitempty"`
	WhPerImage   *format.Float `json:"wh_per_image,omitempty"`
	WhPerVideo   *format.Float `json:"wh_per_video,omitempty"`
	Why          []string      `json:"why"`

	// Kind is the task's kind, as a Point's.
	Kind format.Kind `json:"-"`
}

// Compact returns h in a few words per GPU.
func (h *History) Compact() *Compact {
	c := &Compact{Model: h.Model, Name: h.Name, Task: h.Task, Unit: h.Unit, Releases: len(h.Releases), Series: []CompactSeries{}}
	if n := len(h.Releases); n > 0 {
		c.First, c.Last = h.Releases[0].Date, h.Releases[n-1].Date
	}
	for _, s := range h.Series {
		cs := CompactSeries{GPU: s.GPU, Points: []CompactPoint{}}
		for i, p := range s.Points {
			if i != 0 && i != len(s.Points)-1 && p.Change == nil {
				continue
			}
			cp := CompactPoint{Release: p.Release, Compiled: p.Compiled, WhPerMillion: p.WhPerMillion, WhPerImage: p.WhPerImage,
				WhPerVideo: p.WhPerVideo, Why: []string{}, Kind: kindOf(p.Kind, p.WhPerImage, p.WhPerVideo)}
			for _, r := range p.Why {
				cp.Why = append(cp.Why, r.Kind)
			}
			cs.Points = append(cs.Points, cp)
		}
		c.Series = append(c.Series, cs)
	}
	return c
}

// WriteText writes h as a table for a person: a line naming the model, the
// task and the releases, then a row per GPU and release, the reasons of a
// change beside it. Text from a snapshot is shown as internal/printable
// shows it.
func (h *History) WriteText(w io.Writer) error {
	span := "none"
	if n := len(h.Releases); n > 0 {
		span = h.Releases[0].Date + " to " + h.Releases[n-1].Date
	}
	fmt.Fprintf(w, "%s (%s), %s, %s: %s, %s\n", printable.String(h.Name), h.Model, h.TaskName, h.Unit,
		plural.Count(len(h.Releases), "release"), span)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "GPU\trelease\tcompiled\tindex row\t%s\tchange\twhy\n", unitShort(h.Task))
	for _, s := range h.Series {
		for _, p := range s.Points {
			row, wh := "none", "-"
			if p.RowID != nil {
				row, wh = *p.RowID, num(*p.Wh())
			}
			change := ""
			if p.Change != nil {
				change = *p.Change
				if p.RelativeChangePercent != nil {
					sign := ""
					if *p.RelativeChangePercent > 0 {
						sign = "+"
					}
					change += " " + sign + num(*p.RelativeChangePercent) + "%"
				}
			}
			var why []string
			for _, r := range p.Why {
				why = append(why, r.Kind+": "+r.Detail)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", printable.String(s.GPU), p.Release, p.Compiled,
				printable.String(row), wh, change, printable.String(strings.Join(why, "; ")))
		}
	}
	return tw.Flush()
}

func num(f format.Float) string {
	s, _ := format.FormatFloat(float64(f))
	return s
}

// unitShort is the unit of the task with the id task in a column heading:
// "Wh/M", "Wh/image", "Wh/video".
func unitShort(task string) string {
	t, _ := format.LookupTask(task)
	return t.UnitShort()
}
