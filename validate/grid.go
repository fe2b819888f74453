package validate

// The grid check: grid.json against the archived Ember CSV, re-read here
// with encoding/csv and the specification's rules, independently of
// transform/grid (which has its own CSV scanner and writes grid.json).

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// gridMaxIntensity bounds a plausible intensity, g CO2e/kWh (all-coal
// grids are near 1,100).
const gridMaxIntensity = 2000

// gridMaxArea bounds an area's name, as a model's slug is bounded
// (grid.MaxAreaBytes, mirrored).
const gridMaxArea = 200

// Where the grid lives in a snapshot.
const (
	gridEmberName  = "ember/yearly_full_release_long_format.csv" // upstream name
	gridSourceFile = "sources/" + gridEmberName                  // archived path
	gridOutputFile = "grid.json"
)

// Ember's yearly long-format CSV as the specification describes it: columns
// by header name (the ISO column was once "Country code", the country area
// type once "Country"), and the intensity rows by Category, Variable, Unit.
const (
	gridColArea     = "Area"
	gridColISO3     = "ISO 3 code"
	gridColISO3Old  = "Country code"
	gridColYear     = "Year"
	gridColAreaType = "Area type"
	gridColCategory = "Category"
	gridColVariable = "Variable"
	gridColUnit     = "Unit"
	gridColValue    = "Value"

	gridCategory = "Power sector emissions"
	gridVariable = "CO2 intensity"
	gridUnit     = "gCO2/kWh"

	gridWorld = "World"
)

// gridCountryTypes are the area types counted as countries by the rule.
var gridCountryTypes = map[string]bool{"Country or economy": true, "Country": true}

var gridAreaTypes = map[string]bool{"Country or economy": true, "Country": true, "Region": true}

// gridSnapshotCheck is the snapshot check: a snapshot with grid.json or
// Ember's CSV needs both and the manifest's grid block; grid.json passes
// gridCheck, recomputed with the manifest's date, URL and retrieval date.
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
	where := fmt.Sprintf("sources (%s)", src.Path)
	retrieved, ok := gridRetrievalDate(src.Retrieved)
	if !ok {
		mp.add(where, "retrieved", "%q is neither an RFC 3339 time nor a YYYY-MM-DD date", src.Retrieved)
	}
	sum, probs := gridCheck(f, src.Path, gj, &gridInputs{&s.text.Ember, m.Date, src.URL, retrieved, src.Name})
	f.Close()
	probs = append(mp.list, probs...)
	if sum == nil {
		return probs
	}
	probs = append(probs, gridLayoutCheck(src, sum.layout, where)...)
	if m.Grid != nil {
		probs = append(probs, gridManifestCheck(m.Grid, &sum.manifest)...)
	}
	return probs
}

// gridRetrievalDate is the UTC date of a manifest retrieval time (RFC 3339),
// or the date itself when the manifest gives a date.
func gridRetrievalDate(s string) (string, bool) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC().Format(time.DateOnly), true
	}
	return s, isDate(s)
}

// gridManifestCheck compares the manifest's grid block with the one the
// archived CSV gives, part by part.
func gridManifestCheck(got, want *ManifestGrid) []Problem {
	mp := &problems{file: ManifestPath}
	type counts struct {
		Year, Areas, AreasWithoutYear, Fallbacks int
		YearPinned                               bool
	}
	gc := counts{got.Year, got.Areas, got.AreasWithoutYear, got.Fallbacks, got.YearPinned}
	wc := counts{want.Year, want.Areas, want.AreasWithoutYear, want.Fallbacks, want.YearPinned}
	if gc != wc {
		mp.add("", "grid", "is %+v, but the archived CSV gives %+v", gc, wc)
	}
	if got.YearRule != want.YearRule {
		mp.add("", "grid.year_rule", "is %q, but the rule is %q", got.YearRule, want.YearRule)
	}
	if !slices.Equal(got.YearCandidates, want.YearCandidates) {
		mp.add("", "grid.year_candidates", "is %+v, but the archived CSV gives %+v", got.YearCandidates, want.YearCandidates)
	}
	if !slices.Equal(got.Exclusions, want.Exclusions) {
		mp.add("", "grid.exclusions", "is %+v, but the archived CSV gives %+v", got.Exclusions, want.Exclusions)
	}
	return mp.list
}

// gridRow is an intensity row of the CSV.
type gridRow struct {
	area, iso3, areaType string
	year                 int
	raw                  string // Value as published
	line                 int
	// excluded is why the row is left out ("" when it is used).
	excluded string
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

// gridSummary is what the check recomputed: the manifest's grid block.
type gridSummary struct {
	manifest ManifestGrid
	layout   gridLayout // what the CSV's header told
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
	}, layout: lay}, append(g.probs, gp.list...)
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
	h = gridHead{pinned: text(doc.get("year_pinned"), jBool) == "true", release: text(doc.get("source").get("release"), jStr)}
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
		v, _ := gridPrinted(r.raw) // a used row's value is a plain decimal (gridExcluded)
		areas.vals = append(areas.vals, jobj().set("name", jstr(r.area)).set("iso3", jstr(r.iso3)).set("area_type", jstr(r.areaType)).
			set("year", jint(r.year)).set("fallback", jbool(r.year != head.year)).set("g_co2e_per_kwh", jnum(v)))
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
	d.tree(gridJSON, want)
}

// at names a line of the CSV.
func (g *gridChecker) at(line int) string { return fmt.Sprintf("%s line %d", g.file, line) }

func gridOrDash(s string) string {
	if s == "" {
		return "no ISO code"
	}
	return s
}

// gridReadCSV reads the intensity rows of the CSV in the layout its header
// tells (gridLayoutOf): the Total generation rows of the July 2026 layout,
// or the CO2 intensity rows of the long one. It returns nil rows when the
// file cannot be read as that layout at all.
func gridReadCSV(r io.Reader, file string) ([]gridRow, []Problem, gridLayout) {
	var probs []Problem
	bad := func(line int, format string, a ...any) {
		where := ""
		switch {
		case line == 1:
			where = "header"
		case line > 1:
			where = fmt.Sprintf("line %d", line)
		}
		probs = append(probs, Problem{File: file, Where: where, Msg: fmt.Sprintf(format, a...)})
	}
	br := bufio.NewReaderSize(&gridLineBound{r: r, line: 1, start: 1}, 1<<20)
	// A byte order mark may stand before a quoted header.
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	head, err := cr.Read()
	var long *gridLineTooLong
	switch {
	case errors.As(err, &long):
		bad(long.line, "%v", long)
		return nil, probs, gridLayout{}
	case err != nil:
		bad(1, "has no header: %v", err)
		return nil, probs, gridLayout{}
	}
	head = append([]string(nil), head...) // the reader reuses the slice
	lay := gridLayoutOf(head)
	col := gridColumns(head, lay, bad)
	if len(probs) > 0 {
		return nil, probs, lay
	}
	value, areaTypes := gridColValue, gridAreaTypes
	if lay.wide() {
		value, areaTypes = gridColIntensity, gridWideAreaTypes
	}
	rows := []gridRow{}
	sources, totals := map[string]bool{}, 0 // the July 2026 layout's, for a file without a Total generation row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			switch {
			case errors.As(err, &pe):
				bad(pe.StartLine, "is not valid CSV: %v", pe.Err)
			case errors.As(err, &long):
				bad(long.line, "%v", long)
			default:
				bad(0, "cannot be read: %v", err)
			}
			return nil, probs, lay
		}
		if i := gridNotUTF8(rec); i >= 0 {
			line, _ := cr.FieldPos(i)
			bad(line, "field %d (%s) has bytes that are not UTF-8", i+1, head[i])
			return nil, probs, lay
		}
		if lay.wide() {
			if source := rec[col[gridColSource]]; source != gridTotal {
				if totals == 0 && len(sources) < 32 {
					sources[strings.Clone(source)] = true
				}
				continue
			}
			totals++
		} else if rec[col[gridColCategory]] != gridCategory || rec[col[gridColVariable]] != gridVariable {
			continue
		}
		line, _ := cr.FieldPos(0)
		if unit := rec[col[gridColUnit]]; !lay.wide() && unit != gridUnit {
			bad(line, "has CO2 intensity in %q, not %q", unit, gridUnit)
			continue
		}
		if area := rec[col[gridColArea]]; len(area) > gridMaxArea {
			bad(line, "Area is %d bytes, over the %d-byte bound on an area name", len(area), gridMaxArea)
			continue
		}
		// A row keeps copies of the few fields it needs, not the record's
		// line they are cut from.
		row := gridRow{area: strings.Clone(rec[col[gridColArea]]), iso3: strings.Clone(rec[col[gridColISO3]]),
			areaType: strings.Clone(rec[col[gridColAreaType]]), raw: strings.Clone(rec[col[value]]), line: line}
		y, err := strconv.Atoi(rec[col[gridColYear]])
		if err != nil || y < 1000 || y > 9999 {
			bad(line, "Year %q is not a year", rec[col[gridColYear]])
			continue
		}
		row.year = y
		if !areaTypes[row.areaType] {
			bad(line, "Area type %q is none of the known ones", row.areaType)
		}
		var ok bool
		if row.excluded, ok = gridExcluded(row.raw); !ok {
			bad(line, "%s %q is not a plain decimal", value, row.raw)
			continue
		}
		rows = append(rows, row)
	}
	switch {
	case len(rows) > 0:
		return rows, probs, lay
	case !lay.wide():
		bad(0, "has no rows with Category %q, Variable %q, Unit %q", gridCategory, gridVariable, gridUnit)
	case totals == 0:
		seen := slices.Sorted(maps.Keys(sources))
		for i, s := range seen {
			seen[i] = strconv.Quote(s)
		}
		bad(0, "has no rows with %s %q (its sources: %s)", gridColSource, gridTotal, strings.Join(seen, ", "))
	}
	return nil, probs, lay
}

// gridMaxLine bounds a line of the CSV as a record is read: its bytes up
// to the line end that ends the record, a quoted field's line ends
// counted with the rest (grid.MaxLineBytes, mirrored). encoding/csv holds
// a record whole; past the bound the CSV is not read further.
const gridMaxLine = 64 << 10

// gridLineBound passes r's bytes on until a record's line is over
// gridMaxLine, then fails with a *gridLineTooLong, before encoding/csv
// reads it. A line end ends the record when the quotes before it since
// the record began are even.
type gridLineBound struct {
	r           io.Reader
	line, start int // the line read, and the line the record starts on, from 1
	run         int // the record's bytes so far
	quoted      bool
	err         error
}

// gridLineTooLong is a record over gridMaxLine, by the line it starts on.
type gridLineTooLong struct{ line int }

func (e *gridLineTooLong) Error() string {
	return fmt.Sprintf("has a record of over %d bytes before its line end (the bound on a line); not read further", gridMaxLine)
}

func (b *gridLineBound) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	for i := 0; i < n; i++ {
		switch p[i] {
		case '"':
			b.quoted = !b.quoted
		case '\n':
			b.line++
			if !b.quoted {
				b.start, b.run = b.line, 0
				continue
			}
		}
		if b.run++; b.run > gridMaxLine {
			b.err = &gridLineTooLong{line: b.start}
			return i, b.err
		}
	}
	return n, err
}

// gridColumns finds the columns of the specification by header name (the
// ISO column was once "Country code"), reporting a header field that is
// not UTF-8, a name given twice and a column the layout needs missing.
func gridColumns(head []string, lay gridLayout, bad func(line int, format string, a ...any)) map[string]int {
	if i := gridNotUTF8(head); i >= 0 {
		bad(1, "field %d has bytes that are not UTF-8", i+1)
		return nil
	}
	col := map[string]int{}
	for i, name := range head {
		if i == 0 {
			name = strings.TrimPrefix(name, "\ufeff")
		}
		if _, dup := col[name]; dup {
			bad(1, "names column %q twice", name)
		}
		col[name] = i
	}
	needed := []string{gridColArea, gridColISO3, gridColYear, gridColAreaType, gridColSource, gridColIntensity}
	if !lay.wide() {
		needed = []string{gridColArea, gridColISO3, gridColYear, gridColAreaType, gridColCategory, gridColVariable, gridColUnit, gridColValue}
		if _, ok := col[gridColISO3]; !ok {
			if i, ok := col[gridColISO3Old]; ok {
				col[gridColISO3] = i
			}
		}
	}
	for _, name := range needed {
		if _, ok := col[name]; !ok {
			bad(1, "has no column %q", name)
		}
	}
	return col
}

// gridExcluded says why a row with the published Value raw is left out,
// as the manifest says it ("" when it is used); ok is false when raw is no
// blemish but not a plain decimal either.
func gridExcluded(raw string) (reason string, ok bool) {
	if _, plain := gridPrinted(raw); plain {
		if v, _ := strconv.ParseFloat(raw, 64); v > gridMaxIntensity {
			return fmt.Sprintf("above the %d g CO2e/kWh plausibility bound", gridMaxIntensity), true
		}
		return "", true
	}
	f, err := strconv.ParseFloat(raw, 64)
	_, negative := gridPrinted(strings.TrimPrefix(raw, "-"))
	switch {
	case raw == "":
		return "blank value", true
	case strings.HasPrefix(raw, "-") && negative:
		return "negative intensity", true
	case err == nil && (math.IsNaN(f) || math.IsInf(f, 0)):
		return "non-finite intensity", true
	}
	return "", false
}

// gridNotUTF8 is the index of the first field of rec that is not UTF-8, or
// -1.
func gridNotUTF8(rec []string) int {
	for i, f := range rec {
		if !utf8.ValidString(f) {
			return i
		}
	}
	return -1
}

// gridPrinted returns how grid.json prints a published Value: the nearest
// float64 to the decimal, in shortest round-trip form, ".0" added when
// integral. ok is false when raw is not a plain non-negative decimal
// (digits, optionally a point and digits).
func gridPrinted(raw string) (string, bool) {
	if !gridDecimal.MatchString(raw) {
		return "", false
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return "", false
	}
	return floatText(v), true
}

var gridDecimal = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
