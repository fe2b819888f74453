package validate

// Ember's yearly CSV, read with encoding/csv in either of its layouts, told
// by its header (gridLayoutOf): the long one, whose intensity rows are the
// Power sector emissions / CO2 intensity rows, and the July 2026 one, one
// row per area, year and electricity source, whose intensity is the
// Emissions intensity of the Total generation row.

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The columns and intensity rows of the long layout, by header name (the
// ISO column was once "Country code"), and of the July 2026 layout, which
// the manifest names and records the header of.
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
	gridCategory    = "Power sector emissions"
	gridVariable    = "CO2 intensity"
	gridUnit        = "gCO2/kWh"

	gridWideLayout   = "july-2026"
	gridWideName     = "ember/release_generation_yearly_global.csv"
	gridColSource    = "Electricity source"
	gridColIntensity = "Emissions intensity (gCO2e/kWh)"
	gridTotal        = "Total generation"
)

// The area types of an intensity row, in each layout (the country type was
// once "Country").
var (
	gridAreaTypes     = map[string]bool{"Country or economy": true, "Country": true, "Region": true}
	gridWideAreaTypes = map[string]bool{"Country or economy": true, "Region": true}
)

// Bounds of the CSV (grid.MaxLineBytes, grid.MaxAreaBytes and the
// plausibility bound of transform/grid, mirrored): a line as a record is
// read, an area's name (as a model's slug is bounded), and a plausible
// intensity in g CO2e/kWh (all-coal grids are near 1,100).
const (
	gridMaxLine      = 64 << 10
	gridMaxArea      = 200
	gridMaxIntensity = 2000
)

// gridRow is an intensity row of the CSV.
type gridRow struct {
	area, iso3, areaType string
	year                 int
	raw                  string // the intensity as published
	line                 int
	excluded             string // why the row is left out; "" when it is used
}

// gridLayout is what the header of the archived CSV told.
type gridLayout struct {
	name   string   // gridWideLayout, or "" for the long layout
	header []string // the July 2026 layout's header; nil for the long one
}

func (l gridLayout) wide() bool { return l.name == gridWideLayout }

// gridLayoutOf tells the layout by the columns only one layout has: the
// long one when the header holds a larger share of its own (Category,
// Variable, Unit, Value) than of the July 2026 one's (Electricity source,
// the intensity), else the July 2026 one, whose missing columns are named.
func gridLayoutOf(head []string) gridLayout {
	wide, long := 0, 0
	for _, c := range head {
		switch c {
		case gridColSource, gridColIntensity:
			wide++
		case gridColCategory, gridColVariable, gridColUnit, gridColValue:
			long++
		}
	}
	if long*2 > wide*4 { // long/4 > wide/2
		return gridLayout{}
	}
	return gridLayout{name: gridWideLayout, header: head}
}

// gridReadCSV reads the intensity rows of the CSV from r (file names it in
// problems) in the layout its header tells. It returns nil rows when the
// file cannot be read as that layout at all.
func gridReadCSV(r io.Reader, file string) ([]gridRow, []Problem, gridLayout) {
	var probs []Problem
	bad := func(line int, format string, a ...any) {
		where := ""
		if line == 1 {
			where = "header"
		} else if line > 1 {
			where = fmt.Sprintf("line %d", line)
		}
		probs = append(probs, Problem{File: file, Where: where, Msg: fmt.Sprintf(format, a...)})
	}
	br := bufio.NewReaderSize(&gridLineBound{r: r, line: 1, start: 1}, 1<<20)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" { // a byte order mark, as the builder allows one
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
	head = slices.Clone(head) // the reader reuses the slice
	lay := gridLayoutOf(head)
	col, value, areaTypes := gridColumns(head, lay, bad), gridColValue, gridAreaTypes
	if len(probs) > 0 {
		return nil, probs, lay
	}
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
		y, yerr := strconv.Atoi(rec[col[gridColYear]])
		switch area, unit := rec[col[gridColArea]], rec[col[gridColUnit]]; {
		case !lay.wide() && unit != gridUnit:
			bad(line, "has CO2 intensity in %q, not %q", unit, gridUnit)
			continue
		case len(area) > gridMaxArea:
			bad(line, "Area is %d bytes, over the %d-byte bound on an area name", len(area), gridMaxArea)
			continue
		case yerr != nil || y < 1000 || y > 9999:
			bad(line, "Year %q is not a year", rec[col[gridColYear]])
			continue
		}
		// A row keeps copies of the few fields it needs, not the record's
		// line they are cut from.
		row := gridRow{area: strings.Clone(rec[col[gridColArea]]), iso3: strings.Clone(rec[col[gridColISO3]]),
			areaType: strings.Clone(rec[col[gridColAreaType]]), year: y, raw: strings.Clone(rec[col[value]]), line: line}
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
		var seen []string
		for _, s := range slices.Sorted(maps.Keys(sources)) {
			seen = append(seen, strconv.Quote(s))
		}
		bad(0, "has no rows with %s %q (its sources: %s)", gridColSource, gridTotal, strings.Join(seen, ", "))
	}
	return nil, probs, lay
}

// gridColumns finds the columns the layout needs by header name,
// reporting a header field that is not UTF-8, a name given twice and a
// column missing.
func gridColumns(head []string, lay gridLayout, bad func(line int, format string, a ...any)) map[string]int {
	if i := gridNotUTF8(head); i >= 0 {
		bad(1, "field %d has bytes that are not UTF-8", i+1)
		return nil
	}
	col := map[string]int{}
	for i, name := range head {
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

// gridNotUTF8 is the index of the first field of rec that is not UTF-8, or
// -1.
func gridNotUTF8(rec []string) int {
	return slices.IndexFunc(rec, func(f string) bool { return !utf8.ValidString(f) })
}

var gridDecimal = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// gridPlain reports whether s is a plain non-negative decimal (digits,
// optionally a point and digits) in float64's range.
func gridPlain(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && gridDecimal.MatchString(s)
}

// gridExcluded says why a row with the published value raw is left out,
// as the manifest says it ("" when it is used); ok is false when raw is no
// blemish but not a plain decimal either.
func gridExcluded(raw string) (reason string, ok bool) {
	v, err := strconv.ParseFloat(raw, 64)
	switch {
	case gridPlain(raw) && v > gridMaxIntensity:
		return fmt.Sprintf("above the %d g CO2e/kWh plausibility bound", gridMaxIntensity), true
	case gridPlain(raw):
		return "", true
	case raw == "":
		return "blank value", true
	case strings.HasPrefix(raw, "-") && gridPlain(raw[1:]):
		return "negative intensity", true
	case err == nil && (math.IsNaN(v) || math.IsInf(v, 0)):
		return "non-finite intensity", true
	}
	return "", false
}

// gridLineBound passes r's bytes on until a record's line is over
// gridMaxLine, then fails with a *gridLineTooLong, before encoding/csv
// (which holds a record whole) reads it: the bytes up to the line end that
// ends the record, a quoted field's line ends counted with the rest. A
// line end ends the record when the quotes before it since the record
// began are even.
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

// gridEmberSource is the manifest's entry of Ember's CSV, under the name of
// either layout, or nil.
func gridEmberSource(s *snap) *ManifestSource {
	if src := s.source(gridWideName); src != nil {
		return src
	}
	return s.source(gridEmberName)
}

// gridLayoutCheck: the manifest's entry of Ember's CSV says what the
// archived file's header told, its layout's name and, for the July 2026
// layout only, the layout and the header.
func gridLayoutCheck(src *ManifestSource, lay gridLayout, where string) []Problem {
	want := ManifestSource{Name: gridEmberName}
	if lay.wide() {
		want = ManifestSource{Name: gridWideName, Layout: gridWideLayout, Header: lay.header}
	}
	var probs []Problem
	for _, f := range []struct {
		field     string
		got, want any
	}{{"name", src.Name, want.Name}, {"layout", src.Layout, want.Layout}, {"header", src.Header, want.Header}} {
		if !reflect.DeepEqual(f.got, f.want) {
			probs = append(probs, Problem{File: ManifestPath, Where: where, Field: f.field,
				Msg: fmt.Sprintf("is %q, but the archived file's header makes it %q", f.got, f.want)})
		}
	}
	return probs
}
