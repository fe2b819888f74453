package validate

// Ember's yearly CSV in the layout Ember has published since July 2026
// (release_generation_yearly_global.csv), read with encoding/csv as the
// specification describes it, independently of transform/grid: one row per
// area, year and electricity source, the metrics as columns; an area's
// intensity is "Emissions intensity (gCO2e/kWh)" on its "Total generation"
// row, and every other row is left alone. The layout is told by the
// header; a file in the long layout is read by gridReadCSV.

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// The July 2026 layout as the manifest names it and the snapshot archives it.
const (
	gridWideLayout = "july-2026"
	gridWideName   = "ember/release_generation_yearly_global.csv"

	gridColSource    = "Electricity source"
	gridColIntensity = "Emissions intensity (gCO2e/kWh)"
	gridTotal        = "Total generation"
)

// gridWideColumns are the columns the July 2026 layout needs.
var gridWideColumns = []string{gridColArea, gridColISO3, gridColYear, gridColAreaType, gridColSource, gridColIntensity}

// gridWideAreaTypes are the area types of a Total generation row.
var gridWideAreaTypes = map[string]bool{"Country or economy": true, "Region": true}

// gridLayout is what the header of the archived CSV told.
type gridLayout struct {
	name   string   // gridWideLayout, or "" for the long layout
	header []string // the July 2026 layout's header; nil for the long one
}

// gridEmberSource is the manifest's entry of Ember's CSV, under the name
// of either layout, or nil.
func gridEmberSource(s *Snap) *ManifestSource {
	if src := s.Source(gridWideName); src != nil {
		return src
	}
	return s.Source(gridEmberName)
}

// gridReadLayout reads the intensity rows of Ember's CSV in the layout its
// header has (gridIsWide).
func gridReadLayout(r io.Reader, file string) ([]gridRow, []Problem, gridLayout) {
	br := bufio.NewReaderSize(r, 1<<20)
	if !gridIsWide(br) {
		rows, probs := gridReadCSV(br, file)
		return rows, probs, gridLayout{}
	}
	rows, probs, header := gridReadWide(br, file)
	return rows, probs, gridLayout{name: gridWideLayout, header: header}
}

// gridIsWide peeks at the header in br: a layout is told by the columns
// only it has, Electricity source and the intensity column for the July
// 2026 one, Category, Variable, Unit and Value for the long one. The header
// is the long layout's when it holds a larger share of the long layout's
// own columns than of the July 2026 layout's, else the July 2026 one's
// (the current layout, whose missing columns are then named).
func gridIsWide(br *bufio.Reader) bool {
	b, _ := br.Peek(br.Size())
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	head, err := csv.NewReader(bytes.NewReader(b)).Read()
	if err != nil && !errors.Is(err, csv.ErrFieldCount) {
		return false // the long layout's reader names what is wrong
	}
	wide, long := 0, 0
	for _, c := range head {
		switch c {
		case gridColSource, gridColIntensity:
			wide++
		case gridColCategory, gridColVariable, gridColUnit, gridColValue:
			long++
		}
	}
	return long*2 <= wide*4 // long/4 <= wide/2
}

// gridReadWide reads the Total generation rows of a CSV in the July 2026
// layout, and returns its header. It returns nil rows when the file cannot
// be read as that layout at all.
func gridReadWide(br *bufio.Reader, file string) ([]gridRow, []Problem, []string) {
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
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		bad(1, "has no header: %v", err)
		return nil, probs, nil
	}
	head = slices.Clone(head) // the reader reuses the slice
	if i := gridNotUTF8(head); i >= 0 {
		bad(1, "field %d has bytes that are not UTF-8", i+1)
		return nil, probs, head
	}
	col := map[string]int{}
	for i, name := range head {
		if _, dup := col[name]; dup {
			bad(1, "names column %q twice", name)
		}
		col[name] = i
	}
	for _, name := range gridWideColumns {
		if _, ok := col[name]; !ok {
			bad(1, "has no column %q, which the July 2026 layout needs", name)
		}
	}
	if len(probs) > 0 {
		return nil, probs, head
	}
	iArea, iISO, iYear, iType := col[gridColArea], col[gridColISO3], col[gridColYear], col[gridColAreaType]
	iSource, iValue := col[gridColSource], col[gridColIntensity]
	rows := []gridRow{}
	areas := map[gridArea]*gridArea{}
	seen := map[string]bool{} // the sources of the rows before the first Total generation row
	totals := 0
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
			return nil, probs, head
		}
		line, _ := cr.FieldPos(0)
		if i := gridNotUTF8(rec); i >= 0 {
			l, _ := cr.FieldPos(i)
			bad(l, "field %d (%s) has bytes that are not UTF-8", i+1, head[i])
			return nil, probs, head
		}
		if rec[iSource] != gridTotal {
			if totals == 0 && len(seen) < 32 {
				seen[strings.Clone(rec[iSource])] = true
			}
			continue
		}
		totals++
		key := gridArea{rec[iArea], rec[iISO], rec[iType]}
		a, ok := areas[key]
		if !ok {
			a = &gridArea{strings.Clone(key.area), strings.Clone(key.iso3), strings.Clone(key.areaType)}
			areas[*a] = a
		}
		row := gridRow{gridArea: a, raw: strings.Clone(rec[iValue]), line: line}
		y, err := strconv.Atoi(rec[iYear])
		if err != nil || y < 1000 || y > 9999 {
			bad(line, "Year %q is not a year", rec[iYear])
			continue
		}
		row.year = y
		if !gridWideAreaTypes[row.areaType] {
			bad(line, "Area type %q of a %s row is none of the known ones", row.areaType, gridTotal)
		}
		if row.excluded, ok = gridExcluded(row.raw); !ok {
			bad(line, "%s %q is not a plain decimal", gridColIntensity, row.raw)
			continue
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 && totals > 0 {
		return nil, probs, head // every one named above
	}
	if len(rows) == 0 {
		sources := slices.Sorted(maps.Keys(seen))
		for i, s := range sources {
			sources[i] = strconv.Quote(s)
		}
		bad(0, "has no rows with %s %q (its sources: %s)", gridColSource, gridTotal, strings.Join(sources, ", "))
		return nil, probs, head
	}
	return rows, probs, head
}

// gridLayoutCheck compares the manifest's entry of Ember's CSV with what
// the archived file's header told: the name of its layout, and for the
// July 2026 layout its layout and header fields, which the long layout's
// entry has not.
func gridLayoutCheck(src *ManifestSource, lay gridLayout, where string) []Problem {
	var probs []Problem
	mp := func(field, format string, a ...any) {
		probs = append(probs, Problem{File: ManifestPath, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	wantName := gridEmberName
	if lay.name == gridWideLayout {
		wantName = gridWideName
	}
	if src.Name != wantName {
		mp("name", "is %q, but the archived file's header is that of %s", src.Name, wantName)
	}
	if src.Layout != lay.name {
		if lay.name == "" {
			mp("layout", "is %q, but the archived file is in Ember's long layout, which records none", src.Layout)
		} else {
			mp("layout", "is %q, but the archived file's header is that of the %s layout", src.Layout, lay.name)
		}
	}
	if lay.name != "" && !reflect.DeepEqual(src.Header, lay.header) {
		mp("header", "is %q, but the archived file's header is %q", src.Header, lay.header)
	}
	if lay.name == "" && src.Header != nil {
		mp("header", "is set, but the archived file is in Ember's long layout, which records none")
	}
	return probs
}
