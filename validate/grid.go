package validate

// The grid check: grid.json and the manifest's grid block recomputed from
// the archived Ember CSV (gridcsv.go reads it) by the specification's
// rules, independently of transform/grid, which writes them.

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// Where the grid lives in a snapshot.
const (
	gridEmberName  = "ember/yearly_full_release_long_format.csv" // upstream name
	gridSourceFile = "sources/" + gridEmberName                  // archived path
	gridOutputFile = "grid.json"
	gridWorld      = "World"
)

// gridCountryTypes are the area types the reference-year rule counts as
// countries.
var gridCountryTypes = map[string]bool{"Country or economy": true, "Country": true}

// gridSnapshotCheck is the snapshot check: a snapshot with grid.json or
// Ember's CSV needs both and the manifest's grid block; grid.json passes
// gridCheck, recomputed with the manifest's date, URL and retrieval date,
// and the manifest's grid block and Ember's entry are what the CSV gives.
func gridSnapshotCheck(s *snap) []Problem {
	m := s.manifest
	src, out := gridEmberSource(s), s.output(gridOutputFile)
	if src == nil && out == nil && m.Grid == nil {
		return nil // a snapshot without a grid
	}
	mp := &problems{file: ManifestPath}
	switch {
	case src == nil:
		mp.add("", "sources", "has no %s, which grid.json is built from", gridEmberName)
		return mp.list
	case out == nil:
		mp.add("", "outputs", "lists no %s, but the snapshot archives %s", gridOutputFile, src.Name)
		return mp.list
	case m.Grid == nil:
		mp.add("", "grid", "is missing, but the snapshot has %s", gridOutputFile)
	}
	gj, err := s.read(out.Path)
	if err != nil {
		return append(mp.list, cannotRead(out.Path, err))
	}
	f, err := s.open(src.Path)
	if err != nil {
		return append(mp.list, cannotRead(src.Path, err))
	}
	defer f.Close()
	where, retrieved := fmt.Sprintf("sources (%s)", src.Path), src.Retrieved
	if t, err := time.Parse(time.RFC3339, retrieved); err == nil {
		retrieved = t.UTC().Format(time.DateOnly)
	} else if !isDate(retrieved) {
		mp.add(where, "retrieved", "%q is neither an RFC 3339 time nor a YYYY-MM-DD date", src.Retrieved)
	}
	sum, probs := gridCheck(f, src.Path, gj, &gridInputs{&s.text.Ember, m.Date, src.URL, retrieved, src.Name})
	probs = append(mp.list, probs...)
	if sum == nil {
		return probs
	}
	s.exports.grid = sum.tree
	probs = append(probs, gridLayoutCheck(src, sum.layout, where)...)
	if m.Grid != nil {
		mp := &problems{file: ManifestPath}
		compareBlock(mp, "grid", m.Grid, &sum.manifest, func(key string) string {
			switch key {
			case "year", "year_pinned":
				return " (grid.json's reference year)"
			case "year_rule":
				return " (the reviewed text, internal/sourcetext/ember.json)"
			}
			return " from " + src.Path
		})
		probs = append(probs, mp.list...)
	}
	return probs
}

// gridHead is what only grid.json records: the reference year, whether it
// was pinned, and the release name the build was told.
type gridHead struct {
	year    int
	pinned  bool
	release string
}

// gridInputs are what grid.json is recomputed from beside the CSV and its
// head: the reviewed text, and what the manifest records of the build (its
// date, the CSV's URL and retrieval date, and the CSV's name).
type gridInputs struct {
	text                        *sourcetext.Ember
	dataVersion, url, retrieved string
	name                        string
}

// gridSummary is what the check recomputed: the manifest's grid block, and
// what the CSV's header told.
type gridSummary struct {
	manifest ManifestGrid
	layout   gridLayout
	tree     *jnode // grid.json, recomputed: the exports' grid
}

// gridCheck reads the CSV from r (file names it in problems) and recomputes
// grid.json from its usable rows and the fixed text: year is the latest
// complete year (the rule) unless pinned, World has a value for it, and
// every area with a usable value up to it is listed once, in name order,
// with that row's fields, the value printed as published. The file must
// equal the recomputed one byte for byte; where it does not, each field
// that differs is named with the row it comes from:
//
//	grid.json: areas[81] (Germany): g_co2e_per_kwh is 341.0, recomputed 344.14 from sources/ember/yearly_full_release_long_format.csv line 1994 (Value "344.14")
func gridCheck(r io.Reader, file string, gridJSON []byte, in *gridInputs) (*gridSummary, []Problem) {
	rows, probs, lay := gridReadCSV(r, file)
	if rows == nil {
		return nil, probs
	}
	g := &gridChecker{file: file, probs: probs}
	gp := &problems{file: gridOutputFile}
	head, ok := gridReadHead(gp, gridJSON)
	if !ok {
		return nil, append(g.probs, gp.list...)
	}
	exclusions := g.index(rows)
	candidates, ruleYear := g.ruleYear()
	year, text := head.year, in.text
	switch {
	case !head.pinned && ruleYear == 0:
		gp.add("", "year", "is %d and not pinned, but no year of the source is complete (%s)", year, text.YearRule)
	case !head.pinned && year != ruleYear:
		gp.add("", "year", "is %d and not pinned, but the latest complete year is %d (%s; counts %+v)", year, ruleYear, text.YearRule, candidates)
	}
	if r := g.byArea[gridWorld][year]; r == nil || r.excluded != "" {
		gp.add("", "year", "is %d, but the source has no usable %s value for it", year, gridWorld)
	}
	want, from := g.recompute(head, in)
	g.compare(gp, want, from, gridJSON, in)
	fallbacks := 0
	for _, r := range from {
		if r.year != year {
			fallbacks++
		}
	}
	return &gridSummary{manifest: ManifestGrid{
		Year: year, Areas: len(from), AreasWithoutYear: len(g.byArea) - (len(from) - fallbacks), Fallbacks: fallbacks,
		YearRule: text.YearRule, YearPinned: head.pinned, YearCandidates: candidates, Exclusions: exclusions,
	}, layout: lay, tree: want}, append(g.probs, gp.list...)
}

// gridReadHead reads grid.json's head; ok is false when the file gives no
// year to recompute it for. A value of another type reads as its zero,
// which the comparison names.
func gridReadHead(gp *problems, gridJSON []byte) (h gridHead, ok bool) {
	doc := parseFile(gp, gridJSON)
	text := func(n *jnode, kind jkind) string {
		if n != nil && n.kind == kind {
			return n.text
		}
		return ""
	}
	h = gridHead{pinned: text(doc.get("year_pinned"), jBool) == "true", release: doc.get("source").str("release")}
	year, err := strconv.Atoi(text(doc.get("year"), jNum))
	if doc != nil && err != nil {
		gp.add("", "year", "is not a year: no reference year to recompute the file for")
	}
	h.year = year
	return h, doc != nil && err == nil
}

// gridChecker is the check of grid.json against the CSV's rows.
type gridChecker struct {
	file   string                      // the CSV's path, for messages
	byArea map[string]map[int]*gridRow // area → year → row
	probs  []Problem
}

// index files the rows by area and year and returns the exclusions, by
// line: a repeat is excluded, a second row that differs a problem.
func (g *gridChecker) index(rows []gridRow) []ManifestGridExclusion {
	g.byArea = map[string]map[int]*gridRow{}
	exclusions := []ManifestGridExclusion{}
	for i := range rows {
		row := &rows[i]
		if g.byArea[row.area] == nil {
			g.byArea[row.area] = map[int]*gridRow{}
		}
		years := g.byArea[row.area]
		if first := years[row.year]; first != nil {
			if first.iso3 != row.iso3 || first.areaType != row.areaType || first.raw != row.raw {
				g.probs = append(g.probs, Problem{File: g.file, Where: fmt.Sprintf("line %d", row.line),
					Msg: fmt.Sprintf("a second row for %s %d (%s %q) differs from line %d's (%s %q)", row.area, row.year, gridOrDash(row.iso3), row.raw, first.line, gridOrDash(first.iso3), first.raw)})
				continue
			}
			row.excluded = fmt.Sprintf("exact duplicate of line %d", first.line)
		} else {
			years[row.year] = row
		}
		if row.excluded != "" {
			exclusions = append(exclusions, ManifestGridExclusion{Area: row.area, ISO3: row.iso3, Year: row.year, Line: row.line, Value: row.raw, Reason: row.excluded})
		}
	}
	sort.Slice(exclusions, func(i, j int) bool { return exclusions[i].Line < exclusions[j].Line })
	return exclusions
}

// ruleYear applies the reference-year rule, from the latest year down,
// and returns what it saw of each year and the year it picked (0: none).
func (g *gridChecker) ruleYear() ([]ManifestGridYear, int) {
	countries, world := map[int]int{}, map[int]bool{}
	latest, earliest := 0, 0
	for _, years := range g.byArea {
		for y, r := range years {
			if r.excluded != "" {
				continue
			}
			if gridCountryTypes[r.areaType] {
				countries[y]++
			}
			if r.area == gridWorld {
				world[y] = true
			}
			latest = max(latest, y)
			if earliest == 0 || y < earliest {
				earliest = y
			}
		}
	}
	candidates := []ManifestGridYear{}
	for y := latest; y >= earliest && latest > 0; y-- {
		c := ManifestGridYear{Year: y, World: world[y], Countries: countries[y], CountriesYearBefore: countries[y-1]}
		c.Complete = c.World && c.Countries*10 >= c.CountriesYearBefore*9 // 90%, in integers
		candidates = append(candidates, c)
		if c.Complete {
			return candidates, y
		}
	}
	return candidates, 0
}

// recompute is grid.json for the reference year of head: every area with
// a usable value up to it, by name (byte order), with its value for the
// year or else its latest earlier one (a fallback), and the row each
// listed area comes from.
func (g *gridChecker) recompute(head gridHead, in *gridInputs) (*jnode, []*gridRow) {
	var from []*gridRow
	for _, name := range slices.Sorted(maps.Keys(g.byArea)) {
		var best *gridRow
		for y, r := range g.byArea[name] {
			if y <= head.year && r.excluded == "" && (best == nil || y > best.year) {
				best = r
			}
		}
		if best != nil {
			from = append(from, best)
		}
	}
	areas := jarr()
	for _, r := range from {
		v, _ := strconv.ParseFloat(r.raw, 64) // a used row's value is a plain decimal (gridExcluded)
		areas.vals = append(areas.vals, jobj().set("name", jstr(r.area)).set("iso3", jstr(r.iso3)).set("area_type", jstr(r.areaType)).
			set("year", jint(r.year)).set("fallback", jbool(r.year != head.year)).set("g_co2e_per_kwh", jnum(floatText(v))))
	}
	text := in.text
	return jobj().set("version", jstr("1")).set("data_version", jstr(in.dataVersion)).
		set("year", jint(head.year)).set("year_pinned", jbool(head.pinned)).set("unit", jstr(text.Unit)).
		set("source", jobj().set("name", jstr(text.Name)).set("title", jstr(text.Title)).set("url", jstr(in.url)).
			set("release", jstr(gridRelease(head.release, text))).set("year", jint(head.year)).set("retrieved", jstr(in.retrieved)).
			set("licence", jstr(text.Licence)).set("definition", jstr(text.Definition))).
		set("areas", areas), from
}

// gridRelease is source.release as recomputed: the release name the build
// was told (the CSV carries none), when it is plain text and not another
// spelling of the fixed text for none; else the fixed text.
func gridRelease(name string, text *sourcetext.Ember) string {
	if name == "" || !utf8.ValidString(name) || strings.IndexFunc(name, unicode.IsControl) >= 0 ||
		strings.EqualFold(strings.TrimSpace(name), text.ReleaseNotStated) {
		return text.ReleaseNotStated
	}
	return name
}

// compare compares grid.json with the recomputed want, naming each
// differing area's field with the CSV row it comes from.
func (g *gridChecker) compare(gp *problems, want *jnode, from []*gridRow, gridJSON []byte, in *gridInputs) {
	rows := map[*jnode]*gridRow{}
	for i, a := range want.get("areas").vals {
		rows[a] = from[i]
	}
	fixed := map[string]bool{"unit": true, "name": true, "title": true, "licence": true, "definition": true}
	d := &jdiff{ps: gp, note: func(parent *jnode, key string) string {
		year := want.get("year").text
		switch r := rows[parent]; {
		case r != nil && key == "g_co2e_per_kwh":
			return fmt.Sprintf(" from %s (Value %q)", g.at(r.line), r.raw)
		case r != nil && (key == "year" || key == "fallback"):
			return fmt.Sprintf(" from %s (the area's latest usable value up to %s is %d's)", g.at(r.line), year, r.year)
		case r != nil:
			return " from " + g.at(r.line)
		case parent == want && key == "areas":
			return fmt.Sprintf(" (every area with a usable value up to %s, by name)", year)
		case fixed[key] && (parent == want || parent == want.get("source")):
			return " (the reviewed text, internal/sourcetext/ember.json)"
		case key == "release":
			return " (the release name the build was told, or the reviewed text for none)"
		case key == "data_version":
			return " (the manifest's date)"
		case key == "url":
			return " (the URL the manifest records for " + in.name + ")"
		case key == "retrieved":
			return " (the date the manifest records " + in.name + " was retrieved on)"
		}
		return ""
	}}
	d.tree(gridJSON, writeTree(want), want)
}

// at names a line of the CSV.
func (g *gridChecker) at(line int) string { return fmt.Sprintf("%s line %d", g.file, line) }

func gridOrDash(s string) string {
	if s == "" {
		return "no ISO code"
	}
	return s
}
