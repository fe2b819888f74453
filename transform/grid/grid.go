// Package grid is the Ember stage of a snapshot: it streams Ember's Yearly
// Electricity Data into the table of grid carbon intensities, archives the
// bytes as published, and builds grid.json (format.Grid) for one reference
// year. Pricing a model's energy on a grid, and finding an area by what a
// person types, are package pricing's.
//
// Layouts. The header tells the layout (layout.go). Since July 2026 Ember
// publishes release_generation_yearly_global.csv (LayoutJuly2026), one row
// per area, year and electricity source with the metrics as columns: the
// stage keeps the rows whose Electricity source is "Total generation" and
// reads their "Emissions intensity (gCO2e/kWh)"; the other sources' rows,
// which carry their own intensities, are never read. Every earlier snapshot
// archives yearly_full_release_long_format.csv (LayoutLong), one row per
// area, year and variable: the stage keeps the rows with Category "Power
// sector emissions", Variable "CO2 intensity" and Unit "gCO2/kWh", and a row
// is skipped once its Category differs.
//
// Reading. Columns are found by their header name, never by position, and
// the columns a layout does not need are ignored wherever they stand; the
// file may start with a UTF-8 byte order mark (before a quoted header too),
// lines may end in CRLF and fields may be quoted (commas, quotes and
// newlines inside). Every line is checked to be UTF-8, whatever row it
// belongs to. The file is never held whole in memory; the memory the stage
// uses grows with the intensity rows it keeps, not with the file (see
// TestMemoryFlat): a record's line over MaxLineBytes is an error before
// encoding/csv holds it (TestLineBound).
//
// Blemishes are exclusions: an intensity row whose value is blank, negative,
// non-finite ("NaN", "Inf") or above MaxGCO2PerKWh is left out of the table
// and listed in Table.Excluded with its reason, and so is a row that repeats
// an earlier one exactly. Upstream changes are loud: a missing column, an
// intensity row with another unit, an unknown area type, an area name over
// MaxAreaBytes, a value that is not a number at all, two rows for one area
// and year with different values, bytes that are not UTF-8, or a file
// without any intensity row is an error that names the line ("ember line
// 1234: field "Value": "n/a" is not a number"), or the column a header
// lacks, or in the July 2026 layout the Electricity source values of a
// file without a Total generation row.
// Line numbers are those of the line a record starts on, counting the
// header as line 1 (a byte that is not UTF-8 is named by its own line).
//
// grid.json. See Grid for the keys, in the order they are written, Build
// for the reference year and the fallbacks, and schemas/grid.schema.json.
// The fixed text (unit, source name, title, licence, definition) is in
// source.json, embedded.
package grid

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
)

// Columns the stage reads, by header name.
const (
	ColArea     = "Area"
	ColISO3     = "ISO 3 code"   // today's header
	ColISO3Old  = "Country code" // older releases
	ColYear     = "Year"
	ColAreaType = "Area type"
	ColCategory = "Category"
	ColVariable = "Variable"
	ColUnit     = "Unit"
	ColValue    = "Value"
)

// The intensity rows: the stage keeps the rows with these three values.
const (
	Category = "Power sector emissions"
	Variable = "CO2 intensity"
	Unit     = "gCO2/kWh"
)

// Area types the stage accepts; any other is an error.
const (
	AreaTypeCountry    = "Country or economy" // today's
	AreaTypeCountryOld = "Country"            // older releases
	AreaTypeRegion     = "Region"
)

// MaxAreaBytes bounds an area's name, which grid.json, the API, the site
// and the MCP server publish, as a model's slug is bounded
// (transform.MaxSlugLen): Ember's longest is under 40 bytes. A longer
// name is an error, not an exclusion: a name is the area's key, not a
// value to step around, and an exclusion would carry it into the
// manifest.
const MaxAreaBytes = 200

// readBuffer is the size of the buffer the CSV is read through.
const readBuffer = 1 << 20

// Value is one intensity row of the CSV.
type Value struct {
	Area     string // "Germany", "World", "ASEAN"
	ISO3     string // "DEU"; empty for regions
	AreaType string // AreaTypeCountry, AreaTypeCountryOld or AreaTypeRegion, as published
	Year     int
	// GCO2PerKWh is Raw parsed: the nearest float64 to the published decimal.
	GCO2PerKWh float64
	Raw        string // the Value field as published: "344.14"
	Line       int    // the line the row starts on (the header is line 1)
}

// Why an intensity row is excluded (Exclusion.Reason); an exact duplicate's
// reason is "exact duplicate of line N".
const (
	ReasonBlank     = "blank value"
	ReasonNegative  = "negative intensity"
	ReasonNonFinite = "non-finite intensity"
)

// ReasonImplausible is the reason of a value above format.MaxGCO2PerKWh
// (TestReasonImplausible holds the figure to the bound).
const ReasonImplausible = "above the 2000 g CO2e/kWh plausibility bound"

// Parse reads an Ember yearly CSV, in either layout, from r. It does not
// archive.
func Parse(r io.Reader) (*Table, error) {
	p, sc, err := start(bufio.NewReaderSize(newLineBound(r), readBuffer))
	if err != nil {
		return nil, err
	}
	return p.run(sc)
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

const bom = "\ufeff"

type parser struct {
	cols   columns
	intern map[string]string
	// areas numbers the area names, for seen's keys.
	areas map[string]uint32
	// seen is the first row of each area and year (areaYear): its index
	// in t.rows, or -1-i for t.Excluded[i].
	seen map[uint64]int
	// excludedTypes holds the area type of each row of t.Excluded.
	excludedTypes []string
	// sources holds the Electricity source values seen before the first
	// SourceTotal row (at most maxSourcesNamed).
	sources map[string]bool
	t       Table
}

// start reads the byte order mark, if any, and the header from r.
func start(r *bufio.Reader) (*parser, *csvScanner, error) {
	// A byte order mark goes before the header, which may be quoted: the
	// CSV starts after it.
	switch b, err := r.Peek(len(bom)); {
	case err == nil && string(b) == bom:
		r.Discard(len(bom))
	case err != nil && err != io.EOF:
		return nil, nil, lineError(err) // a header over MaxLineBytes names its line
	}
	sc := newCSVScanner(r)
	_, err := sc.next()
	if err == io.EOF {
		return nil, nil, fmt.Errorf("ember: empty file, no header")
	}
	if err != nil {
		return nil, nil, lineError(err)
	}
	p := &parser{intern: map[string]string{}, areas: map[string]uint32{}, seen: map[uint64]int{}}
	if p.cols, err = readHeader(sc); err != nil {
		return nil, nil, err
	}
	p.t.ISO3Column = p.cols.iso3Name
	p.t.Layout, p.t.Header = p.cols.layout, p.cols.header
	return p, sc, nil
}

// run reads the records after the header to the end of the input.
func (p *parser) run(sc *csvScanner) (*Table, error) {
	c := &p.cols
	long := c.layout == LayoutLong
	for {
		line, err := sc.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, lineError(err)
		}
		p.t.Records++
		// In the long layout Category first: it rules out all but a few
		// rows in a hundred.
		if long {
			if sc.field(c.category) != Category || sc.field(c.variable) != Variable {
				continue
			}
		} else {
			if p.t.Len()+len(p.t.Excluded) == 0 {
				p.sawSource(sc.field(c.source))
			}
			if sc.field(c.source) != SourceTotal {
				continue
			}
		}
		if err := p.row(sc, line); err != nil {
			return nil, err
		}
	}
	if p.t.Len()+len(p.t.Excluded) == 0 {
		return nil, p.noRowsError()
	}
	// The table, without the parser: seen alone is a map entry a row.
	t := p.t
	return &t, nil
}

// sawSource notes an Electricity source value, for the error of a file
// without any SourceTotal row.
func (p *parser) sawSource(b string) {
	if _, ok := p.sources[b]; ok || len(p.sources) >= maxSourcesNamed {
		return
	}
	if p.sources == nil {
		p.sources = map[string]bool{}
	}
	p.sources[b] = true
}

// lineError names the line of a malformed record (csvError.Line).
func lineError(err error) error {
	var ce *csvError
	if errors.As(err, &ce) {
		return fmt.Errorf("ember line %d: %w", ce.Line, err)
	}
	return fmt.Errorf("ember: reading: %w", err)
}

// areaYear is seen's key for an area and a year (four digits).
func (p *parser) areaYear(area string, year int) uint64 {
	id, ok := p.areas[area]
	if !ok {
		id = uint32(len(p.areas))
		p.areas[area] = id
	}
	return uint64(id)<<32 | uint64(uint32(year))
}

func (p *parser) str(s string) string {
	if k, ok := p.intern[s]; ok {
		return k
	}
	s = strings.Clone(s) // not the record's string, which holds the whole line
	p.intern[s] = s
	return s
}

// row reads an intensity row.
func (p *parser) row(sc *csvScanner, line int) error {
	c := &p.cols
	rec := sc.field
	bad := func(col string, format string, args ...any) error {
		return fmt.Errorf("ember line %d: field %q: "+format, append([]any{line, col}, args...)...)
	}
	if c.layout == LayoutLong {
		if u := rec(c.unit); string(u) != Unit {
			return bad(ColUnit, "%q for Category %q, Variable %q; want %q", u, Category, Variable, Unit)
		}
	}
	v := Value{Line: line}
	switch area := rec(c.area); {
	case area == "":
		return fmt.Errorf("ember line %d: field %q is empty", line, ColArea)
	case len(area) > MaxAreaBytes:
		return bad(ColArea, "%d bytes (%s...), over the %d-byte bound on an area name (grid.MaxAreaBytes)", len(area), strconv.Quote(strings.ToValidUTF8(area[:32], "")), MaxAreaBytes)
	default:
		v.Area = p.str(area)
	}
	if v.ISO3 = p.str(rec(c.iso3)); !isISO3(v.ISO3) {
		return bad(c.iso3Name, "%q is not empty nor three capital letters", v.ISO3)
	}
	at := rec(c.areaType)
	if v.AreaType = c.areaTypeOf(at); v.AreaType == "" {
		return bad(ColAreaType, "unknown area type %q (want one of %s)", at, quoted(c.areaTypes))
	}
	y := rec(c.year)
	if len(y) != 4 || !digits(y) || y[0] == '0' {
		return bad(ColYear, "%q is not a year", y)
	}
	v.Year, _ = strconv.Atoi(y)
	v.Raw = strings.Clone(rec(c.value)) // not the record's string, which holds the whole line
	k := p.areaYear(v.Area, v.Year)
	if i, dup := p.seen[k]; dup {
		first := p.first(i)
		if first.ISO3 != v.ISO3 || first.AreaType != v.AreaType || first.Raw != v.Raw {
			return fmt.Errorf("ember line %d: a second row for %s %d (%s %q) differs from line %d's (%s %q)",
				line, v.Area, v.Year, orNone(v.ISO3), v.Raw, first.Line, orNone(first.ISO3), first.Raw)
		}
		p.exclude(v, fmt.Sprintf("exact duplicate of line %d", first.Line))
		return nil
	}
	p.seen[k] = p.t.Len()
	if v.Raw == "" || !isDecimal(v.Raw) || v.Raw[0] == '-' {
		p.seen[k] = -1 - len(p.t.Excluded) // excluded below, or an error
	}
	if v.Raw == "" {
		p.exclude(v, ReasonBlank)
		return nil
	}
	if !isDecimal(v.Raw) {
		if f, err := strconv.ParseFloat(v.Raw, 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			p.exclude(v, ReasonNonFinite)
			return nil
		}
		return bad(c.valueName, "%q is not a number", v.Raw)
	}
	if v.Raw[0] == '-' { // "-0.00" too: a minus sign is the blemish
		p.exclude(v, ReasonNegative)
		return nil
	}
	// A plain decimal too large for a float64 parses as +Inf with an
	// error: above the bound too.
	f, _ := strconv.ParseFloat(v.Raw, 64)
	if f > format.MaxGCO2PerKWh {
		p.seen[k] = -1 - len(p.t.Excluded)
		p.exclude(v, ReasonImplausible)
		return nil
	}
	v.GCO2PerKWh = f
	p.t.add(v)
	return nil
}

// exclude lists an intensity row as excluded.
func (p *parser) exclude(v Value, reason string) {
	p.t.Excluded = append(p.t.Excluded, format.GridExclusion{Area: v.Area, ISO3: v.ISO3, Year: v.Year, Line: v.Line, Value: v.Raw, Reason: reason})
	p.excludedTypes = append(p.excludedTypes, v.AreaType)
}

// first returns the row seen[k] points at.
func (p *parser) first(i int) Value {
	if i >= 0 {
		return p.t.Value(i)
	}
	x := p.t.Excluded[-1-i]
	return Value{Area: x.Area, ISO3: x.ISO3, AreaType: p.excludedTypes[-1-i], Year: x.Year, Raw: x.Value, Line: x.Line}
}

func orNone(iso3 string) string {
	if iso3 == "" {
		return "no ISO code"
	}
	return iso3
}

func digits[T string | []byte](b T) bool {
	for i := 0; i < len(b); i++ {
		if c := b[i]; c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isDecimal reports whether s is a plain decimal: an optional minus, digits,
// and optionally a point and more digits. No exponent, no "NaN" or "Inf",
// no spaces, no hex: what Ember publishes and what prints back unchanged.
func isDecimal(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	intPart, frac, hasPoint := strings.Cut(s, ".")
	if intPart == "" || !digits(intPart) {
		return false
	}
	return !hasPoint || (frac != "" && digits(frac))
}

func isISO3(s string) bool {
	if s == "" {
		return true
	}
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
