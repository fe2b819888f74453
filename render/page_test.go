package render

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
)

var update = flag.Bool("update", false, "rewrite the golden pages under testdata/")

// seedGrid is the fixture with the seven grid values of the seed page
// (Ember's September 2026 release, 2024), in Ember's layout.
const seedGrid = "testdata/ember-seed-2024.csv"

// The tasks of the sample, by the leaderboard's ids.
const (
	taskChat    = "lm-arena-chat"
	taskProblem = "gpqa"
)

func readFile(t testing.TB, dir string, parts ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{dir}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func write(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// snapshotDir lays out the published files of a snapshot built from the
// leaderboard version folder up (dates of the seeds) in a temporary folder:
// index.json, models/, the archived task files, and grid.json from the
// fixture unless withGrid is false.
func snapshotDir(t testing.TB, up string, withGrid bool) string {
	t.Helper()
	dir := t.TempDir()
	chat := readFile(t, up, "tasks", "lm-arena-chat.json")
	gpqa := readFile(t, up, "tasks", "gpqa.json")
	lb, _, err := transform.NewLeaderboard(transform.LeaderboardFiles{
		Index: readFile(t, up, "index.json"), Commits: readFile(t, up, "commits.json"), Primary: chat,
		PrimaryURL: "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/tasks/lm-arena-chat.json",
	}, "2026-09-27", "2026-09-26")
	if err != nil {
		t.Fatal(err)
	}
	models, err := transform.Models(lb)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range models {
		b, err := format.Marshal(m.File)
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, format.ModelPath(m.File.Slug), b)
	}
	if _, err := lb.AddTask(taskProblem, gpqa); err != nil {
		t.Fatal(err)
	}
	b, err := format.Marshal(buildIndex(t, lb, models))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, format.IndexPath, b)
	write(t, dir, format.SourcesDir+format.LeaderboardTask(taskChat), chat)
	write(t, dir, format.SourcesDir+format.LeaderboardTask(taskProblem), gpqa)
	if withGrid {
		f, err := os.Open(seedGrid)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		tab, err := grid.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := grid.Build(tab, 0, grid.SourceMeta{
			URL:       "https://storage.googleapis.com/emb-prod-bkt-publicdata/public-downloads/yearly_full_release_long_format.csv",
			Retrieved: "2026-09-26", Release: "September 2026", DataVersion: "2026-09-27",
		})
		if err != nil {
			t.Fatal(err)
		}
		gb, err := format.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, format.GridPath, gb)
	}
	return dir
}

// buildIndex builds index.json as a build does: from the leaderboard with
// its stable Problem Solving rows, the model files added one at a time.
func buildIndex(t testing.TB, lb *transform.Leaderboard, models []*transform.Built) *format.IndexFile {
	t.Helper()
	b := transform.NewIndexBuilder(lb)
	for _, m := range models {
		if err := b.Add(m); err != nil {
			t.Fatal(err)
		}
	}
	idx, err := b.Index()
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func render(t *testing.T, dir, slug string, opts Options) string {
	t.Helper()
	s, err := Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(s, slug, opts)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// seedDoc builds the Qwen 3 32B page of the seed version, figures and all.
func seedDoc(t *testing.T) *Doc {
	t.Helper()
	s, err := Load(os.DirFS(snapshotDir(t, sample.Leaderboard(), true)))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Build(s, "qwen-3-32b", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestGoldenPage compares the rendered Qwen 3 32B page with
// testdata/qwen-3-32b.md byte for byte; go test -update rewrites it.
func TestGoldenPage(t *testing.T) {
	got := render(t, snapshotDir(t, sample.Leaderboard(), true), "qwen-3-32b", Options{})
	const golden = "testdata/qwen-3-32b.md"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("the page differs from %s (-golden +rendered); run with -update if the change is meant:\n%s", golden, cmp.Diff(string(want), got))
	}
}

// seedFigures are strings of the published seed page
// (testdata/seeds/qwen-3-32b.page.txt at the repository's root), each holding a figure. They are
// copied from the seed, not from the renderer's output: the test checks that
// each is in the seed and in the rendered page.
var seedFigures = []string{
	// The headline.
	"39.1 Wh/M on 1 × B200 (running batch 383, median inter-token latency 50 ms)",
	"63.5 Wh/M on 2 × H100 (running batch 256, median inter-token latency 44 ms)",
	"Model Qwen/Qwen3-32B", "weights in BF16", "Measured 22 configurations on B200 and H100",
	"models/qwen-3-32b.json", "27 September 2026", "0.0036 joules per token",
	// The load curve of 1 × B200.
	"429.2 Wh/M at a running batch of 8", "39.1 Wh/M at 383", "11.0×", "13 percent", "from 860 to 972 W",
	"12.4×", "from 556 to 6,912 tokens a second", "50 ms or under", "at a cap of 512", "41.9 Wh/M at 58 ms",
	// H100 against B200.
	"1.63×", "63.5 Wh/M on 2 × H100 against 39.1 Wh/M on 1 × B200", "256 on 2 cards", "383 on 1", "14 models",
	// Carbon.
	"| India | 707 | 27.6 |", "| Saudi Arabia | 692 | 27.0 |", "| Hong Kong | 676 | 26.4 |", "| Serbia | 668 | 26.1 |",
	"| World | 474 | 18.5 |", "| Germany | 340 | 13.3 |", "| Norway | 30 | 1.2 |", "1.2 kg", "Ember 2024",
	// Two tasks.
	"24.6× the energy per response and 2.22× the energy per token on 1 × B200",
	"answers of 7,035 tokens against 635; running batch 111 against 383",
	"26.1× the energy per response and 2.35× the energy per token on 2 × H100",
	"answers of 7,058 tokens against 634; running batch 64 against 256",
	"11 pairs",
	// Questions.
	"between a running batch of 8 (429.2 Wh/M) and 383 (39.1 Wh/M)",
	"data compiled 16 February 2026", "500 ms median inter-token latency ceiling",
	"22 stable configurations of Qwen 3 32B",
	// Sources.
	"released 1 December 2025", "retrieved 26 September 2026", "328 stable configurations",
	"Apache-2.0 per the ml-energy/benchmark-v3 dataset card", "September 2026 release, 2024 (CC BY 4.0)",
	"release 2026-09-27", "© 2026",
}

// TestSeedPageFigures checks that the rendered page carries every figure of
// the published seed page: the strings above, and every row of the seed's
// configuration and carbon tables.
func TestSeedPageFigures(t *testing.T) {
	seed := string(sample.Read(t, "seeds", "qwen-3-32b.page.txt"))
	// The seed writes "Apache 2.0" in prose; the licence string is the
	// model file's, which the seed's model file carries.
	seedJSON := string(sample.Read(t, "seeds", "qwen-3-32b.json"))
	page := render(t, snapshotDir(t, sample.Leaderboard(), true), "qwen-3-32b", Options{})
	for _, f := range seedFigures {
		if !strings.Contains(seed, f) && !strings.Contains(seedJSON, f) {
			t.Errorf("%q is not in the seed page: the list must hold seed text only", f)
			continue
		}
		if !strings.Contains(page, f) {
			t.Errorf("the page lacks %q", f)
		}
	}
	rows := 0
	for _, line := range strings.Split(seed, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| Cap ") || strings.HasPrefix(line, "| Grid ") {
			continue
		}
		rows++
		if !strings.Contains(page, line) {
			t.Errorf("the page lacks the seed's table row %q", line)
		}
	}
	if rows != 22+7 {
		t.Errorf("found %d table rows in the seed; want 22 configurations and 7 grids", rows)
	}
}

func TestEveryModelRenders(t *testing.T) {
	dir := snapshotDir(t, sample.Leaderboard(), true)
	paths, err := writeAll(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 18 {
		t.Errorf("wrote %d pages; want the 18 models", len(paths))
	}
	page := func(slug string) string {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(format.PagePath(slug))))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		slug           string
		gpus, tasks    bool
		configurations int
	}{
		{"qwen-3-32b", true, true, 22},
		{"deepseek-v3-1", false, true, 0},                           // B200 only, with a Problem Solving run
		{"llama-4-maverick-17b-128e-instruct-fp8", false, false, 0}, // H100 only, no Problem Solving run
		{"llama-3-1-405b-instruct-fp8", true, false, 0},             // both GPUs, no Problem Solving run
	} {
		p := page(tc.slug)
		if got := strings.Contains(p, "## H100 against B200"); got != tc.gpus {
			t.Errorf("%s: GPU comparison section present %v, want %v", tc.slug, got, tc.gpus)
		}
		if got := strings.Contains(p, "## Two tasks"); got != tc.tasks {
			t.Errorf("%s: task comparison section present %v, want %v", tc.slug, got, tc.tasks)
		}
		for _, h := range []string{"## Every configuration", "## Carbon on different grids", "## Questions", "## Sources"} {
			if !strings.Contains(p, h) {
				t.Errorf("%s: no %q", tc.slug, h)
			}
		}
		if strings.Contains(p, "%!") || strings.Contains(p, "NaN") || !strings.HasSuffix(p, ".\n") {
			t.Errorf("%s: a broken page:\n%s", tc.slug, p)
		}
	}
	// The load curve's latency bound is the highest median ITL up to the
	// index row, which need not be the index row's: DeepSeek V3.1's index
	// row (cap 3072) has 185.5 ms, its cap 2048 187.3 ms.
	if p := page("deepseek-v3-1"); !strings.Contains(p, "median inter-token latency 186 ms") || !strings.Contains(p, "stays at 187 ms or under") {
		t.Errorf("deepseek-v3-1: want the index row at 186 ms and the bound at 187 ms")
	}
	// The explanation of the task comparison is given only where the
	// figures bear it out: Nemotron Nano 9B V2 holds a larger batch and
	// less energy per token on Problem Solving.
	if p := page("nvidia-nemotron-nano-9b-v2"); !strings.Contains(p, "0.792× the energy per token") || strings.Contains(p, "Long answers leave room") {
		t.Errorf("nvidia-nemotron-nano-9b-v2: the task comparison explains what its figures do not show")
	}
	// A repeated run shows its repeat.
	if p := page("qwen-3-30b-a3b-instruct"); !strings.Contains(p, "| 256 (repeat 2) |") {
		t.Errorf("qwen-3-30b-a3b-instruct: no repeated cap in the table")
	}
}

func TestCarbonWithoutGrid(t *testing.T) {
	p := render(t, snapshotDir(t, sample.Leaderboard(), false), "qwen-3-32b", Options{})
	if !strings.Contains(p, "This snapshot has no grid.json, so the page shows no carbon figures.") {
		t.Errorf("no note about the missing grid.json")
	}
	if strings.Contains(p, "| Grid |") || strings.Contains(p, "carbon footprint") {
		t.Errorf("carbon figures without grid.json")
	}
}

func TestCarbonMissingDisplayGrid(t *testing.T) {
	p := render(t, snapshotDir(t, sample.Leaderboard(), true), "qwen-3-32b", Options{Grids: []string{"NOR", "Atlantis", "India"}})
	for _, want := range []string{"| Norway | 30 | 1.2 |\n| India | 707 | 27.6 |\n", "Not in this snapshot's grid.json for 2024: Atlantis."} {
		if !strings.Contains(p, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestCarbonFallbackYear: a grid value of an earlier year than grid.json's
// (a fallback) shows its year, in the table and the sentences; the others
// do not.
func TestCarbonFallbackYear(t *testing.T) {
	dir := snapshotDir(t, sample.Leaderboard(), true)
	p := filepath.Join(dir, format.GridPath)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	old := `"name": "India",
      "iso3": "IND",
      "area_type": "Country or economy",
      "year": 2024,
      "fallback": false,`
	edited := strings.Replace(string(b), old, `"name": "India",
      "iso3": "IND",
      "area_type": "Country or economy",
      "year": 2023,
      "fallback": true,`, 1)
	if edited == string(b) {
		t.Fatalf("no %q in grid.json", old)
	}
	write(t, dir, format.GridPath, []byte(edited))
	page := render(t, dir, "qwen-3-32b", Options{})
	for _, want := range []string{
		"| India | 707 (2023) | 27.6 |\n| Saudi Arabia | 692 | 27.0 |",
		"| Norway | 30 | 1.2 |",
		"in India (707 g CO2e per kWh, Ember 2023) and 1.2 kg in Norway (30, 2024).",
		"grid.json lists 7 grids: their 2024 value, or for the 1 without one, their latest earlier value, with its year in brackets.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestFilesMustAgree: a model file whose figure is not the rounding of the
// archived row it names is refused rather than shown.
func TestFilesMustAgree(t *testing.T) {
	dir := snapshotDir(t, sample.Leaderboard(), true)
	p := filepath.Join(dir, "models", "qwen-3-32b.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`"joules_per_output_token": 0.1405812`), []byte(`"joules_per_output_token": 0.1405813`), 1)
	write(t, dir, "models/qwen-3-32b.json", b)
	s, err := Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Render(s, "qwen-3-32b", Options{})
	if err == nil || !strings.Contains(err.Error(), "qwen-3-32b/B200/1/384") {
		t.Errorf("got %v; want an error naming the row", err)
	}
	if _, err := Render(s, "no-such-model", Options{}); err == nil {
		t.Errorf("rendered a model that is not in the index")
	}
}

func TestFormats(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{whole(6911.8), "6,912"}, {whole(960.5432598731013), "961"}, {whole(2.5), "2"}, {whole(1234567), "1,234,567"},
		{dec1(429.18169), "429.2"}, {dec1(39.05033228572156), "39.1"}, {dec1(1234.56), "1,234.6"},
		{times(1.63), "1.63×"}, {times(1.8), "1.80×"}, {times(11), "11.0×"}, {times(0.695), "0.695×"},
		{times(128), "128×"}, {times(1230), "1,230×"}, {times(0.0123), "0.0123×"},
		{longDate("2026-02-16"), "16 February 2026"}, {short(32), "32"}, {short(1.6), "1.6"},
		{list([]string{"a"}), "a"}, {list([]string{"a", "b", "c"}), "a, b and c"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	if got := kg(pricing.KgPerBillionTokens(39.05033228572156, 692)); got != "27.0" {
		t.Errorf("kg = %s, want 27.0", got)
	}
	if format.Round(39.05, 1) != 39 {
		t.Errorf("the published 39.05 rounds to %v; the page must round the unrounded value instead", format.Round(39.05, 1))
	}
}

// pagesGolden holds the sha256 of every page TestEveryVersionRenders
// renders from the eight leaderboard versions of ../shared; go test
// -update rewrites the lines of the runs it rendered.
const pagesGolden = "testdata/pages.sha256"

// TestEveryVersionRenders: pages render from every leaderboard version
// (sample.Versions: the sample's one in make test; in make scale the eight
// of ../shared, with their schema drift: parallelism 0, no avg_output_len
// before 2025-12-17), and from the seed version without grid.json and with
// display grids grid.json lacks, each page byte for byte as the sha256 in
// pagesGolden.
func TestEveryVersionRenders(t *testing.T) {
	dirs, _ := sample.Versions(t)
	type run struct {
		name, dir string
		withGrid  bool
		opts      Options
	}
	var runs []run
	for _, d := range dirs {
		runs = append(runs, run{filepath.Base(d), d, true, Options{}})
	}
	runs = append(runs, run{"no-grid", sample.Leaderboard(), false, Options{}},
		run{"other-grids", sample.Leaderboard(), true, Options{Grids: []string{"NOR", "Atlantis", "India"}}})
	sums := map[string][]string{} // by run
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			s, err := Load(os.DirFS(snapshotDir(t, r.dir, r.withGrid)))
			if err != nil {
				t.Fatal(err)
			}
			files, err := renderAll(s, r.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != len(s.Index.Models) {
				t.Errorf("%d pages for %d models", len(files), len(s.Index.Models))
			}
			for _, f := range files {
				sums[r.name] = append(sums[r.name], fmt.Sprintf("%x  %s/%s\n", sha256.Sum256(f.Data), r.name, f.Path))
			}
			// The site's Doc, figures and all, is the same page.
			for _, e := range s.Index.Models {
				d, err := Build(s, e.Slug, r.opts)
				if err != nil {
					t.Fatal(err)
				}
				if i := sort.Search(len(files), func(i int) bool { return files[i].Path >= format.PagePath(e.Slug) }); !bytes.Equal(d.Markdown(), files[i].Data) {
					t.Errorf("%s: Build's Markdown is not Render's", e.Slug)
				}
			}
		})
	}
	golden, err := os.ReadFile(pagesGolden)
	if err != nil && !*update {
		t.Fatalf("%v (run go test -tags scale ./render -update to write it)", err)
	}
	// The golden lines of the runs rendered, in the golden file's order;
	// -update puts each run's new lines in place of its old ones.
	var want, updated strings.Builder
	written := map[string]bool{}
	for _, line := range strings.SplitAfter(string(golden), "\n") {
		name, _, _ := strings.Cut(line[min(len(line), 66):], "/") // after "SHA256  "
		if _, ok := sums[name]; !ok {
			updated.WriteString(line)
			continue
		}
		want.WriteString(line)
		if !written[name] {
			updated.WriteString(strings.Join(sums[name], ""))
			written[name] = true
		}
	}
	var got strings.Builder
	for _, r := range runs {
		got.WriteString(strings.Join(sums[r.name], ""))
		if !written[r.name] {
			updated.WriteString(strings.Join(sums[r.name], ""))
		}
	}
	if *update {
		if err := os.WriteFile(pagesGolden, []byte(updated.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got.String() != want.String() {
		t.Errorf("pages differ from %s (-golden +rendered); run with -update if the change is meant:\n%s", pagesGolden, cmp.Diff(want.String(), got.String()))
	}
}

// TestEachAndNew: the pages a build renders (Each, from New with the index
// it built and the rows it parsed) are renderAll's from the folder, byte for
// byte, in the index's order.
func TestEachAndNew(t *testing.T) {
	dir := snapshotDir(t, sample.Leaderboard(), true)
	loaded, err := Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	want, err := renderAll(loaded, Options{})
	if err != nil {
		t.Fatal(err)
	}

	up := sample.Leaderboard()
	lb, _, err := transform.NewLeaderboard(transform.LeaderboardFiles{
		Index: readFile(t, up, "index.json"), Commits: readFile(t, up, "commits.json"),
		Primary:    readFile(t, up, "tasks", "lm-arena-chat.json"),
		PrimaryURL: "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/tasks/lm-arena-chat.json",
	}, "2026-09-27", "2026-09-26")
	if err != nil {
		t.Fatal(err)
	}
	models, err := transform.Models(lb)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lb.AddTask(taskProblem, readFile(t, up, "tasks", "gpqa.json")); err != nil {
		t.Fatal(err)
	}
	idx := buildIndex(t, lb, models)
	chatIDs, err := leaderboard.RowIDs(taskChat, lb.Tasks[taskChat])
	if err != nil {
		t.Fatal(err)
	}
	problemIDs, err := leaderboard.RowIDs(taskProblem, lb.Tasks[taskProblem])
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(os.DirFS(dir), idx, map[string]map[string]*leaderboard.Row{taskChat: chatIDs, taskProblem: problemIDs})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	var order []string
	if err := Each(s, Options{}, func(f File) error {
		got[f.Path] = bytes.Clone(f.Data)
		order = append(order, f.Path)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d pages, want %d", len(got), len(want))
	}
	for _, w := range want {
		if !bytes.Equal(got[w.Path], w.Data) {
			t.Errorf("%s differs:\n%s", w.Path, cmp.Diff(string(w.Data), string(got[w.Path])))
		}
	}
	for i, e := range idx.Models {
		if order[i] != format.PagePath(e.Slug) {
			t.Errorf("page %d is %s, want %s (the index's order)", i, order[i], format.PagePath(e.Slug))
		}
	}
	// A missing count of rows is refused, as Load refuses it.
	for id := range problemIDs {
		delete(problemIDs, id)
		break
	}
	if _, err := New(os.DirFS(dir), idx, map[string]map[string]*leaderboard.Row{taskChat: chatIDs, taskProblem: problemIDs}); err == nil {
		t.Errorf("New took task rows that index.json does not count")
	}
}

// renderAll renders every model of the snapshot with Each, sorted by path.
func renderAll(s *Snapshot, opts Options) ([]File, error) {
	var out []File
	if err := Each(s, opts, func(f File) error {
		out = append(out, f)
		return nil
	}); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// writeAll renders every model of the snapshot folder dir into dir/pages/
// and returns the pages' snapshot paths, sorted. It does not touch the
// manifest: the caller lists the pages there (snapshots owns its format).
// Each page is written as it is rendered; on an error, the pages written
// before it stay.
func writeAll(dir string, opts Options) ([]string, error) {
	s, err := Load(os.DirFS(dir))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, format.PagesDir), 0o755); err != nil {
		return nil, err
	}
	var paths []string
	if err := Each(s, opts, func(f File) error {
		paths = append(paths, f.Path)
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Data, 0o644)
	}); err != nil {
		return nil, err
	}
	sort.Strings(paths)
	return paths, nil
}
