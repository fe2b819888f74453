package transform

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/schemas"
)

// seedIndex is the index and model files of the seed version.
func seedIndex(t testing.TB) (*format.IndexFile, []*Built) {
	t.Helper()
	lb := seedLeaderboard(t)
	models, err := Models(lb)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := buildIndex(lb, models, sample.Read(t, "upstream", "leaderboard", sample.Version, "tasks", "gpqa.json"))
	if err != nil {
		t.Fatal(err)
	}
	return idx, models
}

// buildIndex builds index.json from the leaderboard, its model files (as
// Models returns them) and the archived Problem Solving task file (gpqa),
// as the build does: the task file's rows checked against the leaderboard
// and filtered for stability (AddTask), then the models added one at a
// time.
func buildIndex(lb *Leaderboard, models []*Built, gpqa []byte) (*format.IndexFile, error) {
	if _, err := lb.AddTask(taskProblem, gpqa); err != nil {
		return nil, err
	}
	b := NewIndexBuilder(lb)
	for _, m := range models {
		if err := b.Add(m); err != nil {
			return nil, err
		}
	}
	return b.Index()
}

// TestIndexCounts: the 2026-02-16 data gives 14 GPU comparisons and 11
// task pairs.
func TestIndexCounts(t *testing.T) {
	idx, models := seedIndex(t)
	best := 0
	for _, m := range models {
		best += len(m.File.Best)
	}
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"models", len(idx.Models), 18},
		{"GPU comparisons", len(idx.GPUComparisons), 14},
		{"task pairs", len(idx.TaskComparisons), 11},
		{"load curves (one per index row)", len(idx.LoadCurves), best},
		{"stable Text Conversation configurations", idx.Source.Tasks[0].StableConfigurations, 328},
		{"stable Problem Solving configurations", idx.Source.Tasks[1].StableConfigurations, 187},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
}

func findEntry[T any](t *testing.T, list []T, key func(T) string, want string) T {
	t.Helper()
	for _, x := range list {
		if key(x) == want {
			return x
		}
	}
	t.Fatalf("no entry %s", want)
	var zero T
	return zero
}

// TestIndexQwen332B: the figures of the issue and the seed page for Qwen 3
// 32B, at index.json's precision.
func TestIndexQwen332B(t *testing.T) {
	idx, _ := seedIndex(t)
	const slug = "qwen-3-32b"
	type f = format.Float
	check := func(name string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}

	e := findEntry(t, idx.Models, func(e format.IndexEntry) string { return e.Slug }, slug)
	check("configurations", e.Configurations, 22)
	check("gpus", strings.Join(e.GPUs, ","), "B200,H100")
	check("best B200", e.Best["B200"].RowID, "qwen-3-32b/B200/1/384")
	check("best H100", e.Best["H100"].RowID, "qwen-3-32b/H100/2/256")
	check("file", e.File, "models/qwen-3-32b.json")

	g := findEntry(t, idx.GPUComparisons, func(g format.GPUComparison) string { return g.Slug }, slug)
	check("H100 over B200", g.EnergyPerTokenRatio, f(1.63))
	check("H100 Wh/M", g.Over.WhPerMillion, f(63.47))
	check("H100 GPUs", g.Over.NumGPUs, 2)
	check("H100 running batch", g.Over.AvgRunningBatch, f(255.6))
	check("B200 Wh/M", g.Under.WhPerMillion, f(39.05))
	check("B200 GPUs", g.Under.NumGPUs, 1)
	check("B200 running batch", g.Under.AvgRunningBatch, f(383.3))

	key := func(c format.TaskComparison) string { return c.Slug + "/" + c.GPU }
	b := findEntry(t, idx.TaskComparisons, key, slug+"/B200")
	check("B200 per response", b.EnergyPerResponseRatio, f(24.6))
	check("B200 per token", b.EnergyPerTokenRatio, f(2.22))
	check("B200 gpqa tokens", b.Other.AvgOutputTokens, int64(7035))
	check("B200 chat tokens", b.Base.AvgOutputTokens, int64(635))
	check("B200 gpqa batch", b.Other.AvgRunningBatch, f(110.9))
	check("B200 chat batch", b.Base.AvgRunningBatch, f(383.3))
	check("B200 gpqa row", b.Other.RowID, "qwen-3-32b/gpqa/B200/1/128")
	check("B200 chat row", b.Base.RowID, "qwen-3-32b/B200/1/384")
	h := findEntry(t, idx.TaskComparisons, key, slug+"/H100")
	check("H100 per response", h.EnergyPerResponseRatio, f(26.1))
	check("H100 per token", h.EnergyPerTokenRatio, f(2.35))
	check("H100 gpqa tokens", h.Other.AvgOutputTokens, int64(7058))
	check("H100 chat tokens", h.Base.AvgOutputTokens, int64(634))
	check("H100 gpqa batch", h.Other.AvgRunningBatch, f(63.8))
	check("H100 chat batch", h.Base.AvgRunningBatch, f(255.6))
	check("H100 gpqa GPUs", h.Other.NumGPUs, 2)
	check("H100 chat GPUs", h.Base.NumGPUs, 2)

	lkey := func(c format.LoadCurve) string { return c.Slug + "/" + c.GPU }
	l := findEntry(t, idx.LoadCurves, lkey, slug+"/B200")
	check("curve GPUs", l.NumGPUs, 1)
	check("curve from", l.From.RowID, "qwen-3-32b/B200/1/8")
	check("curve from Wh/M", l.From.WhPerMillion, f(429.18))
	check("curve to Wh/M", l.To.WhPerMillion, f(39.05))
	check("curve from batch", l.From.AvgRunningBatch, f(8.0))
	check("fall", l.EnergyPerTokenFall, f(11.0))
	check("power from", l.From.GPUPowerWatts, int64(860))
	check("power to", l.To.GPUPowerWatts, int64(972))
	check("power rise", l.GPUPowerRisePercent, int64(13))
	check("throughput from", l.From.TokensPerSecond, f(556.4))
	check("throughput to", l.To.TokensPerSecond, f(6911.8))
	check("throughput rise", l.ThroughputRise, f(12.4))
	check("max ITL", l.MaxMedianITL, f(50.2))
	check("max ITL row", l.MaxMedianITLRowID, "qwen-3-32b/B200/1/384")
	if l.Past == nil {
		t.Fatal("no row past the B200 index row")
	}
	check("past cap", l.Past.MaxNumSeqs, 512)
	check("past Wh/M", l.Past.WhPerMillion, f(41.89))
	check("past ITL", l.Past.MedianITL, f(57.6))
	l = findEntry(t, idx.LoadCurves, lkey, slug+"/H100")
	check("H100 curve GPUs", l.NumGPUs, 2)
	check("H100 curve from", l.From.RowID, "qwen-3-32b/H100/2/8")
}

// TestIndexBestIsModelBest: every model entry's best rows are the model
// file's, and the comparisons point at them.
func TestIndexBestIsModelBest(t *testing.T) {
	idx, models := seedIndex(t)
	for i, built := range models {
		m, e := built.File, idx.Models[i]
		a, _ := json.Marshal(e.Best)
		b, _ := json.Marshal(m.Best)
		if e.Slug != m.Slug || !bytes.Equal(a, b) {
			t.Errorf("%s: best differs from the model file's", m.Slug)
		}
	}
	for _, c := range idx.GPUComparisons {
		e := findEntry(t, idx.Models, func(e format.IndexEntry) string { return e.Slug }, c.Slug)
		if c.Over.Key != "h100" || c.Under.Key != "b200" || c.Over.RowID != e.Best["H100"].RowID || c.Under.RowID != e.Best["B200"].RowID {
			t.Errorf("%s: the GPU comparison is not between the index rows", c.Slug)
		}
	}
}

// TestTaskRowIDs: TaskRows names every configuration of the model files by
// the model files' row ids, repeats included.
func TestTaskRowIDs(t *testing.T) {
	_, models := seedIndex(t)
	rows, err := leaderboard.TaskRows(taskChat, sample.Read(t, "upstream", "leaderboard", sample.Version, "tasks", "lm-arena-chat.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range models {
		for i, c := range m.File.Configurations {
			n++
			if rows[c.RowID] != m.Rows[i] && (rows[c.RowID] == nil || rows[c.RowID].Index != m.Rows[i].Index) {
				t.Errorf("%s: TaskRows has another row", c.RowID)
			}
		}
	}
	if n != len(rows) || rows["qwen-3-30b-a3b-instruct/H100/2/256/r2"] == nil {
		t.Errorf("TaskRows: %d rows for %d configurations, or no repeat", len(rows), n)
	}
	if got := format.RowID(taskProblem, "gpt-oss-20b", "H100", 1, 96, 2); got != "gpt-oss-20b/gpqa/H100/1/96/r2" {
		t.Errorf("RowID = %s", got)
	}
}

// TestIndexSchema: the built index.json passes schemas/index.schema.json,
// whose every property says its rule.
func TestIndexSchema(t *testing.T) {
	idx, _ := seedIndex(t)
	data, err := format.Marshal(idx)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasSuffix(data, []byte("\n")) || !bytes.HasPrefix(data, []byte("{\n  \"version\": \"1\",\n  \"updated\"")) {
		t.Errorf("index.json: not two-space indented with no trailing newline, or keys out of order")
	}
	raw, err := schemas.Read("index.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	const url = "https://schemas.greentokens.invalid/index.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the built index.json fails its schema: %v", err)
	}
	// A ratio of the wrong sign or an unknown key is refused.
	for _, bad := range [][2]string{
		{`"energy_per_token_ratio": 1.63`, `"energy_per_token_ratio": -1.63`},
		{`"itl_deadline_ms": 500,`, `"itl_deadline_ms": 500, "extra": 1,`},
	} {
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.Replace(data, []byte(bad[0]), []byte(bad[1]), 1)))
		if sch.Validate(inst) == nil {
			t.Errorf("the schema accepts %s", bad[1])
		}
	}

	// Every property is described and every key required.
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	var walk func(ptr string, node map[string]any)
	walk = func(ptr string, node map[string]any) {
		if props, ok := node["properties"].(map[string]any); ok {
			if node["additionalProperties"] != false {
				t.Errorf("%s: additionalProperties is not false", ptr)
			}
			req := map[string]bool{}
			for _, r := range node["required"].([]any) {
				req[r.(string)] = true
			}
			for k, p := range props {
				p := p.(map[string]any)
				d, _ := p["description"].(string)
				if ref, ok := p["$ref"].(string); ok && d == "" {
					def, _ := s["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
					d, _ = def["description"].(string)
				}
				if d == "" {
					t.Errorf("%s/%s has no description", ptr, k)
				}
				if !req[k] {
					t.Errorf("%s/%s is not required", ptr, k)
				}
				walk(ptr+"/"+k, p)
			}
		}
		for _, k := range []string{"items", "additionalProperties"} {
			if sub, ok := node[k].(map[string]any); ok {
				walk(ptr+"/"+k, sub)
			}
		}
	}
	walk("", s)
	for k, d := range s["$defs"].(map[string]any) {
		walk("/$defs/"+k, d.(map[string]any))
	}
}

// builtVersion is a leaderboard version whose model files build.
type builtVersion struct {
	name   string
	dir    string
	lb     *Leaderboard
	models []*Built
}

// builtVersions builds the model files of every leaderboard version the
// tests read (sample.Versions: the sample's in make test, the eight of
// ../shared in make scale), its Text Conversation file named by chatURL;
// the versions they do not build from are logged and left out, and fewer
// built than expected fails the test.
func builtVersions(t *testing.T, chatURL string) []builtVersion {
	t.Helper()
	dirs, building := sample.Versions(t)
	var built []builtVersion
	for _, d := range dirs {
		v := filepath.Base(d)
		lb, _, err := leaderboardOf(t, d, chatURL)
		if err != nil {
			t.Logf("%s: no model files (%v)", v, err)
			continue
		}
		models, err := Models(lb)
		if err != nil {
			t.Logf("%s: no model files (%v)", v, err)
			continue
		}
		built = append(built, builtVersion{v, d, lb, models})
	}
	if len(built) < building {
		t.Fatalf("the model files built from %d of the %d leaderboard versions; want %d", len(built), len(dirs), building)
	}
	return built
}

// TestIndexEveryVersion: the index builds from every leaderboard version
// that the model files build from (in make scale, the eight of ../shared,
// with their schema drift: no avg_output_len before 2025-12-17, no
// max_num_batched_tokens after 2026-02-13).
func TestIndexEveryVersion(t *testing.T) {
	for _, bv := range builtVersions(t, "https://example.invalid/lm-arena-chat.json") {
		v := bv.name
		idx, err := buildIndex(bv.lb, bv.models, readFile(t, bv.dir, "tasks", "gpqa.json"))
		if err != nil {
			t.Errorf("%s: %v", v, err)
			continue
		}
		if len(idx.GPUComparisons) == 0 || len(idx.TaskComparisons) == 0 {
			t.Errorf("%s: %d GPU comparisons, %d task pairs; want some of each", v, len(idx.GPUComparisons), len(idx.TaskComparisons))
		}
	}
}

// TestIndexEncode: Encode writes exactly Marshal's bytes, on every
// version's index and on lists that are empty, nil or hold one element, and
// with strings that Marshal must not HTML-escape.
func TestIndexEncode(t *testing.T) {
	check := func(name string, idx *format.IndexFile) {
		t.Helper()
		want, err := format.Marshal(idx)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := idx.Encode(&got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			i := 0
			for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
				i++
			}
			t.Errorf("%s: Encode differs from Marshal at byte %d of %d:\n%q\nwant\n%q", name, i, len(want),
				got.Bytes()[max(0, i-80):min(got.Len(), i+80)], want[max(0, i-80):min(len(want), i+80)])
		}
	}
	for _, bv := range builtVersions(t, "https://example.invalid/lm-arena-chat.json?a=1&b=<2>") {
		idx, err := buildIndex(bv.lb, bv.models, readFile(t, bv.dir, "tasks", "gpqa.json"))
		if err != nil {
			t.Fatal(err)
		}
		check(bv.name, idx)
	}
	idx, _ := seedIndex(t)
	idx.Source.Details = "<b>&</b> \u2028 \"models\": []"
	idx.GPUComparisons = nil
	idx.TaskComparisons = idx.TaskComparisons[:1]
	idx.LoadCurves = []format.LoadCurve{}
	check("edited", idx)
	idx.Models = nil
	check("no models", idx)
}

// TestEachModelAndIndexBuilder: EachModel hands out what Models returns,
// in its order, and the IndexBuilder fed by EachModel gives the index of
// the models Models returns; a bad model fails EachModel before any model is
// handed out, as Models fails; fn's error stops it.
func TestEachModelAndIndexBuilder(t *testing.T) {
	lb := seedLeaderboard(t)
	want, err := Models(lb)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lb.AddTask(taskProblem, sample.Read(t, "upstream", "leaderboard", sample.Version, "tasks", "gpqa.json")); err != nil {
		t.Fatal(err)
	}
	b := NewIndexBuilder(lb)
	i := 0
	if err := EachModel(lb, func(m *Built) error {
		if i >= len(want) {
			t.Fatalf("more than %d models", len(want))
		}
		got, _ := format.Marshal(m.File)
		w, _ := format.Marshal(want[i].File)
		if !bytes.Equal(got, w) || !slices.Equal(m.Rows, want[i].Rows) {
			t.Errorf("model %d: %s, want %s", i, m.File.Slug, want[i].File.Slug)
		}
		i++
		return b.Add(m)
	}); err != nil {
		t.Fatal(err)
	}
	if i != len(want) {
		t.Errorf("%d models, want %d", i, len(want))
	}
	idx, err := b.Index()
	if err != nil {
		t.Fatal(err)
	}
	wantIdx, _ := seedIndex(t)
	got, _ := format.Marshal(idx)
	w, _ := format.Marshal(wantIdx)
	if !bytes.Equal(got, w) {
		t.Errorf("the index of EachModel's models differs from that of Models'")
	}

	stop := errors.New("stop")
	calls := 0
	if err := EachModel(lb, func(*Built) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("fn's error: got %v after %d calls; want it after 1", err, calls)
	}

	// The model of the last id is bad: the error comes before any model.
	z := row("org/z", "H100", 1, 8, 0.3, 20)
	z["weight_precision"] = "int4"
	bad, _, err := newLeaderboard(t, row("org/a", "H100", 1, 8, 0.3, 20), z)
	if err != nil {
		t.Fatal(err)
	}
	_, modelsErr := Models(bad)
	calls = 0
	err = EachModel(bad, func(*Built) error { calls++; return nil })
	if err == nil || modelsErr == nil || err.Error() != modelsErr.Error() || calls != 0 {
		t.Errorf("EachModel: %v after %d models; want Models' error (%v) before any", err, calls, modelsErr)
	}
	if _, err := NewIndexBuilder(lb).Index(); err == nil || !strings.Contains(err.Error(), "no models") {
		t.Errorf("an index of no models: %v", err)
	}
}
