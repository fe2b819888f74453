package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/leadgreen/greentokens/internal/sample"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/validate"
)

// kosovoGrids is sevenGrids with Kosovo, which has values for 2025 and
// 2026 only: later than the 2024 grid, so not in it even as a fallback.
const kosovoGrids = "testdata/grids-kosovo-later.csv"

// builtSnapshots builds, once per test binary, a snapshot with the Kosovo
// grids and one without a grid, for the read-only commands (which must not
// change them). TestMain removes them.
func builtSnapshots(t *testing.T) (withGrid, noGrid string) {
	t.Helper()
	dirs, err := sharedSnapshots()
	if err != nil {
		t.Fatal(err)
	}
	return dirs[0], dirs[1]
}

var sharedRoot = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "greentokens-cmd-test-") })

var sharedSnapshots = sync.OnceValues(func() ([2]string, error) {
	root, err := sharedRoot()
	if err != nil {
		return [2]string{}, err
	}
	lb, err := sample.Small()
	if err != nil {
		return [2]string{}, err
	}
	var dirs [2]string
	for i, src := range [][]string{{"--from-ember", kosovoGrids}, {"--no-grid"}} {
		out := filepath.Join(root, fmt.Sprint(i))
		var stdout, stderr bytes.Buffer
		args := append([]string{"build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn, "--from-leaderboard", lb}, src...)
		if code := run(args, &stdout, &stderr); code != exitOK {
			return dirs, fmt.Errorf("build %q: exit %d: %s", args, code, stderr.String())
		}
		dirs[i] = filepath.Join(out, seedDate)
	}
	return dirs, nil
})

// TestReadCommands: list, carbon and render on a built snapshot, through
// the command line.
func TestReadCommands(t *testing.T) {
	snap, noGrid := builtSnapshots(t)

	t.Run("list models --json", func(t *testing.T) {
		code, stdout, stderr := runCLI(t, "list", "models", "--snapshot", snap, "--json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if probs := validate.CheckSchema("list-models.schema.json", "list models --json", []byte(stdout)); len(probs) != 0 {
			t.Errorf("does not pass schemas/list-models.schema.json: %v", probs)
		}
		var l catalog.ModelList // the API's /models answer
		if err := json.Unmarshal([]byte(stdout), &l); err != nil {
			t.Fatal(err)
		}
		if l.Snapshot != seedDate || len(l.Models) != 3 {
			t.Errorf("snapshot %q, %d models; want %s, 3", l.Snapshot, len(l.Models), seedDate)
		}
		for _, m := range l.Models {
			if m.Slug == "qwen-3-32b" && (m.ModelID != "Qwen/Qwen3-32B" || !cmp.Equal(m.GPUs, []string{"B200", "H100"}) ||
				len(m.IndexRows) != 2 || m.IndexRows[1].RowID != "qwen-3-32b/H100/2/256") {
				t.Errorf("qwen-3-32b: %+v", m)
			}
		}
	})
	t.Run("list grids --json, flags first", func(t *testing.T) {
		code, stdout, stderr := runCLI(t, "list", "--json", "--snapshot", snap, "grids", "--year", "2024")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if probs := validate.CheckSchema("list-grids.schema.json", "list grids --json", []byte(stdout)); len(probs) != 0 {
			t.Errorf("does not pass schemas/list-grids.schema.json: %v", probs)
		}
		var l catalog.GridList // MCP's list_grids answer
		if err := json.Unmarshal([]byte(stdout), &l); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, g := range l.Areas {
			names = append(names, g.Name)
		}
		want := []string{"Germany", "Hong Kong", "India", "Norway", "Saudi Arabia", "Serbia", "World"}
		if l.Snapshot != seedDate || l.Year != 2024 || !cmp.Equal(names, want) {
			t.Errorf("snapshot %q, year %d, grids %q; want %s, 2024, %q", l.Snapshot, l.Year, names, seedDate, want)
		}
	})
	t.Run("list models as a table", func(t *testing.T) {
		code, stdout, _ := runCLI(t, "list", "models", "--snapshot", snap)
		if code != exitOK || !strings.Contains(stdout, "3 models in snapshot "+seedDate) || !strings.Contains(stdout, "qwen-3-32b") {
			t.Errorf("exit %d:\n%s", code, stdout)
		}
	})

	// One model, however it is spelled.
	var first string
	for _, q := range []string{"qwen-3-32b", "qwen3 32b", "Qwen/Qwen3-32B", "QWEN 3 32B"} {
		code, stdout, stderr := runCLI(t, "carbon", q, "IND", "--snapshot", snap, "--json")
		if code != exitOK {
			t.Fatalf("carbon %q: exit %d: %s", q, code, stderr)
		}
		if first == "" {
			first = stdout
		} else if stdout != first {
			t.Errorf("carbon %q prices another model than qwen-3-32b:\n%s", q, stdout)
		}
	}

	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"list with an unknown kind", []string{"list", "configs", "--snapshot", snap}, []string{"want models, grids or tasks"}},
		{"list with a mistyped kind", []string{"list", "modls", "--snapshot", snap}, []string{`list "modls": want models, grids or tasks; did you mean models?`}},
		{"list with a mistyped kind, in capitals", []string{"list", "--snapshot", snap, "Grid"}, []string{"did you mean grids?"}},
		{"list grids of a year the grid lacks", []string{"list", "grids", "--snapshot", snap, "--year", "2022"},
			[]string{"its values are of 2024 (7 grids)", "cannot give 2022 as the reference year: it can give 2024 (the years World has a value for)"}},
		{"list grids of a year to come", []string{"list", "grids", "--snapshot", snap, "--year", "2031"}, []string{"cannot give 2031", "it can give 2024"}},
		{"list with two kinds", []string{"list", "models", "grids", "--snapshot", snap}, []string{"got 2 arguments"}},
		{"list with no kind", []string{"list", "--snapshot", snap}, []string{"got 0 arguments"}},
		{"carbon: a grid only in later years", []string{"carbon", "--snapshot", snap, "qwen-3-32b", "Kosovo"},
			[]string{`GRID "Kosovo": no value for Kosovo (XKX) in the 2024 grid`, "Kosovo for 2025-2026", "--grid-year 2026"}},
		{"carbon on a snapshot built --no-grid", []string{"carbon", "--snapshot", noGrid, "qwen-3-32b"}, []string{"--no-grid"}},
		{"render --grids with a grid the snapshot lacks", []string{"render", "--snapshot", snap, "qwen-3-32b", "--grids", "India,Kosovo"},
			[]string{"--grids", "Kosovo for 2025-2026"}},
		{"render --grids mistyped", []string{"render", "--snapshot", snap, "qwen-3-32b", "--grids", "Germny"}, []string{`nearest: "Germany"`}},
		{"render an unknown model", []string{"render", "--snapshot", snap, "qwen-3-9b"}, []string{`no model "qwen-3-9b"; did you mean "qwen-3-8b"`}},
		{"render a model far from any", []string{"render", "--snapshot", snap, "gpt-4"}, []string{"no model \"gpt-4\"\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr: %s", code, exitUsage, stderr)
			}
			if !strings.HasPrefix(stderr, "greentokens: ") {
				t.Errorf("stderr is not a plain error line: %q", stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr does not say %q: %s", w, stderr)
				}
			}
			// A year the archived CSV cannot give is never suggested to build.
			if strings.Contains(stderr, "cannot give") && strings.Contains(stderr, "--grid-year") {
				t.Errorf("stderr suggests a build that would fail: %s", stderr)
			}
		})
	}

	// render takes any spelling of the model too.
	code, stdout, _ := runCLI(t, "render", "Qwen/Qwen3-32B", "--snapshot", snap)
	if code != exitOK || !strings.Contains(stdout, "39.1 Wh/M") {
		t.Errorf("render Qwen/Qwen3-32B: exit %d", code)
	}
}

// TestCompletion: the shell completes model slugs and grid names from the
// --snapshot given, and the completion scripts are generated.
func TestCompletion(t *testing.T) {
	snap, _ := builtSnapshots(t)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"model slugs", []string{"__complete", "carbon", "--snapshot", snap, "qwen-3-"}, []string{"qwen-3-32b", "qwen-3-14b", "qwen-3-8b"}},
		{"grid names", []string{"__complete", "carbon", "--snapshot", snap, "qwen-3-32b", "Ger"}, []string{"Germany"}},
		{"render --grids", []string{"__complete", "render", "--snapshot", snap, "--grids", "Nor"}, []string{"Norway"}},
		{"render --grids, the second name", []string{"__complete", "render", "--snapshot", snap, "--grids", "India,Nor"}, []string{"India,Norway"}},
		{"site --grids, after flags and a comma", []string{"__complete", "site", "--out", "web", "--snapshot", snap, "--grids", "IND,ger"}, []string{"IND,Germany"}},
		{"render: model slugs", []string{"__complete", "render", "--snapshot", snap, "qwen-3-8"}, []string{"qwen-3-8b"}},
		{"list kinds", []string{"__complete", "list", ""}, []string{"models", "grids"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w+"\n") {
					t.Errorf("completions do not offer %q:\n%s", w, stdout)
				}
			}
		})
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, stdout, _ := runCLI(t, "completion", shell)
		if code != exitOK || !strings.Contains(stdout, "greentokens") {
			t.Errorf("completion %s: exit %d, %d bytes", shell, code, len(stdout))
		}
	}
}

// TestVersion: "version" and "--version" print the same record, the one a
// build writes as the manifest's generator.
func TestVersion(t *testing.T) {
	c1, v1, _ := runCLI(t, "version")
	c2, v2, _ := runCLI(t, "--version")
	if c1 != exitOK || c2 != exitOK || v1 != v2 || !strings.HasPrefix(v1, "greentokens github.com/leadgreen/greentokens ") {
		t.Errorf("version: exit %d %q; --version: exit %d %q", c1, v1, c2, v2)
	}
}

// tensorParallelOne is a copy of the small leaderboard version with Qwen 3
// 32B's rows on 2 x H100 at tensor_parallel 1 instead of 2 (a change of a
// configuration's setting, not of its figures), and returns its folder.
func tensorParallelOne(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(smallLB(t))); err != nil {
		t.Fatal(err)
	}
	chat := filepath.Join(dir, "tasks", "lm-arena-chat.json")
	b, err := os.ReadFile(chat)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.SplitAfter(string(b), "\n    }")
	edited := 0
	for i, r := range rows {
		if strings.Contains(r, `"model_id": "Qwen/Qwen3-32B"`) && strings.Contains(r, `"gpu_model": "H100"`) && strings.Contains(r, `"num_gpus": 2,`) {
			rows[i] = strings.Replace(r, `"tensor_parallel": 2,`, `"tensor_parallel": 1,`, 1)
			if rows[i] != r {
				edited++
			}
		}
	}
	if edited != 9 {
		t.Fatalf("edited %d rows of Qwen 3 32B on 2 x H100, want its 9", edited)
	}
	if err := os.WriteFile(chat, []byte(strings.Join(rows, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDiffExitCode: diff --exit-code exits 1 when anything changed, 0
// when nothing did.
func TestDiffExitCode(t *testing.T) {
	a, _ := builtSnapshots(t)
	out := t.TempDir()
	if code, _, stderr := runCLI(t, "build", "--out", out, "--date", seedDate, "--retrieved", seedReadOn,
		"--from-leaderboard", tensorParallelOne(t), "--from-ember", kosovoGrids); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	b := filepath.Join(out, seedDate)
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"diff", a, a, "--exit-code"}, exitOK},
		{[]string{"diff", "--exit-code", b, a}, exitFailure},
		{[]string{"diff", b, a}, exitOK},
	} {
		if code, _, stderr := runCLI(t, tc.args...); code != tc.want || stderr != "" {
			t.Errorf("%q: exit %d, want %d; stderr %q", tc.args, code, tc.want, stderr)
		}
	}
	// Configurations sort by their numbers, and figures are JSON numbers.
	_, stdout, _ := runCLI(t, "diff", "--json", b, a)
	var rep struct {
		Configurations []struct {
			Changed []struct {
				RowID  string `json:"row_id"`
				Fields []struct {
					Old any `json:"old"`
				} `json:"fields"`
			} `json:"changed"`
		} `json:"configurations"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Configurations) == 0 {
		t.Fatalf("diff --json: %v, %d models", err, len(rep.Configurations))
	}
	ids := []string{}
	for _, c := range rep.Configurations[0].Changed {
		ids = append(ids, c.RowID)
		if _, ok := c.Fields[0].Old.(float64); !ok {
			t.Errorf("%s: %s old is %T, want a JSON number", c.RowID, "tensor_parallel", c.Fields[0].Old)
		}
	}
	want := []string{"qwen-3-32b/H100/2/8", "qwen-3-32b/H100/2/16", "qwen-3-32b/H100/2/32", "qwen-3-32b/H100/2/64",
		"qwen-3-32b/H100/2/96", "qwen-3-32b/H100/2/128", "qwen-3-32b/H100/2/192", "qwen-3-32b/H100/2/256", "qwen-3-32b/H100/2/384"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("qwen-3-32b's changed configurations, in order (-want +got):\n%s", diff)
	}
}

// TestDiffTamperedFigure: a snapshot whose model file says 3.05 where the
// archived upstream row gives 39.05 Wh/M (its manifest entry updated, so
// the snapshot loads) is reported, exit 5 with or without --exit-code or
// --json, naming the file and the field; no report calls it rounding.
func TestDiffTamperedFigure(t *testing.T) {
	a, _ := builtSnapshots(t)
	tampered := filepath.Join(t.TempDir(), seedDate)
	copyTree(t, a, tampered)
	p := filepath.Join(tampered, "models", "qwen-3-32b.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.ReplaceAll(string(b), `"wh_per_million_output_tokens": 39.05,`, `"wh_per_million_output_tokens": 3.05,`)
	if strings.Count(string(b), `"wh_per_million_output_tokens": 39.05,`) != 2 {
		t.Fatalf("test setup: %s has not one configuration and its index row at 39.05 Wh/M", p)
	}
	replaceListed(t, tampered, "models/qwen-3-32b.json", []byte(edited))
	for _, args := range [][]string{{"diff", a, tampered}, {"diff", "--exit-code", a, tampered}, {"diff", "--json", tampered, a}} {
		code, stdout, stderr := runCLI(t, args...)
		want := tampered + ": models/qwen-3-32b.json: best.B200: wh_per_million_output_tokens is 3.05, which is no rounding of 39.05"
		if code != exitValidation || !strings.Contains(stderr, want) {
			t.Errorf("%q: exit %d, want %d saying %q\nstdout: %s\nstderr: %s", args, code, exitValidation, want, stdout, stderr)
		}
		if stdout != "" {
			t.Errorf("%q printed a report of a snapshot that fails its checks:\n%s", args, stdout)
		}
	}
}
