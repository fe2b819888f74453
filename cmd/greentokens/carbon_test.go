package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sevenGrids is a fixture holding the seed page's seven 2024 grid values.
const sevenGrids = "../../transform/grid/testdata/carbon-2024.csv"

// buildSevenGrids builds the seed leaderboard on the seven-grid fixture
// and returns the snapshot folder.
func buildSevenGrids(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", seedLB, "--from-ember", sevenGrids); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	return filepath.Join(out, seedDate)
}

// TestCarbonSevenGrids prices Qwen 3 32B's B200 index row (39.05 Wh/M) on
// the published page's seven grids, end to end through a built snapshot.
func TestCarbonSevenGrids(t *testing.T) {
	snap := buildSevenGrids(t)
	code, stdout, stderr := runCLI(t, "carbon", "--json", "--snapshot", snap, "Qwen 3 32B",
		"India", "Saudi Arabia", "HKG", "Serbia", "World", "Germany", "NOR")
	if code != exitOK {
		t.Fatalf("carbon: exit %d: %s", code, stderr)
	}
	var rows []struct {
		GPU  string      `json:"gpu"`
		Grid string      `json:"grid"`
		Wh   float64     `json:"wh_per_million_output_tokens"`
		Kg   json.Number `json:"kg_co2e_per_billion_output_tokens"`
	}
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		if r.GPU == "B200" {
			got[r.Grid] = string(r.Kg)
		}
	}
	want := map[string]string{
		"India": "27.6", "Saudi Arabia": "27.0", "Hong Kong": "26.4", "Serbia": "26.1",
		"World": "18.5", "Germany": "13.3", "Norway": "1.2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kg CO2e per billion tokens on B200 (-want +got):\n%s", diff)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown model", []string{"qwen-3-33b"}, `nearest: \"qwen-3-32b\"`},
		{"unknown grid", []string{"qwen-3-32b", "Germny"}, `nearest: \"Germany\"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, append([]string{"carbon", "--snapshot", snap}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want %d suggesting %s; stderr: %s", code, exitUsage, tc.want, stderr)
			}
		})
	}
	// The table names every grid of the snapshot when none is named.
	code, stdout, _ = runCLI(t, "carbon", "--snapshot", snap, "qwen-3-32b")
	if code != exitOK || strings.Count(stdout, "x B200") != 7 || strings.Count(stdout, "x H100") != 7 {
		t.Errorf("carbon table for every grid: exit %d\n%s", code, stdout)
	}
}

// TestCarbonRefusesAChangedSnapshot: a snapshot whose files no longer match
// its manifest is not priced (exit 5).
func TestCarbonRefusesAChangedSnapshot(t *testing.T) {
	snap := buildSevenGrids(t)
	grid := filepath.Join(snap, "grid.json")
	b, err := os.ReadFile(grid)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(grid, []byte(strings.Replace(string(b), "707.0", "70.7", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"carbon", "--snapshot", snap, "qwen-3-32b", "India"},
		{"render", "--snapshot", snap, "qwen-3-32b"},
		{"site", "--snapshot", snap, "--out", t.TempDir()},
	} {
		if code, _, stderr := runCLI(t, args...); code != exitValidation || !strings.Contains(stderr, "grid.json") {
			t.Errorf("%s on a changed snapshot: exit %d, want %d naming grid.json; stderr: %s", args[0], code, exitValidation, stderr)
		}
	}
}
