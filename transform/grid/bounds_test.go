package grid

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/boundtest"
)

const longHeader = "Area,ISO 3 code,Year,Area type,Continent,Ember region,EU,OECD,G20,G7,ASEAN,Category,Subcategory,Variable,Unit,Value,YoY absolute change,YoY % change\n"

// TestLineBound: a record over MaxLineBytes, a line without a line end (8
// MB of it) or a quoted field of line ends, fails the stage with an error
// naming the line the record starts on, once no more than the bound and
// the read buffer have been read of it, and with less than a few read
// buffers allocated: the stage's memory stays flat whatever the file. The
// header is held to it too, by the reader that archives as it parses. A
// record at the bound is read.
func TestLineBound(t *testing.T) {
	record := "World,,2024,Region,,,,,,,,Electricity generation,Fuel,"
	for _, tc := range []struct {
		name string
		head string
		fill byte
		line int
	}{
		{"a line without a line end", longHeader + record, 'x', 2},
		{"a quoted field of line ends", longHeader + record + "Coal,TWh,1.0,,\n" + record + `"`, '\n', 3},
		{"a header without a line end", "Area,ISO 3 code,", 'x', 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, how := range []string{"Parse", "Stream"} {
				src := &boundtest.Reader{Head: []byte(tc.head), Fill: tc.fill}
				in := io.LimitReader(src, 8<<20)
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				var err error
				if how == "Parse" {
					_, err = Parse(in)
				} else if rd, rerr := NewReader(in); rerr != nil {
					err = rerr
				} else {
					_, _, err = rd.Stream(io.Discard)
				}
				runtime.ReadMemStats(&after)
				want := fmt.Sprintf("ember line %d: a line too long: over 65536 bytes before the line end that ends its record (grid.MaxLineBytes)", tc.line)
				if err == nil || err.Error() != want {
					t.Errorf("%s: %v; want %q", how, err, want)
				}
				if limit := int64(len(tc.head) + MaxLineBytes + readBuffer); src.N() > limit {
					t.Errorf("%s read %d bytes of an 8 MB record; at most %d", how, src.N(), limit)
				}
				if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*readBuffer {
					t.Errorf("%s allocated %d bytes for an 8 MB record; at most %d", how, alloc, 4*readBuffer)
				}
			}
		})
	}

	t.Run("a record at the bound", func(t *testing.T) {
		var b strings.Builder
		b.WriteString(longHeader)
		line := record + "Coal,TWh,1.0,,"
		b.WriteString(strings.Replace(line, "Fuel", "Fuel"+strings.Repeat("x", MaxLineBytes-len(line)), 1) + "\n")
		b.WriteString("World,,2024,Region,,,,,,,,Power sector emissions,CO2 intensity,CO2 intensity,gCO2/kWh,474.0,,\n")
		if _, err := Parse(strings.NewReader(b.String())); err != nil {
			t.Errorf("Parse of a record of %d bytes: %v", MaxLineBytes, err)
		}
	})
}

// TestAreaNameBound: an intensity row whose Area is over MaxAreaBytes is
// an error naming the line and the field, in either layout; a name at the
// bound is read, and published as it is.
func TestAreaNameBound(t *testing.T) {
	for _, tc := range []struct {
		layout, header, row string
	}{
		{"long", "Area,ISO 3 code,Year,Area type,Category,Subcategory,Variable,Unit,Value\n",
			"%s,,2024,Region,Power sector emissions,CO2 intensity,CO2 intensity,gCO2/kWh,474.0\n"},
		{"July 2026", "Area,ISO 3 code,Year,Area type,Electricity source,Emissions intensity (gCO2e/kWh)\n",
			"%s,,2024,Region,Total generation,474.0\n"},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			csv := func(name string) string {
				return tc.header + fmt.Sprintf(tc.row, "World") + fmt.Sprintf(tc.row, name)
			}
			at := strings.Repeat("a", MaxAreaBytes)
			table, err := Parse(strings.NewReader(csv(at)))
			if err != nil {
				t.Fatalf("a name of %d bytes: %v", MaxAreaBytes, err)
			}
			if got := table.Value(1).Area; got != at {
				t.Errorf("the name at the bound is read as %d bytes", len(got))
			}
			_, err = Parse(strings.NewReader(csv(at + "a")))
			want := `ember line 3: field "Area": 201 bytes ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"...), over the 200-byte bound on an area name (grid.MaxAreaBytes)`
			if err == nil || err.Error() != want {
				t.Errorf("a name of %d bytes: %v; want %q", MaxAreaBytes+1, err, want)
			}
		})
	}
}
