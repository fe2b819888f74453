package validate

// The grid check: grid.json against the archived Ember CSV, re-read here
// (emberscan.go) with the specification's rules, independently of
// transform/grid (which has its own CSV scanner and writes grid.json).

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
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
)

var gridAreaTypes = map[string]bool{"Country or economy": true, "Country": true, "Region": true}

func init() { Register("grid", gridSnapshotCheck) }

// Grid rechecks grid.json against the Ember CSV it was built from, read
// from archivedCSV (the snapshot's archived copy: the bytes as published,
// uncompressed). It re-reads the CSV itself and checks that every listed
// area's iso3, area_type, year and g_co2e_per_kwh are those of the CSV, the
// value printed as published (shortest round-trip form of the published
// decimal, ".0" when integral); that year is the latest year with a World
// value unless year_pinned says the build was told the year; and that every
// area with a value for that year is listed, once, in name order. It returns
// nil, or an error listing every problem, one per line, each naming the
// file, the area and the field:
//
//	grid.json: areas[12] (Germany): g_co2e_per_kwh is 341.0, but sources/ember/yearly_full_release_long_format.csv line 1994 says 344.14
func Grid(archivedCSV io.Reader, gridJSON []byte) error {
	_, probs := gridCheck(archivedCSV, gridSourceFile, gridJSON)
	return gridError(probs)
}

func gridError(probs []Problem) error { return problemsError("grid", probs) }

// gridSnapshotCheck is the snapshot check: when a snapshot has grid.json or
// archives Ember's CSV, it needs both, and the manifest's grid block (the
// archive's size and sha256, those of the bytes as published, are checked
// with every other file's); grid.json passes Grid's checks, and its data
// version, URL and retrieval date are the manifest's.
func gridSnapshotCheck(s *Snap) []Problem {
	m := s.Manifest
	src, out := s.Source(gridEmberName), s.Output(gridOutputFile)
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
		return []Problem{mp("outputs", "lists no %s, but the snapshot archives %s", gridOutputFile, gridEmberName)}
	}
	var probs []Problem
	if m.Grid == nil {
		probs = append(probs, mp("grid", "is missing, but the snapshot has %s", gridOutputFile))
	}
	gj, err := s.Read(out.Path)
	if err != nil {
		return append(probs, Problem{File: out.Path, Msg: fmt.Sprintf("cannot be read: %v", err)})
	}
	f, err := s.Open(src.Path)
	if err != nil {
		return append(probs, Problem{File: src.Path, Msg: fmt.Sprintf("cannot be read: %v", err)})
	}
	defer f.Close()
	// The file's size and sha256 are checked with every other file's.
	sum, more := gridCheck(f, src.Path, gj)
	probs = append(probs, more...)
	where := fmt.Sprintf("sources (%s)", src.Path)
	if sum == nil {
		return probs
	}
	if m.Grid != nil {
		want := ManifestGrid{Year: sum.year, Areas: sum.areas, AreasWithoutYear: sum.areasWithoutYear}
		if *m.Grid != want {
			probs = append(probs, mp("grid", "is %+v, but the archived CSV gives %+v", *m.Grid, want))
		}
	}
	gp := func(field, format string, a ...any) {
		probs = append(probs, Problem{File: out.Path, Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	if sum.doc.DataVersion != m.Date {
		gp("data_version", "is %q, but the manifest's date is %q", sum.doc.DataVersion, m.Date)
	}
	if sum.doc.Source.URL != src.URL {
		gp("source.url", "is %q, but the manifest has %s fetched from %q", sum.doc.Source.URL, gridEmberName, src.URL)
	}
	if d, ok := gridRetrievalDate(src.Retrieved); !ok {
		probs = append(probs, Problem{File: ManifestPath, Where: where, Field: "retrieved", Msg: fmt.Sprintf("%q is neither an RFC 3339 time nor a YYYY-MM-DD date", src.Retrieved)})
	} else if sum.doc.Source.Retrieved != d {
		gp("source.retrieved", "is %q, but the manifest has %s retrieved on %s", sum.doc.Source.Retrieved, gridEmberName, d)
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

// gridRow is an intensity row of the CSV.
type gridRow struct {
	area, iso3, areaType string
	year                 int
	raw                  string // Value as published
	line                 int
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
		Value    json.RawMessage `json:"g_co2e_per_kwh"`
	} `json:"areas"`
}

// gridSummary is what the check recomputed, for the manifest's grid block.
type gridSummary struct {
	year, areas, areasWithoutYear int
	doc                           *gridDoc
}

// gridCheck reads the CSV from r (file names it in problems) and checks
// gridJSON against it.
func gridCheck(r io.Reader, file string, gridJSON []byte) (*gridSummary, []Problem) {
	rows, probs := gridReadCSV(r, file)
	if rows == nil {
		return nil, probs
	}
	gf := func(where, field, format string, a ...any) {
		probs = append(probs, Problem{File: gridOutputFile, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	var doc gridDoc
	dec := json.NewDecoder(bytes.NewReader(gridJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		gf("", "", "cannot be decoded strictly: %v", err)
		return nil, probs
	}
	if dec.More() {
		gf("", "", "has data after the top-level value")
	}
	at := func(line int) string { return fmt.Sprintf("%s line %d", file, line) }

	// Index the source: area → year → rows; the latest year with a World value.
	byArea := map[string]map[int][]*gridRow{}
	latestWorld, worldLine := 0, 0
	for i := range rows {
		row := &rows[i]
		years := byArea[row.area]
		if years == nil {
			years = map[int][]*gridRow{}
			byArea[row.area] = years
		}
		if prev := years[row.year]; len(prev) > 0 {
			probs = append(probs, Problem{File: file, Where: fmt.Sprintf("line %d", row.line), Msg: fmt.Sprintf("duplicate value for %s %d (first on line %d)", row.area, row.year, prev[0].line)})
		}
		years[row.year] = append(years[row.year], row)
		if row.area == gridWorld && row.year > latestWorld {
			latestWorld, worldLine = row.year, row.line
		}
	}

	year := doc.Year
	switch {
	case !doc.YearPinned && latestWorld == 0:
		gf("", "year", "is %d and not pinned, but the source has no value for %s", year, gridWorld)
	case !doc.YearPinned && year != latestWorld:
		gf("", "year", "is %d and not pinned, but the latest year with a %s value is %d (%s)", year, gridWorld, latestWorld, at(worldLine))
	}
	if doc.Source.Year != year {
		gf("", "source.year", "is %d, but year is %d", doc.Source.Year, year)
	}

	listed := map[string]int{} // name → index in areas
	for i, a := range doc.Areas {
		where := fmt.Sprintf("areas[%d] (%s)", i, a.Name)
		if j, dup := listed[a.Name]; dup {
			gf(where, "name", "is listed twice (also areas[%d])", j)
			continue
		}
		listed[a.Name] = i
		if i > 0 && a.Name <= doc.Areas[i-1].Name {
			gf(where, "name", "is out of order: areas are sorted by name (byte order), and areas[%d] is %q", i-1, doc.Areas[i-1].Name)
		}
		if a.Year != year {
			gf(where, "year", "is %d, but year is %d", a.Year, year)
		}
		src := byArea[a.Name][year]
		if len(src) == 0 {
			if _, known := byArea[a.Name]; known {
				gf(where, "name", "has no %d value in the source", year)
			} else {
				gf(where, "name", "is not an area of the source")
			}
			continue
		}
		row := src[0]
		if a.ISO3 != row.iso3 {
			gf(where, "iso3", "is %q, but %s says %q", a.ISO3, at(row.line), row.iso3)
		}
		if a.AreaType != row.areaType {
			gf(where, "area_type", "is %q, but %s says %q", a.AreaType, at(row.line), row.areaType)
		}
		got := string(a.Value)
		want, ok := gridPrinted(row.raw)
		switch {
		case !ok:
			gf(where, "g_co2e_per_kwh", "is %s, but %s says %q, which is not a plain decimal", got, at(row.line), row.raw)
		case got == want:
		case gridSameNumber(got, want):
			gf(where, "g_co2e_per_kwh", "is printed %s; the published form of %q (%s) is %s", got, row.raw, at(row.line), want)
		default:
			gf(where, "g_co2e_per_kwh", "is %s, but %s says %s", got, at(row.line), row.raw)
		}
	}

	// Every area with a value for year is listed.
	var names []string
	with := 0
	for name, years := range byArea {
		if len(years[year]) == 0 {
			continue
		}
		with++
		if _, ok := listed[name]; !ok {
			names = append(names, name)
		}
	}
	if with == 0 {
		gf("", "year", "is %d, but the source has no value for it", year)
	}
	sort.Strings(names)
	for _, name := range names {
		row := byArea[name][year][0]
		gf("", "areas", "lacks %s (%s), which has a %d value of %s on %s", name, gridOrDash(row.iso3), year, row.raw, at(row.line))
	}
	return &gridSummary{year: year, areas: len(doc.Areas), areasWithoutYear: len(byArea) - with, doc: &doc}, probs
}

func gridOrDash(s string) string {
	if s == "" {
		return "no ISO code"
	}
	return s
}

// gridReadCSV reads the intensity rows of the CSV. It returns nil rows when
// the file cannot be read as Ember's layout at all.
func gridReadCSV(r io.Reader, file string) ([]gridRow, []Problem) {
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
	cr := newEmberScanner(r, 1<<20, gridVariable)
	_, head, err := cr.Next()
	if err != nil {
		bad(1, "has no header: %v", err)
		return nil, probs
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
	if _, ok := col[gridColISO3]; !ok {
		if i, ok := col[gridColISO3Old]; ok {
			col[gridColISO3] = i
		}
	}
	for _, name := range []string{gridColArea, gridColISO3, gridColYear, gridColAreaType, gridColCategory, gridColVariable, gridColUnit, gridColValue} {
		if _, ok := col[name]; !ok {
			bad(1, "has no column %q", name)
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	iArea, iISO, iYear, iType := col[gridColArea], col[gridColISO3], col[gridColYear], col[gridColAreaType]
	iCat, iVar, iUnit, iValue := col[gridColCategory], col[gridColVariable], col[gridColUnit], col[gridColValue]
	rows := []gridRow{}
	for {
		line, rec, err := cr.Next()
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
			return nil, probs
		}
		if rec[iCat] != gridCategory || rec[iVar] != gridVariable {
			continue
		}
		if rec[iUnit] != gridUnit {
			bad(line, "has CO2 intensity in %q, not %q", rec[iUnit], gridUnit)
			continue
		}
		row := gridRow{area: rec[iArea], iso3: rec[iISO], areaType: rec[iType], raw: rec[iValue], line: line}
		y, err := strconv.Atoi(rec[iYear])
		if err != nil || y < 1000 || y > 9999 {
			bad(line, "Year %q is not a year", rec[iYear])
			continue
		}
		row.year = y
		if !gridAreaTypes[row.areaType] {
			bad(line, "Area type %q is none of the known ones", row.areaType)
		}
		if _, ok := gridPrinted(row.raw); !ok {
			bad(line, "Value %q is not a plain decimal", row.raw)
		} else if v, _ := strconv.ParseFloat(row.raw, 64); v > gridMaxIntensity {
			bad(line, "Value %q is above the %d g CO2e/kWh plausibility bound", row.raw, gridMaxIntensity)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		bad(0, "has no rows with Category %q, Variable %q, Unit %q", gridCategory, gridVariable, gridUnit)
		return nil, probs
	}
	return rows, probs
}

// gridPrinted returns how grid.json prints a published Value: the nearest
// float64 to the decimal, in shortest round-trip form, ".0" added when
// integral. ok is false when raw is not a plain non-negative decimal
// (digits, optionally a point and digits).
func gridPrinted(raw string) (string, bool) {
	whole, frac, point := strings.Cut(raw, ".")
	if !gridDigits(whole) || (point && !gridDigits(frac)) {
		return "", false
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return "", false
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s, true
}

func gridDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// gridSameNumber reports whether two JSON number texts are the same float64.
func gridSameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}
