package validate

// The grid check: grid.json against the archived Ember CSV, re-read here
// with encoding/csv and the specification's rules, independently of
// transform/grid (which has its own CSV scanner and writes grid.json).

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
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
	"unicode/utf8"
)

// gridMaxIntensity bounds a plausible intensity, g CO2e/kWh (all-coal
// grids are near 1,100).
const gridMaxIntensity = 2000

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

	// gridYearRule is the specification's reference-year rule, as the
	// manifest records it: a year is complete when World has a usable
	// value and the countries with one number at least 90% of those with
	// one in the year before.
	gridYearRule = "the latest complete year: World has a value, and the countries with a value number at least 90% of those with a value in the year before"
)

// gridCountryTypes are the area types counted as countries by the rule.
var gridCountryTypes = map[string]bool{"Country or economy": true, "Country": true}

var gridAreaTypes = map[string]bool{"Country or economy": true, "Country": true, "Region": true}

// gridSnapshotCheck is the snapshot check: a snapshot with grid.json or
// Ember's CSV needs both and the manifest's grid block; grid.json passes
// gridCheck, and its data version, URL and retrieval date are the
// manifest's.
func gridSnapshotCheck(s *snap) []Problem {
	m := s.manifest
	src, out := gridEmberSource(s), s.output(gridOutputFile)
	if src == nil && out == nil && m.Grid == nil {
		return nil // a snapshot without a grid
	}
	mp := func(field, format string, a ...any) Problem {
		return Problem{File: ManifestPath, Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	switch {
	case src == nil:
		return []Problem{mp("sources", "has no %s, which grid.json is built from", gridEmberName)}
	case out == nil:
		return []Problem{mp("outputs", "lists no %s, but the snapshot archives %s", gridOutputFile, src.Name)}
	}
	var probs []Problem
	if m.Grid == nil {
		probs = append(probs, mp("grid", "is missing, but the snapshot has %s", gridOutputFile))
	}
	gj, err := s.read(out.Path)
	if err != nil {
		return append(probs, cannotRead(out.Path, err))
	}
	f, err := s.open(src.Path)
	if err != nil {
		return append(probs, cannotRead(src.Path, err))
	}
	sum, more := gridCheck(f, src.Path, gj)
	f.Close()
	probs = append(probs, more...)
	where := fmt.Sprintf("sources (%s)", src.Path)
	if sum == nil {
		return probs
	}
	probs = append(probs, gridLayoutCheck(src, sum.layout, where)...)
	if m.Grid != nil {
		probs = append(probs, gridManifestCheck(m.Grid, &sum.manifest)...)
	}
	gp := func(field, format string, a ...any) {
		probs = append(probs, Problem{File: out.Path, Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	if sum.doc.DataVersion != m.Date {
		gp("data_version", "is %q, but the manifest's date is %q", sum.doc.DataVersion, m.Date)
	}
	if sum.doc.Source.URL != src.URL {
		gp("source.url", "is %q, but the manifest has %s fetched from %q", sum.doc.Source.URL, src.Name, src.URL)
	}
	if d, ok := gridRetrievalDate(src.Retrieved); !ok {
		probs = append(probs, Problem{File: ManifestPath, Where: where, Field: "retrieved", Msg: fmt.Sprintf("%q is neither an RFC 3339 time nor a YYYY-MM-DD date", src.Retrieved)})
	} else if sum.doc.Source.Retrieved != d {
		gp("source.retrieved", "is %q, but the manifest has %s retrieved on %s", sum.doc.Source.Retrieved, src.Name, d)
	}
	return probs
}

// gridRetrievalDate is the UTC date of a manifest retrieval time (RFC 3339),
// or the date itself when the manifest gives a date.
func gridRetrievalDate(s string) (string, bool) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC().Format(time.DateOnly), true
	}
	if _, err := time.Parse(time.DateOnly, s); err == nil {
		return s, true
	}
	return "", false
}

// gridManifestCheck compares the manifest's grid block with the one the
// archived CSV gives, part by part.
func gridManifestCheck(got, want *ManifestGrid) []Problem {
	var probs []Problem
	mp := func(field, format string, a ...any) {
		probs = append(probs, Problem{File: ManifestPath, Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	type counts struct {
		Year, Areas, AreasWithoutYear, Fallbacks int
		YearPinned                               bool
	}
	gc := counts{got.Year, got.Areas, got.AreasWithoutYear, got.Fallbacks, got.YearPinned}
	wc := counts{want.Year, want.Areas, want.AreasWithoutYear, want.Fallbacks, want.YearPinned}
	if gc != wc {
		mp("grid", "is %+v, but the archived CSV gives %+v", gc, wc)
	}
	if got.YearRule != want.YearRule {
		mp("grid.year_rule", "is %q, but the rule is %q", got.YearRule, want.YearRule)
	}
	if !slices.Equal(got.YearCandidates, want.YearCandidates) {
		mp("grid.year_candidates", "is %+v, but the archived CSV gives %+v", got.YearCandidates, want.YearCandidates)
	}
	if !slices.Equal(got.Exclusions, want.Exclusions) {
		mp("grid.exclusions", "is %+v, but the archived CSV gives %+v", got.Exclusions, want.Exclusions)
	}
	return probs
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

// gridDoc is grid.json as this package reads it.
type gridDoc struct {
	Version     string `json:"version"`
	DataVersion string `json:"data_version"`
	Year        int    `json:"year"`
	YearPinned  bool   `json:"year_pinned"`
	Unit        string `json:"unit"`
	Source      struct {
		Name       string `json:"name"`
		Title      string `json:"title"`
		URL        string `json:"url"`
		Release    string `json:"release"`
		Year       int    `json:"year"`
		Retrieved  string `json:"retrieved"`
		Licence    string `json:"licence"`
		Definition string `json:"definition"`
	} `json:"source"`
	Areas []struct {
		Name     string          `json:"name"`
		ISO3     string          `json:"iso3"`
		AreaType string          `json:"area_type"`
		Year     int             `json:"year"`
		Fallback bool            `json:"fallback"`
		Value    json.RawMessage `json:"g_co2e_per_kwh"`
	} `json:"areas"`
}

// gridSummary is what the check recomputed: the manifest's grid block.
type gridSummary struct {
	manifest ManifestGrid
	doc      *gridDoc
	layout   gridLayout // what the CSV's header told
}

// gridCheck reads the CSV from r (file names it in problems) and checks
// gridJSON against its usable rows: year is the latest complete year
// (gridYearRule) unless pinned, World has a value for it, and every area
// with a usable value up to it is listed once, in name order, with that
// row's fields, the value printed as published:
//
//	grid.json: areas[12] (Germany): g_co2e_per_kwh is 341.0, but sources/ember/yearly_full_release_long_format.csv line 1994 says 344.14
func gridCheck(r io.Reader, file string, gridJSON []byte) (*gridSummary, []Problem) {
	rows, probs, lay := gridReadCSV(r, file)
	if rows == nil {
		return nil, probs
	}
	g := &gridChecker{file: file, probs: probs}
	dec := json.NewDecoder(bytes.NewReader(gridJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g.doc); err != nil {
		g.fail("", "", "cannot be decoded strictly: %v", err)
		return nil, g.probs
	}
	if dec.More() {
		g.fail("", "", "has data after the top-level value")
	}
	exclusions := g.index(rows)
	candidates, ruleYear := g.ruleYear()
	doc, year := &g.doc, g.doc.Year
	switch {
	case !doc.YearPinned && ruleYear == 0:
		g.fail("", "year", "is %d and not pinned, but no year of the source is complete (%s)", year, gridYearRule)
	case !doc.YearPinned && year != ruleYear:
		g.fail("", "year", "is %d and not pinned, but the latest complete year is %d (%s; counts %+v)", year, ruleYear, gridYearRule, candidates)
	}
	if r := g.byArea[gridWorld][year]; r == nil || r.excluded != "" {
		g.fail("", "year", "is %d, but the source has no usable %s value for it", year, gridWorld)
	}
	if doc.Source.Year != year {
		g.fail("", "source.year", "is %d, but year is %d", doc.Source.Year, year)
	}
	with, fallbacks := g.checkListed(g.checkAreas())
	return &gridSummary{manifest: ManifestGrid{
		Year: year, Areas: len(doc.Areas), AreasWithoutYear: len(g.byArea) - with, Fallbacks: fallbacks,
		YearRule: gridYearRule, YearPinned: doc.YearPinned, YearCandidates: candidates, Exclusions: exclusions,
	}, doc: doc, layout: lay}, g.probs
}

// gridChecker is the check of grid.json against the CSV's rows.
type gridChecker struct {
	file   string // the CSV's path, for messages
	doc    gridDoc
	byArea map[string]map[int]*gridRow // area → year → row
	probs  []Problem
}

func (g *gridChecker) fail(where, field, format string, a ...any) {
	g.probs = append(g.probs, Problem{File: gridOutputFile, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)})
}

// at names a line of the CSV.
func (g *gridChecker) at(line int) string { return fmt.Sprintf("%s line %d", g.file, line) }

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

// pick returns an area's row: its usable value for grid.json's year, or
// its latest earlier one; nil when it has none.
func (g *gridChecker) pick(area string) *gridRow {
	var best *gridRow
	for y, r := range g.byArea[area] {
		if y <= g.doc.Year && r.excluded == "" && (best == nil || y > best.year) {
			best = r
		}
	}
	return best
}

// checkAreas checks each listed area against its row, and returns the
// listed names with their index in areas.
func (g *gridChecker) checkAreas() map[string]int {
	areas, year := g.doc.Areas, g.doc.Year
	listed := map[string]int{}
	for i, a := range areas {
		where := fmt.Sprintf("areas[%d] (%s)", i, a.Name)
		if j, dup := listed[a.Name]; dup {
			g.fail(where, "name", "is listed twice (also areas[%d])", j)
			continue
		}
		listed[a.Name] = i
		if i > 0 && a.Name <= areas[i-1].Name {
			g.fail(where, "name", "is out of order: areas are sorted by name (byte order), and areas[%d] is %q", i-1, areas[i-1].Name)
		}
		row := g.pick(a.Name)
		if row == nil {
			if _, known := g.byArea[a.Name]; known {
				g.fail(where, "name", "has no usable value up to %d in the source", year)
			} else {
				g.fail(where, "name", "is not an area of the source")
			}
			continue
		}
		at := g.at(row.line)
		if a.Year != row.year {
			g.fail(where, "year", "is %d, but the area's latest usable value up to %d is %d's (%s)", a.Year, year, row.year, at)
		}
		if want := row.year != year; a.Fallback != want {
			g.fail(where, "fallback", "is %v, but the value is %d's and the reference year %d (%s)", a.Fallback, row.year, year, at)
		}
		if a.ISO3 != row.iso3 {
			g.fail(where, "iso3", "is %q, but %s says %q", a.ISO3, at, row.iso3)
		}
		if a.AreaType != row.areaType {
			g.fail(where, "area_type", "is %q, but %s says %q", a.AreaType, at, row.areaType)
		}
		got := string(a.Value)
		want, ok := gridPrinted(row.raw)
		switch {
		case !ok:
			g.fail(where, "g_co2e_per_kwh", "is %s, but %s says %q, which is not a plain decimal", got, at, row.raw)
		case got == want:
		case gridSameNumber(got, want):
			g.fail(where, "g_co2e_per_kwh", "is printed %s; the published form of %q (%s) is %s", got, row.raw, at, want)
		default:
			g.fail(where, "g_co2e_per_kwh", "is %s, but %s says %s", got, at, row.raw)
		}
	}
	return listed
}

// checkListed reports every area with a usable value that areas lacks,
// and counts those with a value for the year and those falling back.
func (g *gridChecker) checkListed(listed map[string]int) (with, fallbacks int) {
	var names []string
	for name := range g.byArea {
		row := g.pick(name)
		if row == nil {
			continue
		}
		if row.year == g.doc.Year {
			with++
		} else {
			fallbacks++
		}
		if _, ok := listed[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		row := g.pick(name)
		g.fail("", "areas", "lacks %s (%s), which has a %d value of %s on %s", name, gridOrDash(row.iso3), row.year, row.raw, g.at(row.line))
	}
	return with, fallbacks
}

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
	br := bufio.NewReaderSize(r, 1<<20)
	// A byte order mark may stand before a quoted header.
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
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
			if errors.As(err, &pe) {
				bad(pe.StartLine, "is not valid CSV: %v", pe.Err)
			} else {
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

// gridSameNumber reports whether two JSON number texts are the same float64.
func gridSameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}
