package transform

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/leaderboard"
)

// TestTaskFilesSample: every task of the sample but the primary one gets a
// model file per model and an index; each GPU's index row is, among the
// configurations within the task's latency ceiling, the one with the
// lowest unrounded energy per unit (brute force over the upstream rows
// here), and the GPU comparisons are the models with both H100 and B200
// index rows.
func TestTaskFilesSample(t *testing.T) {
	lb := seedLeaderboard(t)
	counts := map[string][2]int{ // models, published rows
		"gpqa": {12, 187}, "sourcegraph-fim": {3, 50}, "image-chat": {11, 173}, "video-chat": {6, 100},
		"text-to-image": {7, 638}, "text-to-video": {5, 382},
	}
	for _, task := range format.Tasks() {
		if !task.HasFiles() {
			continue
		}
		if _, err := lb.AddTaskFile(task.ID, readFile(t, sample.Leaderboard(), "tasks", task.ID+".json"), "https://example/"+task.ID); err != nil {
			t.Fatal(err)
		}
		files, err := TaskFiles(lb, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		last := files[len(files)-1]
		if last.Path != format.TaskIndexPath(task.ID) {
			t.Fatalf("%s: the last file is %s", task.ID, last.Path)
		}
		// The upstream minimum per model and GPU, unrounded.
		type key struct{ model, gpu string }
		lowest := map[key]float64{}
		var nrows int
		if task.Kind.Diffusion() {
			for _, r := range lb.Diffusion[task.ID] {
				nrows++
				if k := (key{r.ModelID, r.GPU}); r.BatchLatency <= task.Ceiling.Max && (lowest[k] == 0 || *r.Energy < lowest[k]) {
					lowest[k] = *r.Energy
				}
			}
		} else {
			for _, r := range lb.Tasks[task.ID] {
				nrows++
				if k := (key{r.ModelID, r.GPU}); r.MedianITL <= task.Ceiling.Max && (lowest[k] == 0 || *r.EnergyPerToken < lowest[k]) {
					lowest[k] = *r.EnergyPerToken
				}
			}
		}
		got := map[key]float64{}
		comparisons := 0
		switch idx := last.Value.(type) {
		case *format.TaskIndex[format.Config]:
			comparisons = len(idx.GPUComparisons)
			for _, m := range idx.Models {
				for gpu, c := range m.Best {
					got[key{m.ModelID, gpu}] = float64(c.JoulesPerToken)
				}
			}
		case *format.TaskIndex[format.DiffusionConfig]:
			comparisons = len(idx.GPUComparisons)
			for _, m := range idx.Models {
				for gpu, c := range m.Best {
					j := c.JoulesPerImage
					if task.Kind == format.Videos {
						j = c.JoulesPerVideo
					}
					got[key{m.ModelID, gpu}] = float64(*j)
				}
			}
		default:
			t.Fatalf("%s: index of type %T", task.ID, last.Value)
		}
		decimals := 7
		if task.Kind.Diffusion() {
			decimals = 1
		}
		want := map[key]float64{}
		both := map[string]int{}
		for k, v := range lowest {
			want[k] = float64(format.Round(v, decimals))
			if k.gpu == "H100" || k.gpu == "B200" {
				both[k.model]++
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: index rows' energy (-upstream minimum +published):\n%s", task.ID, diff)
		}
		wantComparisons := 0
		for _, n := range both {
			if n == 2 {
				wantComparisons++
			}
		}
		c := counts[task.ID]
		if len(files)-1 != c[0] || nrows != c[1] || comparisons != wantComparisons {
			t.Errorf("%s: %d model files, %d rows, %d GPU comparisons; want %d, %d, %d", task.ID, len(files)-1, nrows, comparisons, c[0], c[1], wantComparisons)
		}
	}
}

// TestDiffusionTies: among rows of equal energy the index row is the one
// on fewer GPUs, then with the smaller batch, then with the lower Ulysses
// degree; a row over the ceiling is never one, however low its energy; a
// repeat is numbered.
func TestDiffusionTies(t *testing.T) {
	lb := seedLeaderboard(t)
	row := func(gpu string, n, batch, uly, ring int, latency, energy float64) string {
		return strings.NewReplacer("GPU", gpu, "NUM", itoa(n), "BATCH", itoa(batch), "ULY", itoa(uly), "RING", itoa(ring),
			"LAT", ftoa(latency), "EN", ftoa(energy)).Replace(`{"model_id": "Efficient-Large-Model/SANA1.5_1.6B_1024px_diffusers", "nickname": "SANA 1.5 1.6B",
			"gpu_model": "GPU", "num_gpus": NUM, "ulysses_degree": ULY, "ring_degree": RING, "batch_size": BATCH,
			"total_params_billions": 1.6, "activated_params_billions": 1.6, "inference_steps": 20, "batch_latency_s": LAT,
			"avg_power_watts": 900, "image_width": 1024, "image_height": 1024, "throughput_images_per_sec": 1, "energy_per_image_joules": EN}`)
	}
	data := `{"task": "text-to-image", "configurations": [` + strings.Join([]string{
		row("B200", 2, 4, 2, 1, 5, 300),
		row("B200", 2, 2, 2, 1, 5, 300), // smaller batch: the B200 index row
		row("B200", 4, 1, 4, 1, 5, 300),
		row("B200", 1, 1, 1, 1, 31, 100), // over the 30 s ceiling
		row("H100", 4, 1, 2, 2, 5, 400),
		row("H100", 4, 1, 1, 4, 5, 400), // lower Ulysses degree: the H100 index row
		row("H100", 4, 1, 1, 4, 6, 500), // a repeat
	}, ", ") + `]}`
	if _, err := lb.AddTaskFile("text-to-image", []byte(data), "u"); err != nil {
		t.Fatal(err)
	}
	files, err := TaskFiles(lb, "text-to-image")
	if err != nil {
		t.Fatal(err)
	}
	m := files[0].Value.(*format.TaskModel[format.DiffusionConfig])
	got := map[string]string{"B200": m.Best["B200"].RowID, "H100": m.Best["H100"].RowID}
	want := map[string]string{
		"B200": "sana-1-5-1-6b/text-to-image/B200/2/2/ulysses-2-ring-1",
		"H100": "sana-1-5-1-6b/text-to-image/H100/4/1/ulysses-1-ring-4",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("index rows (-want +got):\n%s", diff)
	}
	// Sorted by GPU, GPU count, batch, Ulysses and ring degree: the repeat
	// follows its first measurement.
	if c := m.Configurations[len(m.Configurations)-2]; c.Repeat != 2 || c.RowID != "sana-1-5-1-6b/text-to-image/H100/4/1/ulysses-1-ring-4/r2" || *c.WhPerImage != format.Round(500.0/leaderboard.JoulesPerWh, 4) {
		t.Errorf("the repeat: %+v", c)
	}
	idx := files[1].Value.(*format.TaskIndex[format.DiffusionConfig])
	if len(idx.GPUComparisons) != 1 || idx.GPUComparisons[0].EnergyRatio != format.Sig3(400.0/300) {
		t.Errorf("GPU comparisons %+v", idx.GPUComparisons)
	}
}

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
