package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/internal/printable"
)

func (r *Report) summary() string {
	parts := []string{plural.Count(r.Models.New, "model")}
	if a, d := len(r.Models.Added), len(r.Models.Removed); a+d > 0 {
		var ad []string
		if a > 0 {
			ad = append(ad, fmt.Sprintf("%d added", a))
		}
		if d > 0 {
			ad = append(ad, fmt.Sprintf("%d removed: %s", d, slugList(r.Models.Removed)))
		}
		parts[0] += " (" + strings.Join(ad, ", ") + ")"
	}
	if len(r.GPUs.Added) > 0 {
		parts = append(parts, "GPUs added: "+strings.Join(r.GPUs.Added, ", "))
	}
	if len(r.GPUs.Removed) > 0 {
		parts = append(parts, "GPUs removed: "+strings.Join(r.GPUs.Removed, ", "))
	}
	if !r.DataChanged {
		return parts[0] + ", no data change"
	}
	if n := len(r.IndexRows); n == 0 {
		parts = append(parts, "index rows unchanged")
	} else {
		s := plural.Count(n, "index row") + " changed"
		if top := r.IndexRows[0]; top.RelativeChangePercent != nil {
			s += fmt.Sprintf(", largest %+.1f%% (%s %s)", top.rel*100, top.Slug, top.GPU)
		}
		parts = append(parts, s)
	}
	changed, added, removed := r.ConfigurationsChanged()
	if changed > 0 {
		fields := map[string]bool{}
		for _, mc := range r.Configurations {
			for _, cc := range mc.Changed {
				for _, f := range cc.Fields {
					fields[f.Field] = true
				}
			}
		}
		parts = append(parts, fmt.Sprintf("%s changed (%s)", plural.Count(changed, "configuration"), strings.Join(slices.Sorted(maps.Keys(fields)), ", ")))
	}
	if added > 0 {
		parts = append(parts, plural.Count(added, "configuration")+" added")
	}
	if removed > 0 {
		parts = append(parts, plural.Count(removed, "configuration")+" removed")
	}
	fieldModels := 0
	for _, mc := range r.Configurations {
		if len(mc.Fields) > 0 {
			fieldModels++
		}
	}
	if fieldModels > 0 {
		parts = append(parts, fmt.Sprintf("model fields changed in %s", plural.Count(fieldModels, "model")))
	}
	g := r.Grid
	switch {
	case g.Old == nil && g.New != nil:
		parts = append(parts, "grid.json added")
	case g.Old != nil && g.New == nil:
		parts = append(parts, "grid.json removed")
	case len(g.Added)+len(g.Removed)+len(g.Renamed)+len(g.Changed) > 0:
		var gs []string
		for _, x := range []struct {
			n    int
			what string
		}{{len(g.Changed), "changed"}, {len(g.Added), "added"}, {len(g.Removed), "removed"}, {len(g.Renamed), "renamed"}} {
			if x.n > 0 {
				gs = append(gs, fmt.Sprintf("%d %s", x.n, x.what))
			}
		}
		parts = append(parts, "grid areas "+strings.Join(gs, ", "))
	}
	if t := r.Tasks; len(t.Added)+len(t.Removed) > 0 {
		var ts []string
		if len(t.Added) > 0 {
			ts = append(ts, "added: "+strings.Join(t.Added, ", "))
		}
		if len(t.Removed) > 0 {
			ts = append(ts, "removed: "+strings.Join(t.Removed, ", "))
		}
		parts = append(parts, "tasks "+strings.Join(ts, "; "))
	}
	if n := len(r.TaskIndexRows); n > 0 {
		parts = append(parts, plural.Count(n, "task index row")+" changed")
	}
	return strings.Join(parts, ", ")
}

// writeTasks writes the tasks added or removed and the other tasks' index
// rows that changed, when there are any.
func (r *Report) writeTasks(p func(format string, a ...any)) {
	t := r.Tasks
	if len(t.Added)+len(t.Removed)+len(t.UpstreamAdded)+len(t.UpstreamRemoved)+len(r.TaskIndexRows) == 0 {
		return
	}
	p("\nTasks:\n")
	for _, x := range []struct {
		what string
		ids  []string
	}{{"added", t.Added}, {"removed", t.Removed}, {"listed upstream, added", t.UpstreamAdded}, {"listed upstream, removed", t.UpstreamRemoved}} {
		if len(x.ids) > 0 {
			p("  %s: %s\n", x.what, strings.Join(x.ids, ", "))
		}
	}
	for _, c := range r.TaskIndexRows {
		switch c.Kind {
		case RowAdded:
			p("  %s %s %s: added, %s %s (%s)\n", c.Task, c.Slug, c.GPU, num(c.New.Energy), c.Unit, c.New.RowID)
		case RowRemoved:
			p("  %s %s %s: removed, was %s %s (%s)\n", c.Task, c.Slug, c.GPU, num(c.Old.Energy), c.Unit, c.Old.RowID)
		case RowChanged:
			p("  %s %s %s: %s -> %s %s (%+.2f%%), row %s -> %s\n", c.Task, c.Slug, c.GPU, num(c.Old.Energy), num(c.New.Energy), c.Unit,
				float64(*c.RelativeChangePercent), c.Old.RowID, c.New.RowID)
		default:
			p("  %s %s %s: %s -> %s %s (%+.2f%%), row %s\n", c.Task, c.Slug, c.GPU, num(c.Old.Energy), num(c.New.Energy), c.Unit,
				float64(*c.RelativeChangePercent), c.New.RowID)
		}
	}
}

func slugList(ms []ModelRef) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.Slug)
	}
	return strings.Join(s, ", ")
}

// WriteJSON renders the report as indented JSON with a final newline.
func (r *Report) WriteJSON(w io.Writer) error { return writeJSON(w, r) }

// WriteText renders the report for a person: the summary line first.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	// Every string shown is data from a snapshot or upstream: p shows it
	// escaped (printable.String), so that a name holding a newline or a
	// control character cannot forge or rewrite a line of the report.
	p := func(format string, a ...any) {
		for i, v := range a {
			if s, ok := v.(string); ok {
				a[i] = printable.String(s)
			}
		}
		fmt.Fprintf(&b, format, a...)
	}
	p("%s\n", r.Summary)
	p("old: %s (data version %s, retrieved %s)\n", r.Old.Dir, r.Old.Date, r.Old.Retrieved)
	p("new: %s (data version %s, retrieved %s)\n", r.New.Dir, r.New.Date, r.New.Retrieved)

	r.writeUpstream(p)
	r.writeSources(p)
	r.writeModels(p)
	r.writeGPUs(p)
	r.writeIndexRows(p)
	r.writeConfigurations(p)
	r.writeGrid(p)
	r.writeTasks(p)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeUpstream writes the upstream evidence, old -> new.
func (r *Report) writeUpstream(p func(format string, a ...any)) {
	p("\nUpstream:\n")
	for _, v := range r.Upstream {
		if v.Old == "" && v.New == "" {
			continue
		}
		if v.Changed {
			p("  %s: %s -> %s\n", v.Name, orNone(v.Old), orNone(v.New))
		} else {
			p("  %s: %s (unchanged)\n", v.Name, v.Old)
		}
	}
}

// writeSources writes the archived sources.
func (r *Report) writeSources(p func(format string, a ...any)) {
	p("\nSources:\n")
	for _, s := range r.Sources {
		switch s.Status {
		case "added":
			p("  %s: added (%d bytes, sha256 %s)\n", s.Name, s.New.Size, s.New.SHA256)
		case "removed":
			p("  %s: removed (was %d bytes, sha256 %s)\n", s.Name, s.Old.Size, s.Old.SHA256)
		case "unchanged":
			p("  %s: unchanged (sha256 %s)\n", s.Name, short(s.Old.SHA256))
		default:
			var d []string
			for _, f := range s.Changed {
				switch f {
				case "sha256":
					d = append(d, fmt.Sprintf("sha256 %s -> %s", short(s.Old.SHA256), short(s.New.SHA256)))
				case "size":
					d = append(d, fmt.Sprintf("%d -> %d bytes", s.Old.Size, s.New.Size))
				case "url":
					d = append(d, fmt.Sprintf("url %s -> %s", s.Old.URL, s.New.URL))
				case "retrieved":
					d = append(d, fmt.Sprintf("retrieved %s -> %s", s.Old.Retrieved, s.New.Retrieved))
				}
			}
			p("  %s: %s\n", s.Name, strings.Join(d, ", "))
		}
	}
}

// writeModels writes the models added and removed.
func (r *Report) writeModels(p func(format string, a ...any)) {
	p("\nModels: %d -> %d", r.Models.Old, r.Models.New)
	if len(r.Models.Added)+len(r.Models.Removed) == 0 {
		p(", none added or removed\n")
	} else {
		p("\n")
		for _, m := range r.Models.Added {
			p("  added: %s (%s)\n", m.Slug, m.ModelID)
		}
		for _, m := range r.Models.Removed {
			p("  removed: %s (%s)\n", m.Slug, m.ModelID)
		}
	}
}

// writeGPUs writes the GPUs added and removed.
func (r *Report) writeGPUs(p func(format string, a ...any)) {
	p("\nGPUs: %s -> %s", orNone(strings.Join(r.GPUs.Old, ", ")), orNone(strings.Join(r.GPUs.New, ", ")))
	if len(r.GPUs.Added)+len(r.GPUs.Removed) == 0 {
		p(", none added or removed\n")
	} else {
		p("\n")
		for _, g := range r.GPUs.Added {
			p("  added: %s\n", g)
		}
		for _, g := range r.GPUs.Removed {
			p("  removed: %s\n", g)
		}
	}
}

// writeIndexRows writes the index rows, largest change first.
func (r *Report) writeIndexRows(p func(format string, a ...any)) {
	p("\nIndex rows (Wh per million output tokens; largest change first):")
	if len(r.IndexRows) == 0 {
		p(" none changed\n")
	} else {
		p("\n")
		for _, c := range r.IndexRows {
			switch c.Kind {
			case RowAdded:
				p("  %s %s: added, %s (%s)\n", c.Slug, c.GPU, num(c.New.WhPerMillion), c.New.RowID)
			case RowRemoved:
				p("  %s %s: removed, was %s (%s)\n", c.Slug, c.GPU, num(c.Old.WhPerMillion), c.Old.RowID)
			case RowChanged:
				p("  %s %s: %s -> %s (%+.2f%%), row %s -> %s\n", c.Slug, c.GPU, num(c.Old.WhPerMillion), num(c.New.WhPerMillion),
					float64(*c.RelativeChangePercent), c.Old.RowID, c.New.RowID)
			default:
				p("  %s %s: %s -> %s (%+.2f%%), row %s\n", c.Slug, c.GPU, num(c.Old.WhPerMillion), num(c.New.WhPerMillion),
					float64(*c.RelativeChangePercent), c.New.RowID)
			}
		}
	}
}

// writeConfigurations writes the configurations and model fields changed.
func (r *Report) writeConfigurations(p func(format string, a ...any)) {
	changed, added, removed := r.ConfigurationsChanged()
	p("\nConfigurations: %d changed, %d added, %d removed\n", changed, added, removed)
	for _, mc := range r.Configurations {
		p("  %s:\n", mc.Slug)
		for _, f := range mc.Fields {
			p("    %s: %s -> %s\n", f.Field, f.Old, f.New)
		}
		for _, id := range mc.Added {
			p("    added %s\n", id)
		}
		for _, id := range mc.Removed {
			p("    removed %s\n", id)
		}
		for _, cc := range mc.Changed {
			var fs []string
			for _, f := range cc.Fields {
				fs = append(fs, fmt.Sprintf("%s %s -> %s", f.Field, f.Old, f.New))
			}
			p("    %s: %s\n", cc.RowID, strings.Join(fs, ", "))
		}
	}
	if r.RoundingOnly > 0 {
		p("  (%s with the same upstream value, rounding only: not counted)\n", plural.Count(r.RoundingOnly, "published figure"))
	}
}

// writeGrid writes grid.json's areas, and the notes.
func (r *Report) writeGrid(p func(format string, a ...any)) {
	p("\nGrid:")
	g := r.Grid
	switch {
	case g.Old == nil && g.New == nil:
		p(" no grid.json in either snapshot\n")
	case g.Old == nil:
		p(" grid.json added (year %d, %d areas, %d fallbacks, %d Ember rows excluded)\n", g.New.Year, g.New.Areas, g.New.Fallbacks, g.New.Exclusions)
	case g.New == nil:
		p(" grid.json removed (was year %d, %d areas)\n", g.Old.Year, g.Old.Areas)
	default:
		p(" year %d -> %d, %d -> %d areas (fallbacks %d -> %d, Ember rows excluded %d -> %d); %d changed, %d added, %d removed, %d renamed\n",
			g.Old.Year, g.New.Year, g.Old.Areas, g.New.Areas, g.Old.Fallbacks, g.New.Fallbacks, g.Old.Exclusions, g.New.Exclusions,
			len(g.Changed), len(g.Added), len(g.Removed), len(g.Renamed))
		for _, a := range g.Renamed {
			p("  renamed %s -> %s (%s)\n", a.Old, a.New, a.ISO3)
		}
		for _, a := range g.Changed {
			var fs []string
			for _, f := range a.Fields {
				fs = append(fs, fmt.Sprintf("%s %s -> %s", f.Field, f.Old, f.New))
			}
			rel := ""
			if a.RelativeChangePercent != nil {
				rel = fmt.Sprintf(" (%+.2f%%)", float64(*a.RelativeChangePercent))
			}
			p("  %s (%s): %s%s\n", a.Name, orNone(a.ISO3), strings.Join(fs, ", "), rel)
		}
		for _, a := range g.Added {
			p("  added %s (%s): %s\n", a.Name, orNone(a.ISO3), num(a.GCO2ePerKWh))
		}
		for _, a := range g.Removed {
			p("  removed %s (%s): was %s\n", a.Name, orNone(a.ISO3), num(a.GCO2ePerKWh))
		}
	}
	for _, n := range r.Notes {
		p("\nNote: %s\n", n)
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	return sum
}

func num(f format.Float) string {
	s, err := format.FormatFloat(float64(f))
	if err != nil {
		return fmt.Sprint(float64(f))
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
