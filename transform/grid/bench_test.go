package grid

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/leadgreen/greentokens/transform/grid/gridtest"
)

// The benchmarks and the memory test run on the full-size, Ember-shaped CSV
// that ../shared/tools/ember-synth writes (about 40 MB at scale 1; its
// intensity rows are the real ones, the other rows synthetic; at scale N
// every area appears N times under new names, so the kept rows grow N-fold
// too).
//
//	go test -tags scale ./transform/grid -run '^$' -bench . -benchtime 5x
//	GREENTOKENS_MEMTEST=1 go test -tags scale ./transform/grid -run TestMemoryFlat -v

// synthCSV returns the path of ember-synth's CSV at the given scale.
func synthCSV(tb testing.TB, scale int) string { return gridtest.SynthCSV(tb, scale) }

// stage runs the Ember stage on a file: ingest (parse, sha256, the bytes
// copied to the archive, io.Discard here) or, with parseOnly, Parse.
func stage(path string, parseOnly bool, wrap func(io.Reader) io.Reader) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if wrap != nil {
		r = wrap(f)
	}
	if parseOnly {
		return Parse(r)
	}
	t, _, err := ingest(r, io.Discard)
	return t, err
}

// heapSampler is a reader that, every `every` bytes, collects garbage and
// records the live heap: the memory the stage holds at that point of the
// stream, its buffers and the rows kept so far. Sampling is driven by the
// bytes read, not by the clock, so it is deterministic.
type heapSampler struct {
	r           io.Reader
	every, next int64
	read        int64
	base        uint64
	peak        uint64
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func (s *heapSampler) sample() {
	if h := liveHeap(); h > s.base && h-s.base > s.peak {
		s.peak = h - s.base
	}
}

func (s *heapSampler) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.read += int64(n)
	if s.read >= s.next {
		s.sample()
		s.next = s.read + s.every
	}
	return n, err
}

// memory is what one run of the stage held, in bytes.
type memory struct {
	size     int64  // the CSV
	values   int    // intensity rows kept
	peak     uint64 // largest live heap sampled while streaming, above the start
	retained uint64 // live heap after the run, holding the table
}

// working is the memory the stage held beyond the table it returns.
func (m memory) working() int64 { return int64(m.peak) - int64(m.retained) }

func measure(tb testing.TB, path string, parseOnly bool) memory {
	tb.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	s := &heapSampler{every: 2 << 20, base: liveHeap()}
	t, err := stage(path, parseOnly, func(r io.Reader) io.Reader { s.r = r; return s })
	if err != nil {
		tb.Fatal(err)
	}
	s.sample()
	m := memory{size: fi.Size(), values: t.Len(), peak: s.peak}
	if h := liveHeap(); h > s.base {
		m.retained = h - s.base
	}
	runtime.KeepAlive(t)
	return m
}

func benchStage(b *testing.B, parseOnly bool) {
	for _, scale := range []int{1, 4} {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			path := synthCSV(b, scale)
			m := measure(b, path, parseOnly) // once, untimed: the memory figures
			b.SetBytes(m.size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := stage(path, parseOnly, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(m.peak)/(1<<20), "peak-MiB")
			b.ReportMetric(float64(m.retained)/(1<<20), "table-MiB")
			b.ReportMetric(float64(m.values), "values")
		})
	}
}

// BenchmarkIngest is the Ember stage as the build runs it: parse, sha256 of
// the bytes as published, and a copy of them to the archive (io.Discard
// here).
func BenchmarkIngest(b *testing.B) { benchStage(b, false) }

// BenchmarkParse is the parser alone.
func BenchmarkParse(b *testing.B) { benchStage(b, true) }

// TestMemoryFlat checks that the stage's memory does not grow with the file:
// on the scale-4 CSV (four times the bytes, four times the kept rows) the
// working memory, the peak live heap while streaming less the table
// returned, stays within 1 MiB of scale 1's plus 128 bytes per extra kept
// row (the duplicate index and name table grow with the kept rows), the
// table costs no more per row, and the peak stays under 1/16 of the file.
// The live heap is sampled after a collection every 2 MiB read.
//
// By default it runs on CSVs generated here (10 and 40 MB, a few seconds);
// with GREENTOKENS_MEMTEST=1 on ember-synth's full-size ones (about 200 MB
// of CSV written on first run, then cached; about 15 s).
func TestMemoryFlat(t *testing.T) {
	// The file: ember-synth's with GREENTOKENS_MEMTEST=1 (about 200 MB of
	// CSV, 15 s), else a stream generated here in Ember's layout (about 10
	// and 40 MB, never on disk).
	file := func(scale int) string {
		if os.Getenv("GREENTOKENS_MEMTEST") != "" {
			return synthCSV(t, scale)
		}
		p := filepath.Join(t.TempDir(), fmt.Sprintf("generated-scale%d.csv", scale))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, generatedCSV(200*scale)); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return p
	}
	m1 := measure(t, file(1), false)
	m4 := measure(t, file(4), false)
	for _, m := range []memory{m1, m4} {
		t.Logf("%6.1f MB CSV, %5d values: peak live heap %5.2f MiB, table %5.2f MiB, working %5.2f MiB",
			float64(m.size)/1e6, m.values, float64(m.peak)/(1<<20), float64(m.retained)/(1<<20), float64(m.working())/(1<<20))
	}
	if m4.size < 3*m1.size {
		t.Fatalf("scale 4 is %d bytes, scale 1 %d: not a bigger file", m4.size, m1.size)
	}
	if limit := m1.working() + 1<<20 + 128*int64(m4.values-m1.values); m4.working() > limit {
		t.Errorf("working memory grows with the file: %d bytes at scale 4, %d at scale 1 (limit %d)", m4.working(), m1.working(), limit)
	}
	per1, per4 := float64(m1.retained)/float64(m1.values), float64(m4.retained)/float64(m4.values)
	if per4 > 1.25*per1 {
		t.Errorf("table costs %.0f bytes per value at scale 4, %.0f at scale 1", per4, per1)
	}
	// A row is 40 bytes and its Value's text; the slice's spare capacity,
	// the places and the map that finds them add a little (61 bytes a
	// value measured; 167 when each row held its own area strings and the
	// table kept the parser's map of the rows seen).
	if per4 > 128 {
		t.Errorf("table costs %.0f bytes per value at scale 4, more than 128", per4)
	}
	if int64(m4.peak) > m4.size/16 {
		t.Errorf("peak live heap %d bytes for a %d-byte file", m4.peak, m4.size)
	}
}

// generatedCSV streams a CSV in Ember's long format: areas "Area N" (and
// World), each with 25 years of intensity rows among 40 rows of other
// categories each, as the real file has them.
func generatedCSV(areas int) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriter(pw)
		w.WriteString("Area,ISO 3 code,Year,Area type,Continent,Ember region,EU,OECD,G20,G7,ASEAN,Category,Subcategory,Variable,Unit,Value,YoY absolute change,YoY % change\n")
		for a := 0; a <= areas; a++ {
			name, iso, typ := fmt.Sprintf("Area %d", a), "", "Region"
			if a == areas {
				name = "World"
			}
			for year := 2000; year <= 2024; year++ {
				for k := 0; k < 40; k++ {
					fmt.Fprintf(w, "%s,%s,%d,%s,,,,,,,,Electricity generation,Fuel,Fuel %d,TWh,%d.%02d,1.00,2.00\n", name, iso, year, typ, k, a+k, year%100)
				}
				fmt.Fprintf(w, "%s,%s,%d,%s,,,,,,,,Power sector emissions,CO2 intensity,CO2 intensity,gCO2/kWh,%d.%02d,,\n", name, iso, year, typ, 100+a%700, year%100)
			}
		}
		pw.CloseWithError(w.Flush())
	}()
	return pr
}

// BenchmarkParseJuly is the parser on ember-wide's CSV (the July 2026
// layout, about 14 MB), and TestMemoryFlat's figures for it.
func BenchmarkParseJuly(b *testing.B) {
	path := gridtest.WideCSV(b)
	m := measure(b, path, true)
	b.SetBytes(m.size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := stage(path, true, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.peak)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(m.values), "values")
}
