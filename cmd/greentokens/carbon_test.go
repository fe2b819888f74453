package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/validate"
)

// sevenGrids is a fixture holding the seed page's seven 2024 grid values
// in Ember's long layout; sevenGridsJuly holds them in its July 2026 layout
// (ember-wide's conversion: transform/grid/testdata/README.md).
const (
	sevenGrids     = "../../transform/grid/testdata/carbon-2024.csv"
	sevenGridsJuly = "../../transform/grid/testdata/carbon-2024-july.csv"
)

// buildSevenGrids builds the small leaderboard version on the seven-grid
// fixture and returns the snapshot folder.
func buildSevenGrids(t *testing.T) string {
	t.Helper()
	return buildOnGrids(t, sevenGrids)
}

// buildOnGrids builds the small leaderboard version on the Ember CSV ember
// and returns the snapshot folder.
func buildOnGrids(t *testing.T, ember string) string {
	t.Helper()
	return buildAt(t, seedDate, ember)
}

// TestCarbonSevenGrids prices Qwen 3 32B's B200 index row (39.05 Wh/M) on
// the published page's seven grids, end to end through a built snapshot,
// from Ember's long layout and from its July 2026 one.
func TestCarbonSevenGrids(t *testing.T) {
	endToEnd(t)
	for _, ember := range []string{sevenGrids, sevenGridsJuly} {
		t.Run(filepath.Base(ember), func(t *testing.T) { testCarbonSevenGrids(t, buildOnGrids(t, ember)) })
	}
}

func testCarbonSevenGrids(t *testing.T, snap string) {
	// The page's carbon table: the seed page's rows.
	page, err := os.ReadFile(filepath.Join(snap, "pages", "qwen-3-32b.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{"| India | 707 | 27.6 |", "| Saudi Arabia | 692 | 27.0 |", "| Hong Kong | 676 | 26.4 |",
		"| Serbia | 668 | 26.1 |", "| World | 474 | 18.5 |", "| Germany | 340 | 13.3 |", "| Norway | 30 | 1.2 |"} {
		if !strings.Contains(string(page), row) {
			t.Errorf("the page lacks the seed page's carbon row %q", row)
		}
	}
	code, stdout, stderr := runCLI(t, "carbon", "--json", "--snapshot", snap, "Qwen 3 32B",
		"India", "Saudi Arabia", "HKG", "Serbia", "World", "Germany", "NOR")
	if code != exitOK {
		t.Fatalf("carbon: exit %d: %s", code, stderr)
	}
	if probs := validate.CheckSchema("carbon.schema.json", "carbon --json", []byte(stdout)); len(probs) != 0 {
		t.Errorf("carbon --json does not pass schemas/carbon.schema.json: %v", probs)
	}
	var rep struct {
		Snapshot string `json:"snapshot"`
		Rows     []struct {
			GPU  string      `json:"gpu"`
			Grid string      `json:"grid"`
			Wh   float64     `json:"wh_per_million_output_tokens"`
			Kg   json.Number `json:"kg_co2e_per_billion_output_tokens"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Snapshot != seedDate {
		t.Errorf("carbon --json snapshot is %q, want %q", rep.Snapshot, seedDate)
	}
	rows := rep.Rows
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
		{"unknown model", []string{"qwen-3-33b"}, `greentokens: no model "qwen-3-33b"; did you mean "qwen-3-32b"`},
		{"unknown grid", []string{"qwen-3-32b", "Germny"}, `nearest: "Germany"`},
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

// TestCarbonFallbackYear: on the realistic Ember fixture (reference year
// 2024), Kosovo has no usable 2024 value and is priced at its 2023 one,
// whose year the table shows beside it and the JSON gives with fallback.
func TestCarbonFallbackYear(t *testing.T) {
	endToEnd(t)
	a, err := txtar.ParseFile("../../transform/grid/testdata/blemishes.txtar")
	if err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(t.TempDir(), "ember.csv")
	for _, f := range a.Files {
		if f.Name == "ember.csv" {
			if err := os.WriteFile(csv, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := t.TempDir()
	code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", smallLB(t), "--from-ember", csv)
	if code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	snap := filepath.Join(out, seedDate)
	// Every blemish is logged and listed in the manifest, with its line.
	if want := `msg=excluded source=ember/yearly_full_release_long_format.csv area="Costa Rica" year=2025 line=36 value=-37.9 reason="negative intensity"`; !strings.Contains(stderr, want) {
		t.Errorf("the build log lacks %q:\n%s", want, stderr)
	}
	mb, err := os.ReadFile(filepath.Join(snap, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Grid struct {
			Year       int `json:"year"`
			Exclusions []struct {
				Area   string `json:"area"`
				Line   int    `json:"line"`
				Reason string `json:"reason"`
			} `json:"exclusions"`
		} `json:"grid"`
	}
	if err := json.Unmarshal(mb, &m); err != nil || m.Grid.Year != 2024 || len(m.Grid.Exclusions) != 6 ||
		m.Grid.Exclusions[4].Area != "Costa Rica" || m.Grid.Exclusions[4].Line != 36 {
		t.Errorf("manifest grid block: %v, %+v", err, m.Grid)
	}
	code, stdout, stderr := runCLI(t, "carbon", "--snapshot", snap, "qwen-3-32b", "XKX", "Germany")
	if code != exitOK {
		t.Fatalf("carbon: exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")[1:] // after the model and snapshot line
	if !strings.Contains(lines[0], "g CO2e/kWh (2024)") {
		t.Errorf("the header does not name the reference year:\n%s", stdout)
	}
	for _, l := range lines[1:] {
		switch {
		case strings.Contains(l, "Kosovo") && !strings.Contains(l, " 912.5 (2023) "):
			t.Errorf("Kosovo's row does not show 912.5 (2023): %q", l)
		case strings.Contains(l, "Germany") && (!strings.Contains(l, " 344.14 ") || strings.Contains(l, "(20")):
			t.Errorf("Germany's row is not 344.14 without a year: %q", l)
		}
	}
	code, stdout, _ = runCLI(t, "carbon", "--json", "--snapshot", snap, "qwen-3-32b", "XKX")
	if probs := validate.CheckSchema("carbon.schema.json", "carbon --json", []byte(stdout)); len(probs) != 0 {
		t.Errorf("carbon --json does not pass schemas/carbon.schema.json: %v", probs)
	}
	var rep struct {
		Rows []struct {
			Year     int  `json:"grid_year"`
			Fallback bool `json:"fallback"`
		} `json:"rows"`
	}
	rows := &rep.Rows
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != exitOK || len(*rows) == 0 || (*rows)[0].Year != 2023 || !(*rows)[0].Fallback {
		t.Errorf("carbon --json for Kosovo: exit %d, %v, %+v", code, err, *rows)
	}
	// list grids --year goes by each area's own year: Kosovo's fallback.
	code, stdout, stderr = runCLI(t, "list", "grids", "--snapshot", snap, "--year", "2023", "--json")
	var l catalog.GridList
	if err := json.Unmarshal([]byte(stdout), &l); err != nil || code != exitOK || l.Year != 2024 {
		t.Fatalf("list grids --year 2023: exit %d, %v: %s", code, err, stderr)
	}
	found := false
	for _, g := range l.Areas {
		found = found || (g.Name == "Kosovo" && g.Year == 2023 && g.Fallback)
		if g.Year != 2023 {
			t.Errorf("list grids --year 2023 lists %s of %d", g.Name, g.Year)
		}
	}
	if !found {
		t.Errorf("list grids --year 2023 lacks Kosovo's 2023 fallback: %+v", l.Areas)
	}
	if probs := validate.CheckSchema("list-grids.schema.json", "list grids --json", []byte(stdout)); len(probs) != 0 {
		t.Errorf("does not pass schemas/list-grids.schema.json: %v", probs)
	}

	// A year no area has: another build gives it only where the archived
	// CSV has a World value for it (2023 to 2025 here).
	for year, want := range map[string]string{
		"2025": "its values are of 2023 (3 grids), 2024 (12 grids). The archived Ember CSV can give 2025 as the reference year: build --grid-year 2025",
		"2031": "its values are of 2023 (3 grids), 2024 (12 grids). The archived Ember CSV cannot give 2031 as the reference year: it can give 2023-2025 (the years World has a value for)",
	} {
		code, _, stderr = runCLI(t, "list", "grids", "--snapshot", snap, "--year", year)
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("list grids --year %s: exit %d, want %d saying %q; stderr: %s", year, code, exitUsage, want, stderr)
		}
	}
}

// TestCarbonFlags: --gpu, --num-gpus, --batch, --intensity and --pue ask
// what the API's gpu, num_gpus, batch, intensity and pue do; a batch is matched with the
// index row's GPU count unless --num-gpus says otherwise.
func TestCarbonFlags(t *testing.T) {
	endToEnd(t)
	snap, noGrid := builtSnapshots(t)
	// Every table ends with the PUE used and the accounting's words.
	const defaultPUE = "PUE 1.0 (the default: no data-centre overhead; --pue gives one)."
	sci := strings.Join(strings.Fields(pricing.SCI().Energy+" "+pricing.SCI().Embodied), " ")
	for _, tc := range []struct {
		name string
		args []string
		want []string // lines of the table after the model's, one space between columns
	}{
		{"index rows", []string{"qwen-3-32b", "NOR", "--gpu", "h100"}, []string{
			"GPU Wh/M grid g CO2e/kWh (2024) kg CO2e per billion tokens g CO2e per request g CO2e per 1,000 requests",
			"2 x H100 63.47 Norway 30.0 1.9 0.0012 1.2", defaultPUE, sci}},
		{"batch", []string{"qwen-3-32b", "NOR", "--gpu", "H100", "--batch", "30"}, []string{
			"Configurations: on each GPU, among the configurations with its index row's GPU count (every count on a GPU without an index row), the measured configuration whose average running batch is nearest to 30 (ties to the smaller batch), whether or not it meets the ITL deadline.",
			"GPU Wh/M grid g CO2e/kWh (2024) kg CO2e per billion tokens g CO2e per request g CO2e per 1,000 requests",
			"2 x H100 153.77 Norway 30.0 4.6 0.003 3.0", defaultPUE, sci}},
		{"batch and GPU count", []string{"qwen-3-32b", "NOR", "--gpu", "H100", "--batch", "30", "--num-gpus", "1"}, []string{
			"Configurations: on each GPU, among its configurations with 1 GPU, the measured configuration whose average running batch is nearest to 30 (ties to the smaller batch), whether or not it meets the ITL deadline.",
			"GPU Wh/M grid g CO2e/kWh (2024) kg CO2e per billion tokens g CO2e per request g CO2e per 1,000 requests",
			"1 x H100 173.33 Norway 30.0 5.2 0.0033 3.3", defaultPUE, sci}},
		{"stated intensity", []string{"qwen-3-32b", "--gpu", "B200", "--intensity", "692"}, []string{
			"GPU Wh/M grid g CO2e/kWh (2024) kg CO2e per billion tokens g CO2e per request g CO2e per 1,000 requests",
			"1 x B200 39.05 stated 692.0 27.0 0.0172 17.2", defaultPUE, sci}},
		{"PUE", []string{"qwen-3-32b", "NOR", "--gpu", "B200", "--intensity", "692", "--pue", "1.5"}, []string{
			"GPU Wh/M grid g CO2e/kWh (2024) kg CO2e per billion tokens g CO2e per request g CO2e per 1,000 requests",
			"1 x B200 39.05 Norway 30.0 1.8 0.0011 1.1",
			"1 x B200 39.05 stated 692.0 40.5 0.0257 25.7",
			"PUE 1.5 (--pue).", sci}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"carbon", "--snapshot", snap}, tc.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")[1:]
			for i := range lines { // the table's columns, one space apart
				lines[i] = strings.Join(strings.Fields(lines[i]), " ")
			}
			if diff := cmp.Diff(tc.want, lines); diff != "" {
				t.Errorf("table (-want +got):\n%s", diff)
			}
		})
	}
	// A snapshot without grid.json prices a stated intensity.
	code, stdout, stderr := runCLI(t, "carbon", "--snapshot", noGrid, "qwen-3-32b", "--intensity", "30", "--json")
	if code != exitOK || !strings.Contains(stdout, `"grid_source": "stated"`) || strings.Contains(stdout, `"grid_source": "ember"`) {
		t.Errorf("a stated intensity without grid.json: exit %d: %s%s", code, stdout, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--num-gpus", "4"}, "qwen-3-32b was measured on 1 x B200, 1 x H100 and 2 x H100, not with 4 GPUs; nearest: \"1\", \"2\""},
		{[]string{"--gpu", "B200", "--num-gpus", "2"}, "qwen-3-32b on B200 was measured on 1 x B200, not with 2 GPUs"},
		{[]string{"--num-gpus", "0"}, `invalid argument "0" for "--num-gpus" flag: num_gpus must be a whole number from 1 to 1024`},
		{[]string{"--batch", "-1"}, `invalid argument "-1" for "--batch" flag: batch must be a number from 1e-06 to 100000`},
		{[]string{"--batch", "many"}, `invalid argument "many" for "--batch" flag`},
		{[]string{"--gpu", "A100"}, `qwen-3-32b was not measured on GPU "A100"`},
		{[]string{"--intensity", "3000"}, `invalid argument "3000" for "--intensity" flag: intensity must be 0 or a number of g CO2e per kWh from 1e-06 to 2000`},
		{[]string{"--pue", "0.9"}, `invalid argument "0.9" for "--pue" flag: pue must be a number from 1 to 3`},
		{[]string{"--pue", "3.1e0"}, `invalid argument "3.1e0" for "--pue" flag: pue must be a number from 1 to 3`},
		{[]string{"--pue", "NaN"}, `invalid argument "NaN" for "--pue" flag: "NaN" is not a decimal number`},
		{[]string{"--pue", "Inf"}, `invalid argument "Inf" for "--pue" flag: "Inf" is not a decimal number`},
		{[]string{"--pue", "1e999"}, `invalid argument "1e999" for "--pue" flag: "1e999" is out of range`},
	} {
		code, _, stderr := runCLI(t, append([]string{"carbon", "--snapshot", snap, "qwen-3-32b", "NOR"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("carbon %s: exit %d, want %d saying %q; stderr: %s", tc.args, code, exitUsage, tc.want, stderr)
		}
	}
}

// TestCarbonRenamedGrid: in a snapshot built from Ember's July 2026 layout,
// an area Ember renamed is found by its earlier name and its ISO 3 code.
func TestCarbonRenamedGrid(t *testing.T) {
	snap := buildOnGrids(t, "../../transform/grid/testdata/renames-july.csv")
	for _, q := range []string{"Turkey", "TUR", "Türkiye"} {
		code, stdout, stderr := runCLI(t, "carbon", "--json", "--snapshot", snap, "qwen-3-32b", q)
		if code != exitOK || !strings.Contains(stdout, `"grid": "Türkiye"`) || !strings.Contains(stdout, `"iso3": "TUR"`) {
			t.Errorf("carbon %s: exit %d\n%s%s", q, code, stdout, stderr)
		}
	}
}

// TestBuildRefusesJulyLayoutFaults: a file in Ember's July 2026 layout that
// lacks a needed column, or has no Total generation row, is exit 4 naming
// what is missing, and nothing is written.
func TestBuildRefusesJulyLayoutFaults(t *testing.T) {
	ar, err := txtar.ParseFile("../../transform/grid/testdata/july.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	for name, want := range map[string]string{
		"missing-intensity.csv": `no column "Emissions intensity (gCO2e/kWh)"`,
		"no-total.csv":          `no rows with Electricity source "Total generation"; the file's Electricity source values are "Coal", "Solar"`,
		"area-type.csv":         `line 3: field "Area type": unknown area type "Economic union"`,
	} {
		t.Run(name, func(t *testing.T) {
			ember := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(ember, files[name], 0o644); err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
				"--from-leaderboard", smallLB(t), "--from-ember", ember)
			// The text log quotes the error, escaping its quotes.
			if shown := strings.ReplaceAll(stderr, `\"`, `"`); code != exitUpstreamBad || !strings.Contains(shown, want) || !strings.Contains(shown, ember) {
				t.Errorf("exit %d, want %d naming %s and %q; stderr: %s", code, exitUpstreamBad, ember, want, stderr)
			}
			assertNoSnapshot(t, out)
		})
	}
}

// TestCarbonRefusesAFileOffItsSchema: a model file that matches the
// manifest (its sha256 and size listed again) but not its schema is not
// priced or listed: a failed check (exit 5) naming the schema, as serve
// refuses it.
func TestCarbonRefusesAFileOffItsSchema(t *testing.T) {
	snap := buildSevenGrids(t)
	model := filepath.Join(snap, "models", "qwen-3-32b.json")
	old, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(old), `"architecture": "Dense Transformer"`, `"architecture": "Dense Transformer", "extra": 1`, 1)
	if changed == string(old) {
		t.Fatal("the model file has no architecture to change")
	}
	manifest := filepath.Join(snap, "manifest.json")
	mb, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	oldSum, newSum := sha256.Sum256(old), sha256.Sum256([]byte(changed))
	m := strings.Replace(string(mb), hex.EncodeToString(oldSum[:]), hex.EncodeToString(newSum[:]), 1)
	m = strings.Replace(m, strconv.Itoa(len(old)), strconv.Itoa(len(changed)), 1)
	if err := os.WriteFile(model, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"carbon", "--snapshot", snap, "qwen-3-32b", "NOR"},
		{"list", "models", "--snapshot", snap},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitValidation || !strings.Contains(stderr, "does not match schemas/model.schema.json") {
			t.Errorf("%s: exit %d, want %d naming the schema; stderr: %s", args[:2], code, exitValidation, stderr)
		}
	}
}
