package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = `goos: linux
pkg: github.com/leadgreen/greentokens/snapshots
BenchmarkFloor/read/scale=1-2         	       5	  10000000 ns/op	4000.00 MB/s	     200 B/op	       5 allocs/op
BenchmarkFloor/read+sha256/scale=1-2  	       5	  40000000 ns/op	1000.00 MB/s	     328 B/op	       6 allocs/op
BenchmarkFloor/read+sha256/scale=4-2  	       5	 200000000 ns/op	 800.00 MB/s	     328 B/op	       6 allocs/op
BenchmarkOfflineBuild/scale=4-2       	       1	2000000000 ns/op	  80.00 MB/s	        30.50 peak-RSS-MiB	47759392 B/op	  539129 allocs/op
BenchmarkOfflineVerify/scale=4-2      	       1	2500000000 ns/op	  64.00 MB/s	        30.50 peak-RSS-MiB	47759392 B/op	  539129 allocs/op
BenchmarkTenThousandModels/build-2    	       1	4000000000 ns/op	   6.00 MB/s	       120.00 peak-RSS-MiB	47759392 B/op	  9000000 allocs/op
BenchmarkAPI-2                        	     100	    250000 ns/op	  1234.5 req/s	   1.25 p99-ms	  21796 values
PASS
`

// TestTable: every result line becomes a row; the ratio to the floor uses
// the floor's rate at the row's scale (scale 1 when the name has none),
// and a row without bytes has none; a verify row's time is divided by its
// build row's below the table.
func TestTable(t *testing.T) {
	rows, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := write(&b, rows); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, line := range strings.Split(b.String(), "\n") {
		got = append(got, strings.Fields(line))
	}
	want := [][]string{
		{"stage", "MB/s", "ms", "allocs", "peak", "RSS", "MiB", "x", "floor", "other"},
		{"Floor/read/scale=1", "4000.0", "10.0", "5", "-", "0.25", "-"},
		{"Floor/read+sha256/scale=1", "1000.0", "40.0", "6", "-", "1.00", "-"},
		{"Floor/read+sha256/scale=4", "800.0", "200.0", "6", "-", "1.00", "-"},
		{"OfflineBuild/scale=4", "80.0", "2000.0", "539129", "30.5", "10.00", "-"},
		{"OfflineVerify/scale=4", "64.0", "2500.0", "539129", "30.5", "12.50", "-"},
		{"TenThousandModels/build", "6.0", "4000.0", "9000000", "120.0", "166.67", "-"},
		{"API", "-", "0.250", "-", "-", "-", "1.25", "p99-ms,", "1234", "req/s,", "21796", "values"},
		{},
		{"x", "floor:", "the", "stage's", "time", "over", "a", "read", "with", "sha256", "of", "the", "same", "bytes", "at", "1000", "MB/s", "(scale", "1),", "800", "MB/s", "(scale", "4),", "measured", "in", "this", "run"},
		{"verify", "/", "build:", "1.25x", "(OfflineVerify/scale=4)"},
		{},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("table (-want +got):\n%s\n%s", diff, b.String())
	}
}

func TestParseRejectsBrokenLines(t *testing.T) {
	if _, err := parse(strings.NewReader("BenchmarkX-2 \t 1 \t 12 ns/op 7\n")); err == nil {
		t.Error("a result line with a value and no unit parsed")
	}
}
