package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

func TestMain(m *testing.M) { snaptest.Main(m) }

func verify(t *testing.T, dir string) *Report {
	t.Helper()
	rep, err := Verify(context.Background(), regfile.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerifyFreshBuild(t *testing.T) {
	dir := snaptest.CopySnapshot(t)
	before := snaptest.Tree(t, dir)
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
	rerun := "go run github.com/leadgreen/greentokens/cmd/greentokens@" + snaptest.Generator.Revision + " verify " + dir
	if rep.BuiltBy == nil || *rep.BuiltBy != snaptest.Generator || rep.VerifiedBy != build.ThisGenerator() || rep.SameCode || rep.Rerun != rerun {
		t.Errorf("built by %+v, verified by %+v, same code %v, rerun %q; want %+v, this code, false, %q",
			rep.BuiltBy, rep.VerifiedBy, rep.SameCode, rep.Rerun, snaptest.Generator, rerun)
	}
	for _, want := range []string{"built by:    " + snaptest.Generator.String(), "verified by: " + build.ThisGenerator().String(), "\n    " + rerun + "\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report does not say %q:\n%s", want, text.String())
		}
	}
	if diff := cmp.Diff(before, snaptest.Tree(t, dir)); diff != "" {
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
	res, err := build.Build(context.Background(), build.Options{Out: t.TempDir(), Date: snaptest.SeedDate,
		Source: timedSource{snaptest.SmallSource(t), at}, GridYear: 2023, EmberRelease: "September 2026"})
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
			snaptest.FlipDigit(t, filepath.Join(dir, "models", "qwen-3-32b.json"), `"wh_per_million_output_tokens": 429\.18`)
			return []tamperWant{
				{problem: "models/qwen-3-32b.json"},
				{problem: format.ManifestPath},
				{diff: "models/qwen-3-32b.json", kind: "changed",
					change: "configurations[0] (qwen-3-32b/B200/1/8).wh_per_million_output_tokens: 429.19 -> 429.18"},
			}
		}},
		{"digit in index.json", func(t *testing.T, dir string) []tamperWant {
			p := filepath.Join(dir, format.IndexPath)
			snaptest.FlipDigit(t, p, `"wh_per_million_output_tokens": [0-9]+\.[0-9]+`)
			return []tamperWant{{problem: format.IndexPath}, {problem: format.ManifestPath}, {diff: format.IndexPath, kind: "changed", change: "wh_per_million_output_tokens"}}
		}},
		{"digit in an archived source", func(t *testing.T, dir string) []tamperWant {
			// The energy of qwen-3-32b's B200 row at cap 8: 1.5450541142659606 J -> 1.555...
			snaptest.FlipDigit(t, filepath.Join(dir, "sources", "leaderboard", "tasks", "lm-arena-chat.json"), `"energy_per_token_joules": 1\.54`)
			return []tamperWant{
				{problem: format.ManifestPath},
				{problem: "models/qwen-3-32b.json"},
				{diff: "models/qwen-3-32b.json", kind: "changed", change: "configurations[0] (qwen-3-32b/B200/1/8).wh_per_million_output_tokens: 429.18 -> 431.96"},
				{diff: format.ManifestPath, kind: "changed", change: "(sources/leaderboard/tasks/lm-arena-chat.json).sha256"},
			}
		}},
		{"digit in the manifest", func(t *testing.T, dir string) []tamperWant {
			snaptest.FlipDigit(t, filepath.Join(dir, format.ManifestPath), `"path": "models/qwen-3-14b.json",\s*"size": [0-9]+`)
			return []tamperWant{
				{problem: format.ManifestPath},
				{diff: format.ManifestPath, kind: "changed", change: "(models/qwen-3-14b.json).size"},
			}
		}},
		{"digit in a page", func(t *testing.T, dir string) []tamperWant {
			snaptest.FlipDigit(t, filepath.Join(dir, "pages", "qwen-3-32b.md"), `\| 8 \| 8 \| 429\.2`)
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
			snaptest.FlipDigit(t, filepath.Join(dir, "sources", filepath.FromSlash(fetch.EmberYearly)), `Germany,DEU,2022,Country or economy,[^\n]*,gCO2/kWh,420\.11`)
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
			dir := snaptest.CopySmallSnapshot(t)
			wants := tc.tamper(t, dir)
			before := snaptest.Tree(t, dir)
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
			if diff := cmp.Diff(before, snaptest.Tree(t, dir)); diff != "" {
				t.Errorf("a failing verify changed the snapshot folder:\n%s", diff)
			}
			// The JSON report says the same.
			var js bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			var back Report
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
func checkTamperWant(t *testing.T, rep *Report, text string, w tamperWant) {
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
