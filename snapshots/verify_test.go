package snapshots

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
)

// testRoot holds the snapshots that tests share; TestMain removes it.
var testRoot = sync.OnceValues(func() (string, error) {
	return os.MkdirTemp("", "greentokens-snapshots-test-")
})

var versionBuilds struct {
	sync.Mutex
	dirs map[string]string
}

// seedSnapshot is versionSnapshot of the seeds' version.
func seedSnapshot(t *testing.T) string {
	t.Helper()
	return versionSnapshot(t, seedLeaderboard)
}

// versionSnapshot builds a snapshot (date seedDate) from a leaderboard
// version folder once per test binary and returns its folder. Tests must
// not change it: copySnapshot gives a copy to tamper with.
func versionSnapshot(t *testing.T, leaderboard string) string {
	t.Helper()
	version := filepath.Base(leaderboard)
	versionBuilds.Lock()
	defer versionBuilds.Unlock()
	if dir, ok := versionBuilds.dirs[version]; ok {
		return dir
	}
	root, err := testRoot()
	if err != nil {
		t.Fatal(err)
	}
	res, err := build(t, filepath.Join(root, version), sourceOf(leaderboard))
	if err != nil {
		t.Fatal(err)
	}
	if versionBuilds.dirs == nil {
		versionBuilds.dirs = map[string]string{}
	}
	versionBuilds.dirs[version] = res.Dir
	return res.Dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if root, err := testRoot(); err == nil {
		os.RemoveAll(root)
	}
	os.Exit(code)
}

// copySnapshot copies the seed snapshot to a new folder named for its date.
func copySnapshot(t *testing.T) string {
	t.Helper()
	src := seedSnapshot(t)
	dst := filepath.Join(t.TempDir(), seedDate)
	copyLeaderboard(t, src, dst)
	return dst
}

func verify(t *testing.T, dir string) *VerifyReport {
	t.Helper()
	rep, err := Verify(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerifyFreshBuild(t *testing.T) {
	dir := copySnapshot(t)
	before := tree(t, dir)
	rep := verify(t, dir)
	if !rep.OK || !rep.Rebuilt || len(rep.Problems) != 0 || len(rep.Diffs) != 0 || rep.Err() != nil {
		var b strings.Builder
		rep.WriteText(&b)
		t.Fatalf("a fresh build does not verify:\n%s", b.String())
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.Contains(text.String(), ": OK: ") {
		t.Errorf("text report does not say OK:\n%s", text.String())
	}
	// The snapshot was built by the tests' fixed generator, not by the
	// code verifying it: verify says both and how to run the first.
	rerun := "go run github.com/leadgreen/greentokens/cmd/greentokens@" + testGenerator.Revision + " verify " + dir
	if rep.BuiltBy == nil || *rep.BuiltBy != testGenerator || rep.VerifiedBy != ThisGenerator() || rep.SameCode || rep.Rerun != rerun {
		t.Errorf("built by %+v, verified by %+v, same code %v, rerun %q; want %+v, this code, false, %q",
			rep.BuiltBy, rep.VerifiedBy, rep.SameCode, rep.Rerun, testGenerator, rerun)
	}
	for _, want := range []string{"built by:    " + testGenerator.String(), "verified by: " + ThisGenerator().String(), "\n    " + rerun + "\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report does not say %q:\n%s", want, text.String())
		}
	}
	if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
		t.Errorf("verify changed the snapshot folder:\n%s", diff)
	}
}

// timedSource stamps every file with a retrieval time, as an HTTP source does.
type timedSource struct {
	fetch.Source
	at time.Time
}

func (s timedSource) Open(ctx context.Context, name string) (*fetch.Body, error) {
	b, err := s.Source.Open(ctx, name)
	if err == nil {
		b.Retrieved = s.at
	}
	return b, err
}

// A snapshot whose sources carry RFC 3339 retrieval times (an HTTP build,
// with no --retrieved), with a pinned grid year and a named Ember release,
// is rebuilt with the same times, year and release.
func TestVerifyBuildOptions(t *testing.T) {
	at := time.Date(2026, 9, 26, 7, 30, 12, 0, time.UTC)
	res, err := Build(context.Background(), BuildOptions{Out: t.TempDir(), Date: seedDate,
		Source: timedSource{seedSource(), at}, GridYear: 2023, EmberRelease: "September 2026"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Manifest.Sources[0].Retrieved; got != "2026-09-26T07:30:12Z" {
		t.Fatalf("source retrieved %q; want the RFC 3339 time", got)
	}
	if g := res.Manifest.Grid; g == nil || g.Year != 2023 {
		t.Fatalf("grid summary %+v; want the pinned year 2023", g)
	}
	if rep := verify(t, res.Dir); !rep.OK {
		var b strings.Builder
		rep.WriteText(&b)
		t.Fatalf("the snapshot does not verify:\n%s", b.String())
	}
}

// flipDigit replaces the first match of re in the file with the match's
// text where its last digit is changed (9 becomes 8, any other d becomes
// d+1).
func flipDigit(t *testing.T, path string, re string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	loc := regexp.MustCompile(re).FindIndex(b)
	if loc == nil {
		t.Fatalf("%s: no match for %s", path, re)
	}
	i := loc[1] - 1
	if b[i] < '0' || b[i] > '9' {
		t.Fatalf("%s: the match of %s does not end in a digit", path, re)
	}
	if b[i] == '9' {
		b[i] = '8'
	} else {
		b[i]++
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyCatchesTampering tampers with copies of a fresh snapshot, one
// way each, and checks that Verify fails naming the file (in its problems
// and in its rebuild differences), and that the folder is left exactly as
// it was.
// tamperWant is what a verify report of a tampered snapshot must name.
type tamperWant struct {
	problem string // a problem's file
	diff    string // a differing file's path
	kind    string // its kind
	change  string // text in one of its changes, or in its note
}

func TestVerifyCatchesTampering(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, dir string) []tamperWant
	}{
		{"digit in a model file", func(t *testing.T, dir string) []tamperWant {
			flipDigit(t, filepath.Join(dir, "models", "qwen-3-32b.json"), `"wh_per_million_output_tokens": 429\.18`)
			return []tamperWant{
				{problem: "models/qwen-3-32b.json"},
				{problem: format.ManifestPath},
				{diff: "models/qwen-3-32b.json", kind: "changed",
					change: "configurations[0] (qwen-3-32b/B200/1/8).wh_per_million_output_tokens: 429.19 -> 429.18"},
			}
		}},
		{"digit in index.json", func(t *testing.T, dir string) []tamperWant {
			p := filepath.Join(dir, format.IndexPath)
			flipDigit(t, p, `"wh_per_million_output_tokens": [0-9]+\.[0-9]+`)
			return []tamperWant{{problem: format.IndexPath}, {problem: format.ManifestPath}, {diff: format.IndexPath, kind: "changed", change: "wh_per_million_output_tokens"}}
		}},
		{"digit in an archived source", func(t *testing.T, dir string) []tamperWant {
			// The energy of qwen-3-32b's B200 row at cap 8: 1.5450541142659606 J -> 1.555...
			flipDigit(t, filepath.Join(dir, "sources", "leaderboard", "tasks", "lm-arena-chat.json"), `"energy_per_token_joules": 1\.54`)
			return []tamperWant{
				{problem: format.ManifestPath},
				{problem: "models/qwen-3-32b.json"},
				{diff: "models/qwen-3-32b.json", kind: "changed", change: "configurations[0] (qwen-3-32b/B200/1/8).wh_per_million_output_tokens: 429.18 -> 431.96"},
				{diff: format.ManifestPath, kind: "changed", change: "(sources/leaderboard/tasks/lm-arena-chat.json).sha256"},
			}
		}},
		{"digit in the manifest", func(t *testing.T, dir string) []tamperWant {
			flipDigit(t, filepath.Join(dir, format.ManifestPath), `"path": "models/qwen-3-14b.json",\s*"size": [0-9]+`)
			return []tamperWant{
				{problem: format.ManifestPath},
				{diff: format.ManifestPath, kind: "changed", change: "(models/qwen-3-14b.json).size"},
			}
		}},
		{"digit in a page", func(t *testing.T, dir string) []tamperWant {
			flipDigit(t, filepath.Join(dir, "pages", "qwen-3-32b.md"), `\| 8 \| 8 \| 429\.2`)
			return []tamperWant{
				{problem: format.ManifestPath},
				{diff: "pages/qwen-3-32b.md", kind: "changed", change: `"| 8 | 8 | 429.3 |`},
			}
		}},
		{"deleted file", func(t *testing.T, dir string) []tamperWant {
			if err := os.Remove(filepath.Join(dir, "models", "qwen-3-14b.json")); err != nil {
				t.Fatal(err)
			}
			return []tamperWant{{problem: "models/qwen-3-14b.json"}, {diff: "models/qwen-3-14b.json", kind: "missing"}}
		}},
		{"stray file", func(t *testing.T, dir string) []tamperWant {
			if err := os.WriteFile(filepath.Join(dir, "models", "notes.txt"), []byte("hello\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return []tamperWant{{problem: "models/notes.txt"}, {diff: "models/notes.txt", kind: "extra"}}
		}},
		{"a byte of the archived Ember CSV changed", func(t *testing.T, dir string) []tamperWant {
			// Germany's 2022 CO2 intensity (the reference year by the
			// rule), as published: 420.11 -> 420.12.
			flipDigit(t, filepath.Join(dir, "sources", filepath.FromSlash(fetch.EmberYearly)), `Germany,DEU,2022,Country or economy,[^\n]*,gCO2/kWh,420\.11`)
			return []tamperWant{
				{problem: format.ManifestPath},
				{problem: "grid.json"},
				{diff: "grid.json", kind: "changed", change: "areas[81] (Germany).g_co2e_per_kwh: 420.11 -> 420.12"},
				{diff: format.ManifestPath, kind: "changed", change: "(sources/" + fetch.EmberYearly + ").sha256"},
			}
		}},
		{"archived Ember CSV no longer Ember's layout", func(t *testing.T, dir string) []tamperWant {
			p := filepath.Join(dir, "sources", filepath.FromSlash(fetch.EmberYearly))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			// One byte of the header: the Variable column is gone.
			i := bytes.Index(b, []byte(",Variable,"))
			if i < 0 || i > bytes.IndexByte(b, '\n') {
				t.Fatal("no Variable column in the archived CSV's header")
			}
			b[i+1] = 'W'
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			// The rebuild cannot read it: that is a problem, and nothing
			// is compared.
			return []tamperWant{{problem: format.ManifestPath}, {problem: "sources/" + fetch.EmberYearly}, {problem: "."}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := copySnapshot(t)
			wants := tc.tamper(t, dir)
			before := tree(t, dir)
			rep := verify(t, dir)
			var text bytes.Buffer
			rep.WriteText(&text)
			t.Logf("report:\n%s", text.String())
			if rep.OK || rep.Err() == nil {
				t.Fatal("verify passed a tampered snapshot")
			}
			for _, w := range wants {
				checkTamperWant(t, rep, text.String(), w)
			}
			if diff := cmp.Diff(before, tree(t, dir)); diff != "" {
				t.Errorf("a failing verify changed the snapshot folder:\n%s", diff)
			}
			// The JSON report says the same.
			var js bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var back VerifyReport
			if err := json.Unmarshal(js.Bytes(), &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(*rep, back); diff != "" {
				t.Errorf("the JSON report does not round-trip:\n%s", diff)
			}
		})
	}
}

// checkTamperWant checks that rep, and its text, name what w says.
func checkTamperWant(t *testing.T, rep *VerifyReport, text string, w tamperWant) {
	t.Helper()
	switch {
	case w.problem != "":
		found := false
		for _, p := range rep.Problems {
			found = found || p.File == w.problem
		}
		if !found {
			t.Errorf("no problem names %s", w.problem)
		}
	case w.diff != "":
		var d *FileDiff
		for i := range rep.Diffs {
			if rep.Diffs[i].Path == w.diff {
				d = &rep.Diffs[i]
			}
		}
		if d == nil {
			t.Errorf("no rebuild difference names %s", w.diff)
			return
		}
		if d.Kind != w.kind {
			t.Errorf("%s: kind %s, want %s", w.diff, d.Kind, w.kind)
		}
		if w.change != "" {
			found := strings.Contains(d.Note, w.change)
			for _, c := range d.Changes {
				found = found || strings.Contains(c.Path+": "+c.Stored+" -> "+c.Rebuilt, w.change)
			}
			if !found {
				t.Errorf("%s: no change says %q: %+v", w.diff, w.change, d)
			}
		}
	}
	name := w.problem + w.diff
	if name != "." && !strings.Contains(text, name) {
		t.Errorf("the text report does not name %s", name)
	}
}

func TestVerifyMissingFolder(t *testing.T) {
	rep := verify(t, filepath.Join(t.TempDir(), "2026-01-01"))
	if rep.OK || rep.Rebuilt || len(rep.Problems) == 0 {
		t.Fatalf("a missing folder verifies: %+v", rep)
	}
}

func TestLoad(t *testing.T) {
	dir := copySnapshot(t)
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Models) != 18 || s.Models["qwen-3-32b"].ModelID != "Qwen/Qwen3-32B" {
		t.Errorf("loaded %d models; qwen-3-32b: %+v", len(s.Models), s.Models["qwen-3-32b"])
	}
	if s.Grid == nil || len(s.Grid.Areas) == 0 {
		t.Errorf("grid.json not loaded")
	}
	seed, _ := os.ReadFile(sample.Seed("qwen-3-32b.json"))
	if b, ok := s.Bytes("models/qwen-3-32b.json"); !ok || !bytes.Equal(b, seed) {
		t.Errorf("Bytes(models/qwen-3-32b.json) is not the file")
	}
	if src := s.Source(fetch.LeaderboardIndex); src == nil || src.Path != "sources/leaderboard/index.json" {
		t.Errorf("Source(%s) = %+v", fetch.LeaderboardIndex, src)
	}

	// A manifest with the same content in another form is refused.
	mp := filepath.Join(dir, format.ManifestPath)
	b, _ := os.ReadFile(mp)
	os.WriteFile(mp, append(b, '\n'), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "canonical") {
		t.Errorf("Load of a non-canonical manifest: %v", err)
	}
	os.WriteFile(mp, b, 0o644)

	// So is a listed file whose bytes changed; and once loaded, a file read
	// again (Bytes, Model) is checked again.
	flipDigit(t, filepath.Join(dir, "models", "qwen-3-14b.json"), `"wh_per_million_output_tokens": [0-9]+\.[0-9]+`)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "models/qwen-3-14b.json") {
		t.Errorf("Load of a changed model file: %v", err)
	}
	if _, ok := s.Bytes("models/qwen-3-14b.json"); ok {
		t.Errorf("Bytes of a file changed since Load")
	}
	if _, err := s.Model("qwen-3-14b"); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("Model of a file changed since Load: %v", err)
	}
	if m, err := s.Model("qwen-3-32b"); err != nil || m.ModelID != "Qwen/Qwen3-32B" || len(m.Configurations) == 0 {
		t.Errorf("Model(qwen-3-32b): %v", err)
	}
}

// Load checks that index.json decodes, as it streams in: a value of the
// wrong type anywhere in it fails; a field it does not know is ignored.
func TestLoadIndex(t *testing.T) {
	idx, err := os.ReadFile(filepath.Join(seedSnapshot(t), format.IndexPath))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, old, new string
		wantErr        string
	}{
		{"a field it does not know", `"models": [`, `"extra": {"a": [1, 2]}, "models": [`, ""},
		{"a number as a string in a list", `"configurations": `, `"configurations": "many", "x": `, "index.json: field models[0]"},
		{"a list as an object", `"load_curves": [`, `"load_curves": {"a": 1}, "x": [`, "index.json: field \"load_curves\""},
		{"a string as a number", `"itl_deadline_ms": `, `"itl_deadline_ms": "x", "y": `, "index.json: field itl_deadline_ms"},
		{"data after it", "", "", "index.json: invalid JSON after the top-level value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := append([]byte{}, idx...)
			if tc.old == "" {
				data = append(data, " []"...)
			} else if data = bytes.Replace(data, []byte(tc.old), []byte(tc.new), 1); bytes.Equal(data, idx) {
				t.Fatalf("test setup: no %s in index.json", tc.old)
			}
			var v format.IndexFile
			uerr := json.Unmarshal(data, &v)
			dir := copySnapshot(t)
			relist(t, dir, format.IndexPath, data)
			_, err := Load(dir)
			if tc.wantErr == "" {
				if err != nil || uerr != nil {
					t.Fatalf("Load: %v (json.Unmarshal: %v)", err, uerr)
				}
				return
			}
			if uerr == nil {
				t.Fatalf("test setup: json.Unmarshal takes it")
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, failure.ErrValidation) {
				t.Errorf("Load: %v\nwant an failure.ErrValidation saying %q (json.Unmarshal: %v)", err, tc.wantErr, uerr)
			}
		})
	}
}

func TestDiffFile(t *testing.T) {
	for _, tc := range []struct {
		name, stored, rebuilt string
		want                  []Change
		note                  string
	}{
		{"values", `{"a": [{"row_id": "r1", "v": 1.0}, {"row_id": "r2", "v": 2}], "b": "x"}`,
			`{"a": [{"row_id": "r1", "v": 1.5}, {"row_id": "r2", "v": 2}], "b": 2, "c": null}`,
			[]Change{
				{Path: "a[0] (r1).v", Stored: "1.0", Rebuilt: "1.5"},
				{Path: "b", Stored: `"x"`, Rebuilt: "2"},
				{Path: "c", Stored: "", Rebuilt: "null"},
			}, ""},
		{"a row more", `{"a": [{"row_id": "r1"}]}`, `{"a": [{"row_id": "r1"}, {"row_id": "r2"}]}`,
			[]Change{{Path: "a[+1] (r2)", Stored: "", Rebuilt: `{"row_id":"r2"}`}}, ""},
		{"formatting only", `{"a": 1}`, `{"a":1}`, nil, "the same JSON values, formatted differently"},
		{"not JSON", `{"a": `, `{"a": 1}`, nil, "the stored file is not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := diffFile("f.json", []byte(tc.stored), []byte(tc.rebuilt))
			if diff := cmp.Diff(tc.want, d.Changes); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if !strings.Contains(d.Note, tc.note) {
				t.Errorf("note %q does not say %q", d.Note, tc.note)
			}
		})
	}
}
