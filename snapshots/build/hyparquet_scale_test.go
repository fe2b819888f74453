//go:build scale

package build_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// TestExportsReadOutsideGo reads the seed snapshot's exported Parquet and
// CSV files with a reader outside Go, hyparquet (npm, MIT, the version
// testdata/hyparquet/package.json pins), through a Node script
// (testdata/hyparquet/compare.mjs), which compares every value with the
// snapshot's JSON files: every configuration of every model file, each
// index row, and grid.json's areas. It needs node and npm, and npm's
// registry.
func TestExportsReadOutsideGo(t *testing.T) {
	dir := snaptest.SeedSnapshot(t)
	work := t.TempDir()
	for _, name := range []string{"compare.mjs", "package.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "hyparquet", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--ignore-scripts")
	install.Dir = work
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install of hyparquet (node and npm's registry are needed): %v\n%s", err, out)
	}
	run := exec.Command("node", "compare.mjs", dir, format.PrimaryTask().ID)
	run.Dir = work
	out, err := run.Output()
	if err != nil {
		t.Fatalf("node compare.mjs: %v\n%s", err, out)
	}
	var got struct {
		Values     int            `json:"values"`
		Rows       map[string]int `json:"rows"`
		Mismatches []string       `json:"mismatches"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node compare.mjs printed %q: %v", out, err)
	}
	for _, m := range got.Mismatches {
		t.Errorf("hyparquet: %s", m)
	}
	// The seed version: 328 configurations of 18 models, 32 index rows,
	// and the sample's 226 areas, each table as Parquet and CSV.
	task := "exports/" + format.PrimaryTask().ID
	want := map[string]int{task + "/configurations.parquet": 328, task + "/configurations.csv": 328,
		task + "/index-rows.parquet": 32, task + "/index-rows.csv": 32, "exports/grid.parquet": 226, "exports/grid.csv": 226}
	for p, n := range want {
		if got.Rows[p] != n {
			t.Errorf("hyparquet read %d rows of %s, want %d", got.Rows[p], p, n)
		}
	}
	t.Logf("hyparquet and the CSV reader: %d values of %v, equal to the JSON files'", got.Values, got.Rows)
}
