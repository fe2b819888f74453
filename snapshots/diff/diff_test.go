package diff_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/diff"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

func TestMain(m *testing.M) { snaptest.Main(m) }

// The expectations of these tests are computed here from the raw upstream
// JSON and the published model files, read as plain JSON, not from Diff.

// rawRow is an upstream configuration row.
type rawRow map[string]any

// rawChat reads a task file's rows, grouped by model id, GPU, GPU count and
// cap, in upstream order (the n-th of a group is repeat n).
func rawChat(t *testing.T, path string) map[string][]rawRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Configurations []rawRow `json:"configurations"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string][]rawRow{}
	for _, r := range f.Configurations {
		k := fmt.Sprintf("%v/%v/%v/%v", r["model_id"], r["gpu_model"], r["num_gpus"], r["max_num_seqs"])
		out[k] = append(out[k], r)
	}
	return out
}

// pubModel is a published model file, as plain JSON.
type pubModel struct {
	ModelID        string                    `json:"model_id"`
	Configurations []map[string]any          `json:"configurations"`
	Best           map[string]map[string]any `json:"best"`
}

func readModels(t *testing.T, dir string) map[string]pubModel {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "models", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]pubModel{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m pubModel
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber() // published numbers keep their spelling
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = m
	}
	return out
}

func rawFor(rows map[string][]rawRow, modelID string, c map[string]any) rawRow {
	k := fmt.Sprintf("%v/%v/%v/%v", modelID, c["gpu"], c["num_gpus"], c["max_num_seqs"])
	n, _ := strconv.Atoi(string(c["repeat"].(json.Number)))
	if len(rows[k]) < n {
		return nil
	}
	return rows[k][n-1]
}

func jtext(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gotConfigChanges(r *diff.Report) map[string][]string {
	got := map[string][]string{}
	for _, mc := range r.Configurations {
		for _, cc := range mc.Changed {
			for _, f := range cc.Fields {
				got[cc.RowID] = append(got[cc.RowID], fmt.Sprintf("%s %s -> %s", f.Field, f.Old, f.New))
			}
			sort.Strings(got[cc.RowID])
		}
	}
	return got
}

// TestDiffMovedRows changes upstream energies and grid values on purpose
// and checks that Diff reports each change, largest first.
func TestDiffMovedRows(t *testing.T) {
	oldDir := snaptest.SmallSnapshot(t)
	oldM := readModels(t, oldDir)

	// qwen-3-32b: its H100 index row's energy falls by 12.4%.
	q32 := oldM["qwen-3-32b"]
	moved := q32.Best["H100"]
	// qwen-3-14b: another row under the deadline on its first GPU drops to
	// half the index row's energy, so it becomes the index row.
	q14 := oldM["qwen-3-14b"]
	gpus := sortedKeysOfAny(q14.Best)
	gpu := gpus[0]
	oldBest := q14.Best[gpu]
	var promoted map[string]any
	for _, c := range q14.Configurations {
		if c["gpu"] == gpu && c["under_itl_deadline"] == true && c["row_id"] != oldBest["row_id"] && c["repeat"] == json.Number("1") {
			promoted = c
			break
		}
	}
	if promoted == nil {
		t.Fatal("qwen-3-14b has no second row under the deadline")
	}

	lb := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallLeaderboard(t), lb)
	chat := filepath.Join(lb, "tasks", "lm-arena-chat.json")
	raw := rawChat(t, chat)
	e32 := rawFor(raw, q32.ModelID, moved)["energy_per_token_joules"].(float64)
	e14 := rawFor(raw, q14.ModelID, oldBest)["energy_per_token_joules"].(float64)
	is := func(r map[string]any, modelID string, c map[string]any) bool {
		return r["model_id"] == modelID && jtext(t, r["gpu_model"]) == jtext(t, c["gpu"]) &&
			jtext(t, r["num_gpus"]) == jtext(t, c["num_gpus"]) && jtext(t, r["max_num_seqs"]) == jtext(t, c["max_num_seqs"])
	}
	new32, new14 := e32*0.876, e14*0.5
	snaptest.EditJSON(t, chat, func(v map[string]any) {
		for _, r := range v["configurations"].([]any) {
			r := r.(map[string]any)
			switch {
			case is(r, q32.ModelID, moved):
				r["energy_per_token_joules"] = json.Number(strconv.FormatFloat(new32, 'g', -1, 64))
			case is(r, q14.ModelID, promoted):
				r["energy_per_token_joules"] = json.Number(strconv.FormatFloat(new14, 'g', -1, 64))
			}
		}
	})

	ember := movedRowsEmber(t)

	res, err := snaptest.Build(t, t.TempDir(), fetch.Dir{Leaderboard: lb, Ember: ember, Origins: fetch.DefaultOrigins()})
	if err != nil {
		t.Fatal(err)
	}
	r := snaptest.Diff(t, snaptest.Load(t, oldDir), snaptest.Load(t, res.Dir))

	wh := func(e float64) string { return strconv.FormatFloat(e*1e6/3600, 'f', 2, 64) }
	pct := func(x float64) string { return strconv.FormatFloat(x*100, 'f', 2, 64) }
	type row struct{ slug, gpu, kind, oldID, newID, oldWh, newWh, pct string }
	want := []row{
		{"qwen-3-14b", gpu, diff.RowChanged, oldBest["row_id"].(string), promoted["row_id"].(string), trimZeros(wh(e14)), trimZeros(wh(new14)), pct(new14/e14 - 1)},
		{"qwen-3-32b", "H100", diff.RowMoved, moved["row_id"].(string), moved["row_id"].(string), trimZeros(wh(e32)), trimZeros(wh(new32)), pct(new32/e32 - 1)},
	}
	var got []row
	for _, c := range r.IndexRows {
		got = append(got, row{c.Slug, c.GPU, c.Kind, c.Old.RowID, c.New.RowID, jtext(t, c.Old.WhPerMillion), jtext(t, c.New.WhPerMillion),
			strconv.FormatFloat(float64(*c.RelativeChangePercent), 'f', 2, 64)})
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(row{})); diff != "" {
		t.Errorf("index rows (-want +got):\n%s", diff)
	}
	if pct(new32/e32-1) != "-12.40" || pct(new14/e14-1) != "-50.00" {
		t.Fatalf("test setup: %s%%, %s%%", pct(new32/e32-1), pct(new14/e14-1))
	}

	// The two rows whose energy moved, and nothing else.
	wantCfg := map[string][]string{}
	for _, x := range []struct {
		c          map[string]any
		oldE, newE float64
	}{{moved, e32, new32}, {promoted, rawFor(raw, q14.ModelID, promoted)["energy_per_token_joules"].(float64), new14}} {
		id := x.c["row_id"].(string)
		wantCfg[id] = []string{
			fmt.Sprintf("joules_per_output_token %s -> %s", trimZeros(strconv.FormatFloat(x.oldE, 'f', 7, 64)), trimZeros(strconv.FormatFloat(x.newE, 'f', 7, 64))),
			fmt.Sprintf("wh_per_million_output_tokens %s -> %s", trimZeros(wh(x.oldE)), trimZeros(wh(x.newE))),
		}
	}
	if diff := cmp.Diff(wantCfg, gotConfigChanges(r)); diff != "" {
		t.Errorf("configuration changes (-want +got):\n%s", diff)
	}

	checkMovedRowsGrid(t, r)

	wantSummary := fmt.Sprintf("3 models, 2 index rows changed, largest -50.0%% (qwen-3-14b %s), 2 configurations changed (joules_per_output_token, wh_per_million_output_tokens), grid areas 1 changed, 1 removed", gpu)
	if r.Summary != wantSummary {
		t.Errorf("summary\n %q\nwant\n %q", r.Summary, wantSummary)
	}

	// The JSON is deterministic and starts with the summary.
	var a, b bytes.Buffer
	r.WriteJSON(&a)
	snaptest.Diff(t, snaptest.Load(t, oldDir), snaptest.Load(t, res.Dir)).WriteJSON(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two diffs of the same snapshots give different JSON")
	}
	if !strings.HasPrefix(a.String(), "{\n  \"summary\": "+jtext(t, wantSummary)) {
		t.Errorf("the JSON does not start with the summary:\n%.300s", a.String())
	}
	var text bytes.Buffer
	r.WriteText(&text)
	if want := "Grid: year 2022 -> 2022, 226 -> 225 areas (fallbacks 1 -> 1, Ember rows excluded 0 -> 1); 1 changed, 0 added, 1 removed"; !strings.Contains(text.String(), want) {
		t.Errorf("the text report lacks %q:\n%s", want, text.String())
	}
}

// movedRowsEmber writes the sample's Ember file with Germany's 2022 value
// (the reference year by the rule) changed and Norway's rows gone, and
// returns its path.
func movedRowsEmber(t *testing.T) string {
	t.Helper()
	csv, err := os.ReadFile(snaptest.SampleEmber)
	if err != nil {
		t.Fatal(err)
	}
	de := regexp.MustCompile(`(?m)^(Germany,DEU,2022,.*,gCO2/kWh,)420\.11,`)
	no := regexp.MustCompile(`(?m)^Norway,NOR,.*\n`)
	if !de.Match(csv) || !no.Match(csv) {
		t.Fatal("the sample's Ember file has no 2022 row for Germany or no row for Norway")
	}
	csv = de.ReplaceAll(csv, []byte("${1}366.8,"))
	csv = no.ReplaceAll(csv, nil)
	// A preliminary 2025 with one blemish: excluded, and counted.
	csv = append(csv, "Costa Rica,CRI,2025,Country or economy,,,,,,,,Power sector emissions,CO2 intensity,CO2 intensity,gCO2/kWh,-37.90,,\n"...)
	ember := filepath.Join(t.TempDir(), "ember.csv")
	if err := os.WriteFile(ember, csv, 0o644); err != nil {
		t.Fatal(err)
	}
	return ember
}

// checkMovedRowsGrid checks the grid part of TestDiffMovedRows' diff.
func checkMovedRowsGrid(t *testing.T, r *diff.Report) {
	t.Helper()
	if len(r.Grid.Changed) != 1 || r.Grid.Changed[0].Name != "Germany" || r.Grid.Changed[0].ISO3 != "DEU" ||
		cmp.Diff([]diff.FieldChange{{Field: "g_co2e_per_kwh", Old: json.RawMessage("420.11"), New: json.RawMessage("366.8")}}, r.Grid.Changed[0].Fields) != "" ||
		float64(*r.Grid.Changed[0].RelativeChangePercent) != -12.69 {
		t.Errorf("grid changes %+v; want Germany 420.11 -> 366.8 (-12.69%%)", r.Grid.Changed)
	}
	if len(r.Grid.Removed) != 1 || r.Grid.Removed[0].Name != "Norway" || len(r.Grid.Added) != 0 {
		t.Errorf("grid areas removed %+v, added %+v; want Norway removed", r.Grid.Removed, r.Grid.Added)
	}

	if r.Grid.Old.Exclusions != 0 || r.Grid.New.Exclusions != 1 || r.Grid.Old.Fallbacks != 1 || r.Grid.New.Fallbacks != 1 {
		t.Errorf("grid exclusions %d -> %d, fallbacks %d -> %d; want 0 -> 1, 1 -> 1", r.Grid.Old.Exclusions, r.Grid.New.Exclusions, r.Grid.Old.Fallbacks, r.Grid.New.Fallbacks)
	}
}

// trimZeros prints a decimal as the published files do: no trailing zeros,
// ".0" when integral.
func trimZeros(s string) string {
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "0"
	}
	return s
}

func sortedKeysOfAny[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestDiffRoundingOnly: published figures that differ while the upstream
// value behind them is the same, each a rounding of it to other decimals
// (code that rounds them otherwise), are not changes.
func TestDiffRoundingOnly(t *testing.T) {
	dir := snaptest.SmallSnapshot(t)
	cur := snaptest.CopySmallSnapshot(t)
	snaptest.RewriteModel(t, cur, "qwen-3-32b", func(m *format.Model) {
		c := m.Configurations[0]
		c.WhPerMillion = format.Round(float64(c.WhPerMillion), 1) // 429.18 of 429.18169...: 429.2
		c.P90ITL = format.Round(float64(c.P90ITL), 0)             // 15.7 of 15.71396...: 16.0
		m.Configurations[0] = c
		b := m.Best["H100"]
		b.WhPerMillion = format.Round(float64(b.WhPerMillion), 1) // 63.47 of 63.46684...: 63.5
		m.Best["H100"] = b
	})
	r := snaptest.Diff(t, snaptest.Load(t, dir), snaptest.Load(t, cur))
	if r.DataChanged || r.RoundingOnly != 3 || r.Summary != "3 models, no data change" {
		t.Errorf("summary %q, rounding only %d, index rows %+v, configurations %+v; want no data change and 3 rounding-only figures",
			r.Summary, r.RoundingOnly, r.IndexRows, r.Configurations)
	}
}

// TestDiffTamperedFigure: a model file whose figure is no rounding of the
// upstream value behind it (3.05 where the archived row gives 39.05..., a
// change of 92%), its manifest entry updated, fails the diff's figure
// check: a Problem naming the snapshot, the file, the row and the field,
// and Err an ErrValidation; it is never counted as rounding, whichever
// side it is on. A count that changed over the same upstream value is a
// change, not rounding either.
func TestDiffTamperedFigure(t *testing.T) {
	dir := snaptest.SmallSnapshot(t)
	cur := snaptest.CopySmallSnapshot(t)
	var row string
	var at int
	snaptest.RewriteModel(t, cur, "qwen-3-32b", func(m *format.Model) {
		b := m.Best["B200"]
		if b.WhPerMillion != 39.05 {
			t.Fatalf("test setup: best.B200 is %v Wh/M, not 39.05", b.WhPerMillion)
		}
		row = b.RowID
		b.WhPerMillion = 3.05
		m.Best["B200"] = b
		for i, c := range m.Configurations {
			if c.RowID == row {
				c.WhPerMillion = 3.05
				m.Configurations[i], at = c, i
			}
		}
	})
	for _, tc := range []struct {
		name     string
		old, new string
	}{{"new", dir, cur}, {"old", cur, dir}} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := diff.Diff(context.Background(), snaptest.Load(t, tc.old), snaptest.Load(t, tc.new))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range r.Problems {
				got = append(got, p.Snapshot+" "+p.File+" "+p.Where+" "+p.Field)
			}
			want := []string{
				cur + " models/qwen-3-32b.json configurations[" + strconv.Itoa(at) + "] (" + row + ") wh_per_million_output_tokens",
				cur + " models/qwen-3-32b.json best.B200 wh_per_million_output_tokens",
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
			err = r.Err()
			for _, s := range []string{"models/qwen-3-32b.json", "wh_per_million_output_tokens is 3.05, which is no rounding of 39.05"} {
				if !errors.Is(err, failure.ErrValidation) || !strings.Contains(fmt.Sprint(err), s) {
					t.Errorf("Err() = %v; want failure.ErrValidation saying %q", err, s)
				}
			}
			if r.RoundingOnly != 0 {
				t.Errorf("%d figures counted as rounding only", r.RoundingOnly)
			}
		})
	}

	t.Run("a count", func(t *testing.T) {
		other := snaptest.CopySmallSnapshot(t)
		snaptest.RewriteModel(t, other, "qwen-3-32b", func(m *format.Model) { m.Configurations[0].TensorParallel = 8 })
		r := snaptest.Diff(t, snaptest.Load(t, dir), snaptest.Load(t, other))
		if !r.DataChanged || r.RoundingOnly != 0 || len(r.Configurations) != 1 {
			t.Errorf("summary %q, rounding only %d; want tensor_parallel reported as a change", r.Summary, r.RoundingOnly)
		}
	})
}

func TestDiffSameSnapshot(t *testing.T) {
	dir := snaptest.SmallSnapshot(t)
	r := snaptest.Diff(t, snaptest.Load(t, dir), snaptest.Load(t, dir))
	if r.DataChanged || r.Summary != "3 models, no data change" {
		t.Errorf("summary %q", r.Summary)
	}
	for _, s := range r.Sources {
		if s.Status != "unchanged" {
			t.Errorf("source %+v", s)
		}
	}
}

// TestDiffChanged: what diff --exit-code counts as a change.
func TestDiffChanged(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    diff.Report
		want bool
	}{
		{"nothing", diff.Report{Sources: []diff.SourceChange{{Name: "leaderboard/index.json", Status: "unchanged"}}}, false},
		{"a new retrieval date of the same bytes", diff.Report{Sources: []diff.SourceChange{{Name: "leaderboard/index.json", Status: "changed", Changed: []string{"retrieved"}}}}, false},
		{"the same data in other bytes", diff.Report{Sources: []diff.SourceChange{{Name: "leaderboard/commits.json", Status: "changed", Changed: []string{"sha256", "size"}}}}, true},
		{"a source added", diff.Report{Sources: []diff.SourceChange{{Name: "ember/yearly_full_release_long_format.csv", Status: "added"}}}, true},
		{"a source removed", diff.Report{Sources: []diff.SourceChange{{Name: "ember/yearly_full_release_long_format.csv", Status: "removed"}}}, true},
		{"data", diff.Report{DataChanged: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Changed(); got != tc.want {
				t.Errorf("Changed() = %v, want %v", got, tc.want)
			}
		})
	}
}
