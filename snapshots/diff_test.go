package snapshots

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

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

func gotConfigChanges(r *DiffReport) map[string][]string {
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

func load(t *testing.T, dir string) *Snapshot {
	t.Helper()
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// editJSON rewrites a JSON file through f, on its decoded form (numbers
// kept as written).
func editJSON(t *testing.T, path string, f func(v map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	f(v)
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiffMovedRows changes upstream energies and grid values on purpose
// and checks that Diff reports each change, largest first.
func TestDiffMovedRows(t *testing.T) {
	oldDir := seedSnapshot(t)
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
	copyLeaderboard(t, seedLeaderboard, lb)
	chat := filepath.Join(lb, "tasks", "lm-arena-chat.json")
	raw := rawChat(t, chat)
	e32 := rawFor(raw, q32.ModelID, moved)["energy_per_token_joules"].(float64)
	e14 := rawFor(raw, q14.ModelID, oldBest)["energy_per_token_joules"].(float64)
	is := func(r map[string]any, modelID string, c map[string]any) bool {
		return r["model_id"] == modelID && jtext(t, r["gpu_model"]) == jtext(t, c["gpu"]) &&
			jtext(t, r["num_gpus"]) == jtext(t, c["num_gpus"]) && jtext(t, r["max_num_seqs"]) == jtext(t, c["max_num_seqs"])
	}
	new32, new14 := e32*0.876, e14*0.5
	editJSON(t, chat, func(v map[string]any) {
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

	res, err := build(t, t.TempDir(), fetch.Dir{Leaderboard: lb, Ember: ember, Origins: fetch.DefaultOrigins()})
	if err != nil {
		t.Fatal(err)
	}
	r := Diff(load(t, oldDir), load(t, res.Dir))

	wh := func(e float64) string { return strconv.FormatFloat(e*1e6/3600, 'f', 2, 64) }
	pct := func(x float64) string { return strconv.FormatFloat(x*100, 'f', 2, 64) }
	type row struct{ slug, gpu, kind, oldID, newID, oldWh, newWh, pct string }
	want := []row{
		{"qwen-3-14b", gpu, RowChanged, oldBest["row_id"].(string), promoted["row_id"].(string), trimZeros(wh(e14)), trimZeros(wh(new14)), pct(new14/e14 - 1)},
		{"qwen-3-32b", "H100", RowMoved, moved["row_id"].(string), moved["row_id"].(string), trimZeros(wh(e32)), trimZeros(wh(new32)), pct(new32/e32 - 1)},
	}
	var got []row
	for _, c := range r.IndexRows {
		got = append(got, row{c.Slug, c.GPU, c.Kind, c.Old.RowID, c.New.RowID, num(c.Old.WhPerMillion), num(c.New.WhPerMillion),
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

	wantSummary := fmt.Sprintf("18 models, 2 index rows changed, largest -50.0%% (qwen-3-14b %s), 2 configurations changed (joules_per_output_token, wh_per_million_output_tokens), grid areas 1 changed, 1 removed", gpu)
	if r.Summary != wantSummary {
		t.Errorf("summary\n %q\nwant\n %q", r.Summary, wantSummary)
	}

	// The JSON is deterministic and starts with the summary.
	var a, b bytes.Buffer
	r.WriteJSON(&a)
	Diff(load(t, oldDir), load(t, res.Dir)).WriteJSON(&b)
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
	csv, err := os.ReadFile(sampleEmber)
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
func checkMovedRowsGrid(t *testing.T, r *DiffReport) {
	t.Helper()
	if len(r.Grid.Changed) != 1 || r.Grid.Changed[0].Name != "Germany" || r.Grid.Changed[0].ISO3 != "DEU" ||
		cmp.Diff([]FieldChange{{Field: "g_co2e_per_kwh", Old: json.RawMessage("420.11"), New: json.RawMessage("366.8")}}, r.Grid.Changed[0].Fields) != "" ||
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
// value behind them is the same are not changes.
func TestDiffRoundingOnly(t *testing.T) {
	dir := seedSnapshot(t)
	cur := copySnapshot(t)
	rewriteModel(t, cur, "qwen-3-32b", func(m *format.Model) {
		c := m.Configurations[0]
		c.WhPerMillion += 0.01
		c.P90ITL += 0.1
		m.Configurations[0] = c
		b := m.Best["H100"]
		b.WhPerMillion += 0.01
		m.Best["H100"] = b
	})
	r := Diff(load(t, dir), load(t, cur))
	if r.DataChanged || r.RoundingOnly != 3 || r.Summary != "18 models, no data change" {
		t.Errorf("summary %q, rounding only %d, index rows %+v, configurations %+v; want no data change and 3 rounding-only figures",
			r.Summary, r.RoundingOnly, r.IndexRows, r.Configurations)
	}
}

// rewriteModel changes a model file of the snapshot folder dir with edit,
// writes it as a build would, and lists its new size and sha256 in the
// manifest, so that the folder still loads.
func rewriteModel(t *testing.T, dir, slug string, edit func(*format.Model)) {
	t.Helper()
	m, err := load(t, dir).Model(slug)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := format.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	relist(t, dir, "models/"+slug+".json", b)
}

// relist writes data as the listed file rel (a slash path) of the
// snapshot folder dir, and lists its new size and sha256 in the manifest,
// in its canonical form.
func relist(t *testing.T, dir, rel string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	editManifest(t, dir, func(man *format.Manifest) {
		found := false
		for _, f := range append(sourceFiles(man), outputFiles(man)...) {
			if f.Path == rel {
				f.Size, f.SHA256 = int64(len(data)), hex.EncodeToString(sum[:])
				found = true
			}
		}
		if !found {
			t.Fatalf("%s does not list %s", format.ManifestPath, rel)
		}
	})
}

// editManifest rewrites dir's manifest.json in its canonical form after
// edit.
func editManifest(t *testing.T, dir string, edit func(*format.Manifest)) {
	t.Helper()
	mb, err := os.ReadFile(filepath.Join(dir, format.ManifestPath))
	if err != nil {
		t.Fatal(err)
	}
	man, err := decodeManifest(mb)
	if err != nil {
		t.Fatal(err)
	}
	edit(man)
	if mb, err = format.Marshal(man); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, format.ManifestPath), mb, 0o644); err != nil {
		t.Fatal(err)
	}
}

func sourceFiles(m *format.Manifest) []*format.File {
	var out []*format.File
	for i := range m.Sources {
		out = append(out, &m.Sources[i].File)
	}
	return out
}

func outputFiles(m *format.Manifest) []*format.File {
	var out []*format.File
	for i := range m.Outputs {
		out = append(out, &m.Outputs[i])
	}
	return out
}

// wantChatRows is what Diff compares of a task file's rows, computed the
// plain way: the whole file parsed by leaderboard.ParseTask, then filtered
// by leaderboard.Stable.
func wantChatRows(t *testing.T, data []byte) (map[rowKey]*upRow, error) {
	t.Helper()
	rows, err := leaderboard.ParseTask(format.PrimaryTask().ID, data)
	if err != nil {
		return nil, err
	}
	stable, _ := leaderboard.Stable(rows)
	x := newRowIndex()
	x.add(stable)
	return x.rows, nil
}

// TestDiffChatRows: the archived Text Conversation rows read as a stream
// are those of ParseTask and Stable on the whole file, whether each
// model's rows are together (one model at a time), apart (all the rows at
// once), or the file is one the stream does not take (ParseTask's error).
func TestDiffChatRows(t *testing.T) {
	seed := seedSnapshot(t)
	orig, err := os.ReadFile(filepath.Join(seed, filepath.FromSlash(chatPath)))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(orig, &doc); err != nil {
		t.Fatal(err)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(doc["configurations"], &rows); err != nil {
		t.Fatal(err)
	}
	withRows := func(rows []json.RawMessage) []byte {
		b, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Replace(orig, doc["configurations"], b, 1)
	}
	// Apart: the rows dealt out model by model in turn, and an exact
	// duplicate of the first row appended at the end (excluded by Stable).
	var byModel [][]json.RawMessage
	index := map[string]int{}
	for _, r := range rows {
		var id struct {
			ModelID string `json:"model_id"`
		}
		json.Unmarshal(r, &id)
		i, ok := index[id.ModelID]
		if !ok {
			i = len(byModel)
			index[id.ModelID] = i
			byModel = append(byModel, nil)
		}
		byModel[i] = append(byModel[i], r)
	}
	var dealt []json.RawMessage
	for n := 0; len(dealt) < len(rows); n++ {
		for _, m := range byModel {
			if n < len(m) {
				dealt = append(dealt, m[n])
			}
		}
	}
	dealt = append(dealt, rows[0])
	notUTF8 := bytes.Replace(orig, []byte(`"task_display_name": "`), []byte("\"task_display_name\": \"\xff"), 1)
	if bytes.Equal(notUTF8, orig) {
		t.Fatal("test setup: no task_display_name")
	}
	badRow := append([]json.RawMessage{}, rows...)
	badRow[5] = json.RawMessage(strings.Replace(string(badRow[5]), `"num_gpus"`, `"num_gpus": "two", "x"`, 1))

	for _, tc := range []struct {
		name    string
		data    []byte
		stream  error // streamTask's verdict
		wantErr string
	}{
		{"as archived", orig, nil, ""},
		{"reformatted", withRows(rows), nil, ""},
		{"models apart", withRows(dealt), errNotGrouped, ""},
		{"data after the object", append(append([]byte{}, orig...), " {}"...), errSlowPath, "after the top-level value"},
		{"not UTF-8 outside the rows", notUTF8, errSlowPath, "not valid UTF-8"},
		{"a bad row", withRows(badRow), errSlowPath, "configurations[5]"},
		{"no rows", withRows(nil), errSlowPath, "missing or empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copySnapshot(t)
			relist(t, dir, chatPath, tc.data)
			s := load(t, dir)
			grouped := map[string]bool{}
			last := ""
			err := streamTask(format.PrimaryTask().ID, bytes.NewReader(tc.data), func(r leaderboard.Row) bool {
				if r.ModelID != last && grouped[r.ModelID] {
					return false
				}
				grouped[r.ModelID], last = true, r.ModelID
				return true
			})
			if err != tc.stream {
				t.Errorf("streamTask: %v, want %v", err, tc.stream)
			}
			got, err := s.chatRows()
			want, wantErr := wantChatRows(t, tc.data)
			if tc.wantErr != "" {
				if wantErr == nil || !strings.Contains(wantErr.Error(), tc.wantErr) {
					t.Fatalf("test setup: ParseTask says %v, want an error saying %q", wantErr, tc.wantErr)
				}
				if err == nil || err.Error() != wantErr.Error() {
					t.Errorf("chatRows: %v\nwant ParseTask's error: %v", err, wantErr)
				}
				return
			}
			if err != nil || wantErr != nil {
				t.Fatalf("chatRows: %v; ParseTask: %v", err, wantErr)
			}
			if len(want) == 0 {
				t.Fatal("test setup: no stable rows")
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(upRow{}, rowKey{})); diff != "" {
				t.Errorf("rows (-ParseTask +chatRows):\n%s", diff)
			}
		})
	}
}

func TestDiffSameSnapshot(t *testing.T) {
	dir := seedSnapshot(t)
	r := Diff(load(t, dir), load(t, dir))
	if r.DataChanged || r.Summary != "18 models, no data change" {
		t.Errorf("summary %q", r.Summary)
	}
	for _, s := range r.Sources {
		if s.Status != "unchanged" {
			t.Errorf("source %+v", s)
		}
	}
}

func TestNaturalCompare(t *testing.T) {
	ids := []string{"m/H100/2/128", "m/B200/1/8", "m/H100/2/16", "m/H100/2/8", "m/H100/2/8/r2", "m/H100/10/8", "m/H100/2/096"}
	slices.SortFunc(ids, naturalCompare)
	want := []string{"m/B200/1/8", "m/H100/2/8", "m/H100/2/8/r2", "m/H100/2/16", "m/H100/2/096", "m/H100/2/128", "m/H100/10/8"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDiffChanged: what diff --exit-code counts as a change.
func TestDiffChanged(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    DiffReport
		want bool
	}{
		{"nothing", DiffReport{Sources: []SourceChange{{Name: "leaderboard/index.json", Status: "unchanged"}}}, false},
		{"a new retrieval date of the same bytes", DiffReport{Sources: []SourceChange{{Name: "leaderboard/index.json", Status: "changed", Changed: []string{"retrieved"}}}}, false},
		{"the same data in other bytes", DiffReport{Sources: []SourceChange{{Name: "leaderboard/commits.json", Status: "changed", Changed: []string{"sha256", "size"}}}}, true},
		{"a source added", DiffReport{Sources: []SourceChange{{Name: "ember/yearly_full_release_long_format.csv", Status: "added"}}}, true},
		{"a source removed", DiffReport{Sources: []SourceChange{{Name: "ember/yearly_full_release_long_format.csv", Status: "removed"}}}, true},
		{"data", DiffReport{DataChanged: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Changed(); got != tc.want {
				t.Errorf("Changed() = %v, want %v", got, tc.want)
			}
		})
	}
}
