package leaderboard

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/internal/sample"
)

// diffusionFile is a diffusion task file of the given rows, each a JSON
// object's members.
func diffusionFile(task string, rows ...string) []byte {
	return []byte(`{"task": "` + task + `", "architecture": "diffusion", "configurations": [{` + strings.Join(rows, "}, {") + `}]}`)
}

const imageRow = `"model_id": "o/m", "nickname": "M", "gpu_model": "B200", "num_gpus": 2, "ulysses_degree": 2, "ring_degree": 1,
	"batch_size": 4, "total_params_billions": 1.6, "activated_params_billions": 1.6, "inference_steps": 20,
	"batch_latency_s": 2.0, "avg_power_watts": 1000.0, "image_width": 1024, "image_height": 1024,
	"throughput_images_per_sec": 2.0, "energy_per_image_joules": 500.0, "weight_precision": "bfloat16"`

const videoRow = `"model_id": "o/v", "nickname": "V", "gpu_model": "H100", "num_gpus": 1, "ulysses_degree": 1, "ring_degree": 1,
	"batch_size": 1, "total_params_billions": 14, "activated_params_billions": 14, "inference_steps": 50,
	"batch_latency_s": 200.5, "avg_power_watts": 600.0, "video_width": 832, "video_height": 480, "num_frames": 81, "fps": 15,
	"throughput_videos_per_sec": 0.005, "energy_per_video_joules": 120300.0`

// TestParseDiffusionSample: the sample's diffusion task files read whole,
// every row published (none breaks a bound), with what each row made.
func TestParseDiffusionSample(t *testing.T) {
	for _, tc := range []struct {
		task         string
		rows, models int
	}{{"text-to-image", 638, 7}, {"text-to-video", 382, 5}} {
		rows, err := ParseDiffusion(tc.task, sample.Read(t, "upstream", "leaderboard", sample.Version, "tasks", tc.task+".json"))
		if err != nil {
			t.Fatal(err)
		}
		kept, excluded := StableDiffusion(rows)
		models := map[string]bool{}
		for _, r := range kept {
			models[r.ModelID] = true
			if r.Width == 0 || r.Height == 0 || r.Steps == 0 || r.Video != (r.Frames > 0) || r.Ulysses*r.Ring != r.NumGPUs {
				t.Errorf("%s: read as %+v", r.Label(), r)
			}
		}
		if len(kept) != tc.rows || len(excluded) != 0 || len(models) != tc.models {
			t.Errorf("%s: %d rows published of %d models, %d excluded; want %d of %d, none", tc.task, len(kept), len(models), len(excluded), tc.rows, tc.models)
		}
		ids, err := DiffusionRowIDs(tc.task, kept)
		if err != nil || len(ids) != len(kept) {
			t.Errorf("%s: %d row ids, %v", tc.task, len(ids), err)
		}
	}
}

// TestParseDiffusionErrors: a missing field, or one of the wrong type, is
// an error naming the file, the row and the field.
func TestParseDiffusionErrors(t *testing.T) {
	for _, tc := range []struct{ name, task, row, want string }{
		{"no energy field at all is an unpublished row, but no latency is an error", "text-to-image",
			strings.Replace(imageRow, `"batch_latency_s": 2.0,`, "", 1),
			`leaderboard/tasks/text-to-image.json: configurations[0] (o/m on 2 x B200, batch_size 4): field "batch_latency_s": missing`},
		{"a string for a number", "text-to-image", strings.Replace(imageRow, `"inference_steps": 20`, `"inference_steps": "20"`, 1),
			`configurations[0] (o/m on 2 x B200, batch_size 4): field "inference_steps": "20" is not a number`},
		{"a fraction of a frame", "text-to-video", strings.Replace(videoRow, `"num_frames": 81`, `"num_frames": 81.5`, 1),
			`field "num_frames": 81.5 is not a whole number`},
		{"an image row in a video task", "text-to-video", imageRow, `field "video_width": missing`},
	} {
		_, err := ParseDiffusion(tc.task, diffusionFile(tc.task, tc.row))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
	if _, err := ParseDiffusion("gpqa", diffusionFile("gpqa", imageRow)); err == nil {
		t.Error("ParseDiffusion read a token task")
	}
}

// TestStableDiffusion: a row with no usable energy, a figure beyond a
// plausibility bound or an exact copy of an earlier row is left out with
// its reason; the rest are published in upstream order.
func TestStableDiffusion(t *testing.T) {
	rows, err := ParseDiffusion("text-to-video", diffusionFile("text-to-video",
		videoRow,
		strings.Replace(videoRow, `"energy_per_video_joules": 120300.0`, `"energy_per_video_joules": 0`, 1),
		strings.Replace(videoRow, `"energy_per_video_joules": 120300.0`, `"energy_per_video_joules": null`, 1),
		strings.Replace(videoRow, `"batch_latency_s": 200.5`, `"batch_latency_s": 2e7`, 1),
		strings.Replace(videoRow, `"fps": 15`, `"fps": 5000`, 1),
		strings.Replace(videoRow, `"ring_degree": 1`, `"ring_degree": 2`, 1),
		strings.Replace(videoRow, `"avg_power_watts": 600.0`, `"avg_power_watts": 6000.0`, 1),
		videoRow,
		strings.Replace(videoRow, `"batch_size": 1`, `"batch_size": 2`, 1),
	))
	if err != nil {
		t.Fatal(err)
	}
	kept, excluded := StableDiffusion(rows)
	var got []string
	for _, e := range excluded {
		got = append(got, e.Row.Where()+": "+e.Reason)
	}
	want := []string{
		"configurations[1] (o/v on 1 x H100, batch_size 1): energy_per_video_joules 0 is not positive",
		"configurations[2] (o/v on 1 x H100, batch_size 1): energy_per_video_joules is missing",
		`configurations[3] (o/v on 1 x H100, batch_size 1): field "batch_latency_s": 2e+07 s is above the 1e+06 s plausibility bound`,
		`configurations[4] (o/v on 1 x H100, batch_size 1): field "fps": 5000 is above the 1000 plausibility bound`,
		"configurations[5] (o/v on 1 x H100, batch_size 1): ulysses_degree 1 times ring_degree 2 is not num_gpus 1",
		`configurations[6] (o/v on 1 x H100, batch_size 1): field "avg_power_watts": 6000 W per GPU is above the 2000 W per GPU plausibility bound`,
		"configurations[7] (o/v on 1 x H100, batch_size 1): exact duplicate of configurations[0]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exclusions (-want +got):\n%s", diff)
	}
	if len(kept) != 2 || kept[0].Index != 0 || kept[1].Index != 8 || kept[0].VideoSeconds() != 5.4 {
		t.Errorf("published %+v", kept)
	}
}

// TestBetterDiffusion: the index row rule's order: lower energy, then
// fewer GPUs, the smaller batch, the lower Ulysses degree, the lower ring
// degree, the lower repeat.
func TestBetterDiffusion(t *testing.T) {
	e := func(x float64) *float64 { return &x }
	base := DiffusionRow{Energy: e(100), NumGPUs: 4, BatchSize: 8, Ulysses: 2, Ring: 2}
	for _, tc := range []struct {
		name string
		edit func(*DiffusionRow)
	}{
		{"less energy", func(r *DiffusionRow) { r.Energy = e(99); r.NumGPUs = 8 }},
		{"fewer GPUs", func(r *DiffusionRow) { r.NumGPUs = 2; r.BatchSize = 32 }},
		{"a smaller batch", func(r *DiffusionRow) { r.BatchSize = 4; r.Ulysses = 4; r.Ring = 1 }},
		{"a lower Ulysses degree", func(r *DiffusionRow) { r.Ulysses = 1; r.Ring = 4 }},
		{"a lower ring degree", func(r *DiffusionRow) { r.Ring = 1 }},
	} {
		a := base
		tc.edit(&a)
		if !BetterDiffusion(&a, 1, &base, 1) || BetterDiffusion(&base, 1, &a, 1) {
			t.Errorf("%s: not the better row", tc.name)
		}
	}
	b := base
	if !BetterDiffusion(&b, 1, &base, 2) || BetterDiffusion(&b, 2, &base, 1) {
		t.Error("the lower repeat is not the better row")
	}
}
