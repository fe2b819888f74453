package catalog

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
)

// upstreamRows reads the archived task file of task as plain JSON, apart
// from the leaderboard package: its configurations, each a map of fields.
func upstreamRows(t *testing.T, s *Snapshot, task string) []map[string]any {
	t.Helper()
	tk, _ := format.LookupTask(task)
	f, ok := s.File(tk.ArchivedPath())
	if !ok {
		t.Fatalf("no %s", tk.ArchivedPath())
	}
	var doc struct {
		Configurations []map[string]any `json:"configurations"`
	}
	if err := json.Unmarshal(f.Bytes, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Configurations
}

// TestListTasks: every task of the sample is listed, in the registry's
// order, with its unit, kind and model count.
func TestListTasks(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot(Latest)
	type row struct {
		ID, Kind, EnergyKey string
		Models              int
		Primary             bool
	}
	var got []row
	for _, tk := range s.ListTasks().Tasks {
		got = append(got, row{tk.ID, tk.Kind, tk.EnergyKey, tk.Models, tk.Primary})
	}
	want := []row{
		{"lm-arena-chat", "tokens", "wh_per_million_output_tokens", len(s.Models), true},
		{"gpqa", "tokens", "wh_per_million_output_tokens", 12, false},
		{"sourcegraph-fim", "tokens", "wh_per_million_output_tokens", 3, false},
		{"image-chat", "tokens", "wh_per_million_output_tokens", 11, false},
		{"video-chat", "tokens", "wh_per_million_output_tokens", 6, false},
		{"text-to-image", "images", "wh_per_image", 7, false},
		{"text-to-video", "videos", "wh_per_video", 5, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
	for _, q := range []string{"text-to-image", "Text to Image", "text_to_image", " TEXT TO IMAGE "} {
		if tk, err := s.FindTask(q); err != nil || tk.ID != "text-to-image" {
			t.Errorf("FindTask(%q) = %v, %v; want text-to-image", q, tk.ID, err)
		}
	}
	if _, err := s.FindTask("text-to-audio"); err == nil {
		t.Errorf("FindTask(text-to-audio) found a task")
	}
	if l, err := s.ListTaskModels("text-to-video"); err != nil || len(l.(*TaskModelList).Models) != 5 {
		t.Errorf("ListTaskModels(text-to-video) = %v, %v", l, err)
	}
}

// TestPriceImage: a text-to-image model's index rows are priced from the
// archived row's energy per image, per image and per 1,000 images.
func TestPriceImage(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot(Latest)
	ans, err := s.PriceDiffusion(PriceRequest{Task: "text-to-image", Model: "FLUX.1 dev", Grids: []string{"Norway"}, GPU: "b200", PUE: ptr(1.5)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Rows) != 1 {
		t.Fatalf("%d rows, want 1", len(ans.Rows))
	}
	r := ans.Rows[0]
	if !r.IndexRow || r.WhPerImage == nil || r.WhPerVideo != nil || r.GPerVideo != nil || r.Task != "text-to-image" || r.Unit != "Wh per image" {
		t.Fatalf("row %+v: want the B200 index row of an image task", r)
	}
	// The row behind it, read as plain JSON.
	var joules float64
	found := 0
	for _, u := range upstreamRows(t, s, "text-to-image") {
		if u["model_id"] == ans.ModelID && u["gpu_model"] == "B200" && u["num_gpus"] == float64(r.NumGPUs) && u["batch_size"] == float64(r.BatchSize) &&
			r.RowID == ans.Model+"/text-to-image/B200/"+strconv.Itoa(r.NumGPUs)+"/"+strconv.Itoa(r.BatchSize)+"/ulysses-"+
				strconv.Itoa(int(u["ulysses_degree"].(float64)))+"-ring-"+strconv.Itoa(int(u["ring_degree"].(float64))) {
			joules = u["energy_per_image_joules"].(float64)
			found++
		}
	}
	if found != 1 {
		t.Fatalf("%d upstream rows behind %s", found, r.RowID)
	}
	if *r.WhPerImageUnrounded != joules/3600 {
		t.Errorf("unrounded Wh per image %v, want %v", *r.WhPerImageUnrounded, joules/3600)
	}
	wantG := math.RoundToEven(joules/3600*1.5*30/1000*1e4) / 1e4
	wantKg := math.RoundToEven(joules/3600*1.5*30/1000*1e4) / 1e4
	if float64(*r.GPerImage) != wantG || float64(*r.KgPerThousandImgs) != wantKg {
		t.Errorf("g per image %v, kg per 1,000 %v; want %v, %v", *r.GPerImage, *r.KgPerThousandImgs, wantG, wantKg)
	}
	var paths []string
	for _, f := range ans.Files {
		paths = append(paths, f.Path)
	}
	want := []string{"manifest.json", "tasks/text-to-image/models/flux-1-dev.json", "grid.json", "sources/leaderboard/index.json",
		"sources/leaderboard/commits.json", "sources/leaderboard/tasks/text-to-image.json"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if _, err := s.PriceDiffusion(PriceRequest{Task: "text-to-image", Model: "flux-1-dev", Grids: []string{"NOR"}, Batch: ptr(4)}); err == nil {
		t.Errorf("a diffusion price with a running batch was answered")
	}
}

// TestPriceVideo: a video is priced per video and per minute of video.
func TestPriceVideo(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot(Latest)
	got, err := s.PriceTask(PriceRequest{Task: "text-to-video", Model: "cogvideox-1-5-5b", Intensity: ptr(400)})
	if err != nil {
		t.Fatal(err)
	}
	ans := got.(*DiffusionCarbon)
	if len(ans.Rows) != 2 {
		t.Fatalf("%d rows, want B200 and H100", len(ans.Rows))
	}
	for _, r := range ans.Rows {
		wh := *r.WhPerVideoUnrounded
		secs := float64(r.NumFrames) / float64(*r.FPS)
		if float64(*r.GPerVideo) != math.RoundToEven(wh*400/1000*100)/100 || float64(*r.GPerVideoMinute) != math.RoundToEven(wh*60/secs*400/1000*10)/10 {
			t.Errorf("%s: g per video %v, per minute %v from %v Wh over %v s", r.GPU, *r.GPerVideo, *r.GPerVideoMinute, wh, secs)
		}
	}
}

// TestPriceTokenTask: a token task is priced as the primary one is, from
// its own files; the answer names the task and its unit, and an answer
// without a task has neither.
func TestPriceTokenTask(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot(Latest)
	ans, err := s.Price(PriceRequest{Task: "sourcegraph-fim", Model: s.tasks["sourcegraph-fim"].models[0].Slug, Grids: []string{"World"}})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Task != "sourcegraph-fim" || len(ans.Rows) == 0 || ans.Rows[0].Task != "sourcegraph-fim" || ans.Rows[0].Unit != "Wh per million output tokens" {
		t.Errorf("answer %s names task %q", ans.Model, ans.Task)
	}
	if got := ans.Files[1].Path; got != format.TaskModelPath("sourcegraph-fim", ans.Model) {
		t.Errorf("model file %s", got)
	}
	for _, r := range ans.Rows {
		if r.KgPerBillion != format.Round(r.WhPerMillionUnrounded*474/1000, 1) {
			t.Errorf("%s: %v kg", r.RowID, r.KgPerBillion)
		}
	}
	plain, err := s.Price(PriceRequest{Model: "qwen-3-32b", Grids: []string{"World"}})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(plain); json.Valid(b) && (plain.Task != "" || plain.Rows[0].Task != "") {
		t.Errorf("an answer without a task names one")
	}
}
