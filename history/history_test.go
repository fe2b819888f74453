package history

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/history/historytest"
	"github.com/leadgreen/greentokens/snapshots/diff"
)

func TestMain(m *testing.M) { historytest.Main(m) }

// opened is the catalog of historytest's store, opened once for the
// package's tests, which only read it.
var opened struct {
	sync.Mutex
	cat *catalog.Catalog
}

func served(t *testing.T) *catalog.Catalog {
	t.Helper()
	opened.Lock()
	defer opened.Unlock()
	if opened.cat != nil {
		return opened.cat
	}
	c, err := catalog.Open(historytest.Store(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Dates()); got != len(historytest.Releases) {
		t.Fatalf("%d releases served, want %d", got, len(historytest.Releases))
	}
	opened.cat = c
	return c
}

// line is a point in a few words: GPU, release, row, energy, change and the
// kinds of its reasons.
type line struct {
	GPU, Release, Row string
	Wh                float64
	Change            string
	Why               string
}

func lines(h *History) []line {
	var out []line
	for _, s := range h.Series {
		for _, p := range s.Points {
			l := line{GPU: s.GPU, Release: p.Release}
			if p.RowID != nil {
				l.Row, l.Wh = *p.RowID, float64(*p.Wh())
			}
			if p.Change != nil {
				l.Change = *p.Change
			}
			var kinds []string
			for _, r := range p.Why {
				kinds = append(kinds, r.Kind)
			}
			l.Why = strings.Join(kinds, " ")
			out = append(out, l)
		}
	}
	return out
}

// TestHistory: each GPU's index row across the store's releases, each
// change with the reasons its edit of the upstream data gives.
func TestHistory(t *testing.T) {
	h, err := Of(context.Background(), served(t).Snapshots(), Request{Model: "Qwen 3 32B"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Model != historytest.Model || h.Task != "lm-arena-chat" || h.TaskName != "Text Conversation" || h.GPU != nil || len(h.Releases) != 6 {
		t.Errorf("model %s, task %s (%s), gpu %v, %d releases", h.Model, h.Task, h.TaskName, h.GPU, len(h.Releases))
	}
	for i, r := range h.Releases {
		if want := historytest.Releases[i]; r.Date != want.Date || r.Compiled != want.Compiled || !strings.Contains(r.Generator, "@"+want.Code+" ") {
			t.Errorf("releases[%d] = %+v, want %+v", i, r, want)
		}
	}
	const r384, r256, r448 = "qwen-3-32b/B200/1/384", "qwen-3-32b/B200/1/256", "qwen-3-32b/B200/1/448"
	want := []line{
		{"B200", "2026-03-01", r384, 39.05, "", ""},
		{"B200", "2026-03-08", r384, 39.05, "", ""}, // other code, the same figures: no change
		{"B200", "2026-03-15", r384, 39.83, Moved, "upstream"},
		{"B200", "2026-03-22", r256, 41.87, Changed, "upstream excluded excluded"},
		{"B200", "2026-04-05", r384, 39.83, Changed, "upstream restored restored"},
		{"B200", "2026-04-19", r448, 33.33, Changed, "upstream new-row"},
		{"H100", "2026-03-01", "qwen-3-32b/H100/2/256", 63.47, "", ""},
		{"H100", "2026-03-08", "qwen-3-32b/H100/2/256", 63.47, "", ""},
		{"H100", "2026-03-15", "qwen-3-32b/H100/2/256", 63.47, "", ""},
		{"H100", "2026-03-22", "qwen-3-32b/H100/2/256", 63.47, "", ""},
		{"H100", "2026-04-05", "qwen-3-32b/H100/2/256", 63.47, "", ""},
		{"H100", "2026-04-19", "qwen-3-32b/H100/2/256", 63.47, "", ""},
		{"H200", "2026-04-19", "qwen-3-32b/H200/1/256", 55.56, Added, "upstream new-gpu"},
	}
	if d := cmp.Diff(want, lines(h)); d != "" {
		t.Errorf("history (-want +got):\n%s", d)
	}
	moved := h.Series[0].Points[2]
	if moved.RelativeChangePercent == nil || *moved.RelativeChangePercent != 2.0 {
		t.Errorf("the moved row's relative change is %v, want 2.0", moved.RelativeChangePercent)
	}
	excl := h.Series[0].Points[3].Why[1].Detail
	if !strings.Contains(excl, "1 x B200 at max_num_seqs 384 excluded: avg_batch_size 100 is under 0.85") {
		t.Errorf("the exclusion is worded %q", excl)
	}
	if up := h.Series[0].Points[2].Why[0].Detail; !strings.Contains(up, "compiled 2026-02-16, then 2026-03-02") {
		t.Errorf("the upstream change is worded %q", up)
	}
}

// TestHistoryStreamsAndCaches: the builder given one release at a time
// and the served index give the history Of gives, the index twice.
func TestHistoryStreamsAndCaches(t *testing.T) {
	c := served(t)
	ctx := context.Background()
	want, err := Of(ctx, c.Snapshots(), Request{Model: "qwen-3-32b"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBuilder(ctx, Request{Model: "Qwen/Qwen3-32B"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Snapshots() {
		if err := b.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	streamed, err := b.History()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, streamed); d != "" {
		t.Errorf("streamed (-Of +Builder):\n%s", d)
	}
	x := NewIndex(c)
	for range 2 {
		got, err := x.History(ctx, Request{Model: "qwen-3-32b"}, "")
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("index (-Of +Index):\n%s", d)
		}
	}
	if len(x.diffs) != 4 {
		t.Errorf("%d pairs diffed, want the 4 whose figures changed", len(x.diffs))
	}
	upTo, err := x.History(ctx, Request{Model: "qwen-3-32b"}, "2026-03-15")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(upTo.Releases); n != 3 {
		t.Errorf("up to 2026-03-15: %d releases, want 3", n)
	}
}

// TestHistoryGPUAndTask: one GPU, case aside; a GPU with no index row in
// any release, a task not registered (naming every registered one), an
// unknown model and a model not in the task are errors of the catalog's
// kinds with the names that exist.
func TestHistoryGPUAndTask(t *testing.T) {
	snaps := served(t).Snapshots()
	ctx := context.Background()
	h, err := Of(ctx, snaps, Request{Model: "qwen-3-32b", GPU: "h200"})
	if err != nil {
		t.Fatal(err)
	}
	if h.GPU == nil || *h.GPU != "H200" || len(h.Series) != 1 || len(h.Series[0].Points) != 1 {
		t.Errorf("gpu h200: %v, %d series", h.GPU, len(h.Series))
	}
	for _, tc := range []struct {
		req     Request
		kind    string
		what    string
		nearest []string
	}{
		{Request{Model: "qwen-3-32b", GPU: "A100"}, catalog.NotFound, "gpu", []string{"B200", "H100", "H200"}},
		{Request{Model: "qwen-3-32b", Task: "text-to-audio"}, catalog.Invalid, "task", []string{"text-to-video"}},
		{Request{Model: "qwen-3-32b", Task: "sourcegraph-fim"}, catalog.NotFound, "model", nil},
		{Request{Model: "qwen-3-32b", Task: strings.Repeat("x", catalog.MaxNameBytes+1)}, catalog.Invalid, "task", nil},
		{Request{Model: "qwen-3-33b"}, catalog.NotFound, "model", []string{"qwen-3-32b", "qwen-3-14b", "qwen-3-8b"}},
	} {
		_, err := Of(ctx, snaps, tc.req)
		var e *catalog.Error
		if !errors.As(err, &e) {
			t.Errorf("%+v: %v, want a *catalog.Error", tc.req, err)
			continue
		}
		if e.Kind != tc.kind || e.What != tc.what || !cmp.Equal(e.Nearest, tc.nearest) {
			t.Errorf("%+v: %s %s %v (%s), want %s %s %v", tc.req, e.Kind, e.What, e.Nearest, e.Detail, tc.kind, tc.what, tc.nearest)
		}
		if tc.req.Task == "text-to-audio" && !strings.HasSuffix(e.Detail, "the tasks are lm-arena-chat, gpqa, sourcegraph-fim, image-chat, video-chat, text-to-image, text-to-video") {
			t.Errorf("the unknown task's error does not list every task: %s", e.Detail)
		}
	}
}

// TestHistoryOtherTask: Problem Solving's index rows are its task model
// files' (index.json's task comparisons give the same rows), the same in
// every release, since its archived file is; a model with Problem Solving
// rows only, which no model file publishes, has its history too.
func TestHistoryOtherTask(t *testing.T) {
	snaps := served(t).Snapshots()
	h, err := Of(context.Background(), snaps, Request{Model: "qwen-3-32b", Task: "gpqa"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Task != "gpqa" || h.TaskName != "Problem Solving" || len(h.Series) == 0 {
		t.Fatalf("task %s (%s), %d series", h.Task, h.TaskName, len(h.Series))
	}
	newest := snaps[len(snaps)-1]
	f, _ := newest.File(format.IndexPath)
	for _, s := range h.Series {
		if len(s.Points) != len(snaps) {
			t.Errorf("%s: %d points", s.GPU, len(s.Points))
		}
		for _, p := range s.Points {
			if p.Change != nil || !strings.Contains(*p.RowID, "/gpqa/") {
				t.Errorf("%s %s: row %s, change %v", s.GPU, p.Release, *p.RowID, p.Change)
			}
		}
		last := s.Points[len(s.Points)-1]
		if !strings.Contains(string(f.Bytes), `"row_id": "`+*last.RowID+`"`) {
			t.Errorf("%s: %s is not in index.json", s.GPU, *last.RowID)
		}
	}
	if _, ok := newest.Published["deepseek-r1"]; ok {
		t.Fatal("deepseek-r1 has a model file: pick a model with Problem Solving rows only")
	}
	only, err := Of(context.Background(), snaps, Request{Model: "deepseek-r1", Task: "gpqa"})
	if err != nil {
		t.Fatal(err)
	}
	if only.Model != "deepseek-r1" || len(only.Series) == 0 || len(only.Series[0].Points) != len(snaps) {
		t.Errorf("deepseek-r1's Problem Solving history: %q, %d series", only.Model, len(only.Series))
	}
}

// TestClassify: a figure that changed with the same upstream files is the
// code's when the generator or the selection differ, and unexplained when
// nothing does.
func TestClassify(t *testing.T) {
	gen := format.Generator{Module: "m", Version: "v1", Revision: "r1", Go: "go1.26.0"}
	manifest := func(g format.Generator, deadline int) *catalog.Snapshot {
		return &catalog.Snapshot{Manifest: &format.Manifest{Generator: g, Selection: format.Selection{ITLDeadlineMS: deadline}}}
	}
	same := &pairDiff{report: &diff.Report{Sources: []diff.SourceChange{{Name: "leaderboard/tasks/lm-arena-chat.json", Status: "changed", Changed: []string{"retrieved"}}}}}
	other := &pairDiff{report: &diff.Report{Sources: []diff.SourceChange{{Name: "leaderboard/index.json", Status: "changed", Changed: []string{"sha256", "size"}}}}}
	task := format.PrimaryTask()
	newer := gen
	newer.Version, newer.Revision = "v2", "r2"
	for _, tc := range []struct {
		name      string
		pd        *pairDiff
		prev, cur *catalog.Snapshot
		want      string
	}{
		{"other code", same, manifest(gen, 500), manifest(newer, 500), CodeChanged},
		{"other selection", same, manifest(gen, 500), manifest(gen, 400), CodeChanged},
		{"nothing", same, manifest(gen, 500), manifest(gen, 500), Unexplained},
		{"other code and other leaderboard files", other, manifest(gen, 500), manifest(newer, 500), Unexplained},
	} {
		prev := &view{snap: tc.prev}
		cur := &view{snap: tc.cur}
		got := classify(tc.pd, prev, cur, task, "B200")
		if len(got) != 1 || got[0].Kind != tc.want {
			t.Errorf("%s: %+v, want one reason %s", tc.name, got, tc.want)
		}
	}
}

// TestHistoryDiffusionTask: Text to Image's index rows are its task model
// files', in Wh per image, with the reasons its edits give: a figure up
// 2%, the index row excluded (no energy) and restored, a new batch size
// and a new GPU; the figures are the task model files' best.
func TestHistoryDiffusionTask(t *testing.T) {
	snaps := served(t).Snapshots()
	h, err := Of(context.Background(), snaps, Request{Model: "FLUX.1 Dev", Task: historytest.DiffusionTask})
	if err != nil {
		t.Fatal(err)
	}
	if h.Model != historytest.DiffusionModel || h.Task != "text-to-image" || h.TaskName != "Text to Image" || h.Unit != "Wh per image" {
		t.Errorf("model %s, task %s (%s), unit %s", h.Model, h.Task, h.TaskName, h.Unit)
	}
	const r1, r2, r3 = historytest.DiffusionRow, historytest.DiffusionNext, historytest.DiffusionNewRowID
	const h100, h200 = "flux-1-dev/text-to-image/H100/1/2/ulysses-1-ring-1", "flux-1-dev/text-to-image/H200/1/1/ulysses-1-ring-1"
	want := []line{
		{"B200", "2026-03-01", r1, 1.8552, "", ""},
		{"B200", "2026-03-08", r1, 1.8552, "", ""},
		{"B200", "2026-03-15", r1, 1.8923, Moved, "upstream"},
		{"B200", "2026-03-22", r2, 1.9066, Changed, "upstream excluded"},
		{"B200", "2026-04-05", r1, 1.8923, Changed, "upstream restored"},
		{"B200", "2026-04-19", r3, 1.6667, Changed, "upstream new-row"},
		{"H100", "2026-03-01", h100, 2.1851, "", ""},
		{"H100", "2026-03-08", h100, 2.1851, "", ""},
		{"H100", "2026-03-15", h100, 2.1851, "", ""},
		{"H100", "2026-03-22", h100, 2.1851, "", ""},
		{"H100", "2026-04-05", h100, 2.1851, "", ""},
		{"H100", "2026-04-19", h100, 2.1851, "", ""},
		{"H200", "2026-04-19", h200, 1.9444, Added, "upstream new-gpu"},
	}
	if d := cmp.Diff(want, lines(h)); d != "" {
		t.Errorf("history (-want +got):\n%s", d)
	}
	b200 := h.Series[0].Points
	if p := b200[2].RelativeChangePercent; p == nil || *p != 2.0 {
		t.Errorf("the moved row's relative change is %v, want 2.0", p)
	}
	if d := b200[3].Why[1].Detail; d != "1 x B200 at batch_size 1 excluded: energy_per_image_joules 0 is not positive" {
		t.Errorf("the exclusion is worded %q", d)
	}
	if d := b200[4].Why[1].Detail; !strings.HasPrefix(d, "1 x B200 at batch_size 1 restored (excluded in 2026-03-22: ") {
		t.Errorf("the restoration is worded %q", d)
	}
	if up := b200[2].Why[0].Detail; !strings.Contains(up, "tasks/text-to-image.json changed") {
		t.Errorf("the upstream change is worded %q", up)
	}
	newest := snaps[len(snaps)-1]
	for _, s := range h.Series {
		last := s.Points[len(s.Points)-1]
		best := newest.TaskDiffusion(historytest.DiffusionTask, historytest.DiffusionModel).Best[s.GPU]
		if *last.RowID != best.RowID || *last.WhPerImage != *best.WhPerImage || last.WhPerMillion != nil || last.WhPerVideo != nil {
			t.Errorf("%s: %s %v, want the task model file's best %s %v", s.GPU, *last.RowID, last.Wh(), best.RowID, *best.WhPerImage)
		}
	}
	var text strings.Builder
	if err := h.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"FLUX.1 Dev (flux-1-dev), Text to Image, Wh per image: 6 releases", "Wh/image", "1.6667", "moved +2.0%"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the table lacks %q:\n%s", w, text.String())
		}
	}
}

// TestHistoryTokenTask: Code Completion's index rows are its task model
// files' best, the edited one moved 2% by the upstream change, the others
// the same in every release; a video task's model with no edit has no
// change.
func TestHistoryTokenTask(t *testing.T) {
	snaps := served(t).Snapshots()
	ctx := context.Background()
	h, err := Of(ctx, snaps, Request{Model: historytest.TokenModel, Task: historytest.TokenTask, GPU: historytest.GPU})
	if err != nil {
		t.Fatal(err)
	}
	if h.Task != "sourcegraph-fim" || h.TaskName != "Code Completion" || h.Unit != "Wh per million output tokens" || len(h.Series) != 1 {
		t.Fatalf("task %s (%s), unit %s, %d series", h.Task, h.TaskName, h.Unit, len(h.Series))
	}
	var changed []string
	for _, p := range h.Series[0].Points {
		if *p.RowID != historytest.TokenRow {
			t.Errorf("%s: row %s", p.Release, *p.RowID)
		}
		if p.Change != nil {
			changed = append(changed, p.Release+" "+*p.Change+" "+p.Why[0].Kind)
		}
	}
	if !cmp.Equal(changed, []string{"2026-03-15 moved upstream"}) {
		t.Errorf("changes %v, want the one upstream move", changed)
	}
	v, err := Of(ctx, snaps, Request{Model: "zai-org/CogVideoX-2b", Task: "text-to-video"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Unit != "Wh per video" || len(v.Series) == 0 {
		t.Fatalf("text-to-video: unit %s, %d series", v.Unit, len(v.Series))
	}
	for _, s := range v.Series {
		for _, p := range s.Points {
			if p.Change != nil || p.WhPerVideo == nil || p.WhPerImage != nil || p.WhPerMillion != nil {
				t.Errorf("%s %s: change %v, energy %v", s.GPU, p.Release, p.Change, p.Wh())
			}
		}
	}
}

// TestPointJSON: a point's energy is under its task's key and no other,
// null without a row, and read back under the same key.
func TestPointJSON(t *testing.T) {
	wh := format.Float(1.5)
	for _, tc := range []struct {
		kind format.Kind
		wh   *format.Float
		want string
	}{
		{format.Tokens, &wh, `"num_gpus":null,"wh_per_million_output_tokens":1.5,"change"`},
		{format.Tokens, nil, `"num_gpus":null,"wh_per_million_output_tokens":null,"change"`},
		{format.Images, &wh, `"num_gpus":null,"wh_per_image":1.5,"change"`},
		{format.Images, nil, `"num_gpus":null,"wh_per_image":null,"change"`},
		{format.Videos, &wh, `"num_gpus":null,"wh_per_video":1.5,"change"`},
	} {
		p := Point{Release: "2026-03-01", Why: []Reason{{Kind: NewGPU, Detail: "<&>"}}, Kind: tc.kind}
		p.setWh(tc.wh)
		b, err := format.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.NewReplacer("\n", "", " ", "").Replace(string(b))
		if !strings.Contains(got, tc.want) || strings.Count(got, `"wh_per_`) != 1 || !strings.Contains(got, `"<&>"`) {
			t.Errorf("kind %d: %s, want %s and one energy key, unescaped", tc.kind, got, tc.want)
		}
		var back Point
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if tc.wh != nil && (back.Wh() == nil || *back.Wh() != wh) {
			t.Errorf("kind %d: read back %v", tc.kind, back.Wh())
		}
		c, _ := json.Marshal(CompactPoint{Release: "2026-03-01", WhPerImage: p.WhPerImage, WhPerVideo: p.WhPerVideo, WhPerMillion: p.WhPerMillion, Kind: tc.kind, Why: []string{}})
		if key := `"` + format.Tasks()[map[format.Kind]int{format.Tokens: 0, format.Images: 5, format.Videos: 6}[tc.kind]].EnergyKey() + `"`; !strings.Contains(string(c), key) || strings.Count(string(c), `"wh_per_`) != 1 {
			t.Errorf("kind %d: compact %s, want %s alone", tc.kind, c, key)
		}
	}
}
