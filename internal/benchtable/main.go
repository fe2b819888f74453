// Command benchtable reads the output of `go test -bench` (any number of
// packages, one after another) on standard input and prints one table:
// each benchmark's throughput (MB/s) and time (ms), allocations per run,
// the peak resident memory its stage reported (peak-RSS-MiB), any other
// figure it reported (req/s, p99-ms, ...), and its time
// over the floor measured in the same run: a read with sha256 of the same
// number of bytes at the rate of snapshots/verify's BenchmarkFloor/read+sha256 (at
// the benchmark's scale when its name has one, else at scale 1). `make
// bench` pipes its benchmarks through it; a benchmark added to that target
// gets its row with no change here. Below the table: the time of each
// verify benchmark over its build's (OfflineVerify/scale=1 over
// OfflineBuild/scale=1).
package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	rows, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	if len(rows) == 0 {
		fmt.Fprintln(os.Stderr, "benchtable: no benchmark results on standard input")
		os.Exit(1)
	}
	if err := write(os.Stdout, rows); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// row is one benchmark result: its name (without "Benchmark" and the
// GOMAXPROCS suffix) and its metrics by unit ("ns/op", "MB/s", ...).
type row struct {
	name    string
	metrics map[string]float64
}

var resultLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// parse reads the result lines of `go test -bench` output; other lines
// are passed over.
func parse(r io.Reader) ([]row, error) {
	var rows []row
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := resultLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("%q: not value-unit pairs", sc.Text())
		}
		r := row{name: m[1], metrics: map[string]float64{}}
		for i := 0; i < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			r.metrics[f[i+1]] = v
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// floorName is the benchmark whose rate is the floor, at a scale.
const floorName = "Floor/read+sha256/scale="

var scaleSuffix = regexp.MustCompile(`scale=(\d+)$`)

// floorRatio is a row's time over the floor's time for its bytes, or 0
// when it has no bytes or the run has no floor.
func floorRatio(r row, floors map[string]float64) float64 {
	rate, ns := r.metrics["MB/s"], r.metrics["ns/op"]
	if rate == 0 || ns == 0 {
		return 0
	}
	scale := "1"
	if m := scaleSuffix.FindStringSubmatch(r.name); m != nil {
		scale = m[1]
	}
	floor := floors[scale]
	if floor == 0 {
		return 0
	}
	// bytes = rate × seconds; the floor reads them in bytes / floor.
	return floor / rate
}

func write(w io.Writer, rows []row) error {
	floors := map[string]float64{}
	for _, r := range rows {
		if s, ok := strings.CutPrefix(r.name, floorName); ok {
			floors[s] = r.metrics["MB/s"]
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "stage\tMB/s\tms\tallocs\tpeak RSS MiB\tx floor\tother\t")
	for _, r := range rows {
		cell := func(unit, format string) string {
			if v, ok := r.metrics[unit]; ok {
				return fmt.Sprintf(format, v)
			}
			return "-"
		}
		ratio := "-"
		if x := floorRatio(r, floors); x > 0 {
			ratio = fmt.Sprintf("%.2f", x)
		}
		ms := "-"
		if ns, ok := r.metrics["ns/op"]; ok && ns >= 10e6 {
			ms = fmt.Sprintf("%.1f", ns/1e6)
		} else if ok {
			ms = fmt.Sprintf("%.3f", ns/1e6)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.name, cell("MB/s", "%.1f"), ms,
			cell("allocs/op", "%.0f"), cell("peak-RSS-MiB", "%.1f"), ratio, others(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var err error
	if len(floors) == 0 {
		_, err = fmt.Fprintln(w, "\nno floor in this run (BenchmarkFloor/read+sha256): no ratios")
	} else {
		_, err = fmt.Fprintf(w, "\nx floor: the stage's time over a read with sha256 of the same bytes at %s, measured in this run\n", floorRates(floors))
	}
	if v := verifyRatios(rows); v != "" && err == nil {
		_, err = fmt.Fprintf(w, "verify / build: %s\n", v)
	}
	return err
}

// verifyRatios lists the time of each verify row over that of its build
// row, the row of the same name with Build for Verify (build for verify).
func verifyRatios(rows []row) string {
	ns := map[string]float64{}
	for _, r := range rows {
		ns[r.name] = r.metrics["ns/op"]
	}
	var parts []string
	for _, r := range rows {
		build := strings.NewReplacer("Verify", "Build", "verify", "build").Replace(r.name)
		if build == r.name || ns[build] == 0 || ns[r.name] == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%.2fx (%s)", ns[r.name]/ns[build], r.name))
	}
	return strings.Join(parts, ", ")
}

// columns are the units that have a column of their own.
var columns = map[string]bool{"ns/op": true, "MB/s": true, "B/op": true, "allocs/op": true, "peak-RSS-MiB": true}

// others lists a row's other metrics, "value unit", by unit.
func others(r row) string {
	var units []string
	for u := range r.metrics {
		if !columns[u] {
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		return "-"
	}
	slices.Sort(units)
	var parts []string
	for _, u := range units {
		v := r.metrics[u]
		text := strconv.FormatFloat(v, 'g', 4, 64)
		if v == math.Trunc(v) && math.Abs(v) < 1e12 {
			text = strconv.FormatFloat(v, 'f', 0, 64) // a count, in full
		}
		parts = append(parts, text+" "+u)
	}
	return strings.Join(parts, ", ")
}

// floorRates lists the floor's rate at each scale, by scale.
func floorRates(floors map[string]float64) string {
	scales := make([]int, 0, len(floors))
	for s := range floors {
		n, _ := strconv.Atoi(s)
		scales = append(scales, n)
	}
	slices.Sort(scales)
	var parts []string
	for _, n := range scales {
		parts = append(parts, fmt.Sprintf("%.0f MB/s (scale %d)", floors[strconv.Itoa(n)], n))
	}
	return strings.Join(parts, ", ")
}
