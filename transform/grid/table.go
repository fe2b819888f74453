package grid

import (
	"iter"

	"github.com/leadgreen/greentokens/format"
)

// Table is what the stage read from the CSV.
//
// Its usable rows are held compactly (Len, Value, All), since they are the
// memory the stage keeps: ember-synth's scale 4 has 21,796 of them. A row
// is 40 bytes and its Value text; its area, ISO code and area type, which
// a few hundred areas repeat over every year, are held once each.
type Table struct {
	rows   []row
	places []place
	// placeIDs finds a place in places.
	placeIDs map[place]uint32
	// Excluded holds the intensity rows left out, in file order.
	Excluded []format.GridExclusion
	// Records counts the data records read, of every category.
	Records int
	// ISO3Column is the header the ISO 3 codes were read from: ColISO3 or
	// ColISO3Old.
	ISO3Column string
	// Layout is the file's, as its header tells it.
	Layout Layout
	// Header is the file's header, column for column.
	Header []string
}

// place is an area as a row names it.
type place struct{ area, iso3, areaType string }

// row is a usable intensity row (Value): its place in Table.places.
type row struct {
	place uint32
	year  int32
	line  int
	g     float64
	raw   string
}

// Len is the number of usable intensity rows.
func (t *Table) Len() int { return len(t.rows) }

// Value returns the i-th usable intensity row, in file order.
func (t *Table) Value(i int) Value {
	r := &t.rows[i]
	p := &t.places[r.place]
	return Value{Area: p.area, ISO3: p.iso3, AreaType: p.areaType, Year: int(r.year), GCO2PerKWh: r.g, Raw: r.raw, Line: r.line}
}

// All yields every usable intensity row, in file order.
func (t *Table) All() iter.Seq[Value] {
	return func(yield func(Value) bool) {
		for i := range t.rows {
			if !yield(t.Value(i)) {
				return
			}
		}
	}
}

// add appends a usable row. Its year has four digits (the parser's check).
func (t *Table) add(v Value) {
	k := place{v.Area, v.ISO3, v.AreaType}
	id, ok := t.placeIDs[k]
	if !ok {
		if t.placeIDs == nil {
			t.placeIDs = map[place]uint32{}
		}
		id = uint32(len(t.places))
		t.places = append(t.places, k)
		t.placeIDs[k] = id
	}
	t.rows = append(t.rows, row{place: id, year: int32(v.Year), line: v.Line, g: v.GCO2PerKWh, raw: v.Raw})
}
