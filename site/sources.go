package site

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/render"
)

type fact struct {
	Name string
	Segs []seg
}

type fileRow struct {
	Path, Href, Size, SHA256 string
}

type sourcesSection struct {
	ID, Title    string
	Paras        [][]seg
	Facts        []fact
	Tables       []*render.Table
	Files        []fileRow
	FilesCaption string
}

type sourcesData struct {
	frame
	Sections []sourcesSection
}

// facts are the page's name and value pairs, each value as
// printable.String shows it.
func facts(kv ...string) []fact {
	var out []fact
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			out = append(out, fact{Name: kv[i], Segs: segs(printable.String(kv[i+1]))})
		}
	}
	return out
}

// shownCells are a table's cells as printable.String shows them.
func shownCells(cells ...string) render.TableRow {
	for i, c := range cells {
		cells[i] = printable.String(c)
	}
	return render.TableRow{Cells: cells}
}

// sourcesPage is sources.html: where the snapshot's data come from, and
// every file it holds. The text it shows from the manifest, the model files
// and grid.json (URLs, names, the generator, the exclusions) is
// HTML-escaped by html/template, and shown by printable.String before
// that: a control character (an escape sequence, a NUL) or a bidi override
// is shown as its escape (\x1b, \u202e), never carried into the page.
func (s *Site) sourcesPage() ([]byte, error) {
	d := sourcesData{frame: s.frame("Sources", "sources.html", "sources")}
	m := s.snap.Manifest
	idx := s.pages.Index
	from := idx.Source.Name
	if g := s.pages.Grid; g != nil {
		from += " and " + g.Source.Name
	}
	d.Description = fmt.Sprintf("The sources of the Green Tokens snapshot of %s, %s: versions, dates, licences, citations, and the size and sha256 of every file.", d.Date, from)

	// The leaderboard, from a model file's source block (the same in all).
	lb := sourcesSection{ID: "leaderboard", Title: idx.Source.Name}
	if len(idx.Models) > 0 {
		model, ok := s.snap.Published[idx.Models[0].Slug]
		if !ok {
			return nil, fmt.Errorf("%s lists model %q, which the snapshot does not publish", format.IndexPath, idx.Models[0].Slug)
		}
		src := model.Source
		var tasks []string
		for _, t := range idx.Source.Tasks {
			tasks = append(tasks, fmt.Sprintf("%s (%s): %d stable configurations", t.Name, t.Task, t.StableConfigurations))
		}
		lb.Facts = facts("Publisher", src.Publisher, "Web", src.URL, "Data", src.DataURL,
			"Version", src.Version, "Released", render.LongDate(src.Released), "Data compiled", render.LongDate(src.Compiled)+" ("+src.CompiledEvidence+")",
			"Retrieved", render.LongDate(src.Retrieved), "Tasks", strings.Join(tasks, "; "),
			"Method", src.Method, "Selection", src.Selection, "Licence", src.Licence,
			"Licence evidence", strings.Join(src.LicenceEvidence, ". ")+".",
			"Cite", src.Cite+", "+src.CiteURL, "Configurations", src.Configurations)
	}
	d.Sections = append(d.Sections, lb)

	if g := s.pages.Grid; g != nil {
		sec := sourcesSection{ID: "ember", Title: printable.String(g.Source.Name + ": " + g.Source.Title)}
		release := g.Source.Release
		areas := strconv.Itoa(len(g.Areas)) + " areas"
		if m.Grid != nil && m.Grid.AreasWithoutYear > 0 {
			areas += fmt.Sprintf("; %d areas of the file have no value for %d", m.Grid.AreasWithoutYear, g.Year)
		}
		yearNote := strconv.Itoa(g.Year)
		if g.YearPinned {
			yearNote += " (pinned by the build)"
		}
		sec.Facts = facts("Release", release, "Reference year", yearNote, "Data", g.Source.URL,
			"Retrieved", render.LongDate(g.Source.Retrieved), "Licence", g.Source.Licence, "Unit", g.Unit,
			"Definition", g.Source.Definition, "Areas", areas)
		d.Sections = append(d.Sections, sec)
	}

	cite, err := render.CiteAs(m.Date, s.baseURL())
	if err != nil {
		return nil, err
	}
	d.Sections = append(d.Sections, sourcesSection{ID: "cite", Title: "Cite the index", Paras: [][]seg{segs(cite)}})

	snap := sourcesSection{ID: "snapshot", Title: "This snapshot"}
	sel := m.Selection
	ev := m.Evidence
	evidence := fmt.Sprintf("index.json last_updated %s; newest commit to the task files %s, %s; compiled date used: %s", ev.IndexLastUpdated, ev.LastCommitSHA, ev.LastCommitDate, ev.Compiled)
	if ev.Conflict != "" {
		evidence += "; conflict: " + ev.Conflict
	}
	licence := ""
	if l := m.Licence; l != nil {
		licence = fmt.Sprintf("%s (%s, %s): %s", l.Name, l.ID, l.URL, l.Scope)
	}
	snap.Facts = facts("Date", m.Date, "Retrieved", m.Retrieved, "Licence", licence, "Generator", m.Generator.String(),
		"Selection", fmt.Sprintf("median ITL ceiling %d ms; a run is unstable under %s s of steady state or a running batch under %s of its cap; tasks %s",
			sel.ITLDeadlineMS, strconv.FormatFloat(sel.MinSteadyStateSeconds, 'f', -1, 64), strconv.FormatFloat(sel.MinBatchFraction, 'f', -1, 64), strings.Join(sel.Tasks, ", ")),
		"Compiled-date evidence", evidence,
		"Files", fmt.Sprintf("%d sources archived, %d files derived, each with its size and sha256 in manifest.json", len(m.Sources), len(m.Outputs)),
		"Exclusions", fmt.Sprintf("%d upstream rows left out", len(m.Exclusions)))
	if len(m.Exclusions) > 0 {
		t := &render.Table{Caption: "Upstream rows the build left out, with the reason", Head: []string{"Task", "Row", "Model", "GPUs", "Cap", "Reason"}}
		for _, x := range m.Exclusions {
			t.Rows = append(t.Rows, shownCells(x.Task, strconv.Itoa(x.Row), x.ModelID, render.On(x.NumGPUs, x.GPU), strconv.Itoa(x.MaxNumSeqs), x.Reason))
		}
		snap.Tables = append(snap.Tables, t)
	}
	d.Sections = append(d.Sections, snap)

	srcSec := sourcesSection{ID: "archived", Title: "Archived sources"}
	t := &render.Table{Caption: "Upstream files as archived under sources/", Head: []string{"Name", "URL", "Retrieved", "Producer", "Licence"}}
	for _, src := range m.Sources {
		t.Rows = append(t.Rows, shownCells(src.Name, src.URL, src.Retrieved, src.Producer, src.Licence))
	}
	srcSec.Tables = append(srcSec.Tables, t)
	srcSec.FilesCaption = "Archived files; the JSON ones are linked, the Ember CSV is at its URL above"
	for _, src := range m.Sources {
		srcSec.Files = append(srcSec.Files, s.fileRow(src.Path, src.Size, src.SHA256))
	}
	d.Sections = append(d.Sections, srcSec)

	out := sourcesSection{ID: "files", Title: "Published files", FilesCaption: "manifest.json and every file derived from the sources"}
	mb, err := s.Page("data/" + format.ManifestPath)
	if err != nil {
		return nil, err
	}
	out.Files = append(out.Files, fileRow{Path: format.ManifestPath, Href: "data/" + format.ManifestPath, Size: render.Whole(float64(len(mb))), SHA256: "(lists the others)"})
	files := slices.Clone(m.Outputs)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		out.Files = append(out.Files, s.fileRow(f.Path, f.Size, f.SHA256))
	}
	d.Sections = append(d.Sections, out)
	return execute("sources.tmpl", d)
}

// fileRow is the row of a file the manifest lists, linked when the site
// serves it under data/.
func (s *Site) fileRow(path string, size int64, sha256 string) fileRow {
	r := fileRow{Path: printable.String(path), Size: render.Whole(float64(size)), SHA256: printable.String(sha256)}
	if _, ok := s.data["data/"+path]; ok {
		r.Href = dataHref("", path)
	}
	return r
}
