package diff_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/diff"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// TestTaskIndexRows: a text-to-image row that becomes the cheapest within
// the ceiling moves its model's index row; diff reports it under the task,
// with the old and new rows and the relative change of the unrounded
// energy per image, and nothing else of the task.
func TestTaskIndexRows(t *testing.T) {
	dir := t.TempDir()
	snaptest.CopyDir(t, snaptest.SmallLeaderboard(t), dir)
	var oldJ, newJ float64
	snaptest.EditJSON(t, filepath.Join(dir, "tasks", "text-to-image.json"), func(v map[string]any) {
		// FLUX.1 Dev on 8 x H100 at batch 1, ulysses 8: made cheaper than
		// every FLUX.1 Dev H100 row within 30 s.
		for _, x := range v["configurations"].([]any) {
			r := x.(map[string]any)
			if fmt.Sprint(r["nickname"], r["gpu_model"], r["num_gpus"], r["batch_size"], r["ulysses_degree"]) == "FLUX.1 DevH100818" {
				oldJ, _ = r["energy_per_image_joules"].(json.Number).Float64()
				newJ = 100
				r["energy_per_image_joules"] = json.Number("100")
			}
		}
	})
	if oldJ == 0 {
		t.Fatal("no such row in the sample")
	}
	oldRel := snaptest.Load(t, snaptest.SmallSnapshot(t))
	res, err := snaptest.Build(t, t.TempDir(), snaptest.SourceOf(dir))
	if err != nil {
		t.Fatal(err)
	}
	rep := snaptest.Diff(t, oldRel, snaptest.Load(t, res.Dir))
	if len(rep.TaskIndexRows) != 1 {
		t.Fatalf("task index rows %+v, want one", rep.TaskIndexRows)
	}
	c := rep.TaskIndexRows[0]
	if c.Task != "text-to-image" || c.Slug != "flux-1-dev" || c.GPU != "H100" || c.Kind != diff.RowChanged || c.Unit != "Wh per image" ||
		c.New.RowID != "flux-1-dev/text-to-image/H100/8/1/ulysses-8-ring-1" || c.New.Energy != format.Round(newJ/3600, 4) {
		t.Errorf("task index row %+v (old %+v, new %+v)", c, c.Old, c.New)
	}
	// The old index row's unrounded energy, from the published old file's
	// joules, is close to what the relative change was computed from.
	oldWh := float64(c.Old.Energy)
	if got, want := float64(*c.RelativeChangePercent), (newJ/3600/oldWh-1)*100; got > want+0.1 || got < want-0.1 {
		t.Errorf("relative change %v%%, want about %v%%", got, want)
	}
	if diff := cmp.Diff([]string{}, rep.Tasks.Added); diff != "" || len(rep.Tasks.Removed) != 0 || !rep.DataChanged {
		t.Errorf("tasks %+v, data changed %v", rep.Tasks, rep.DataChanged)
	}
	if !strings.Contains(rep.Summary, "1 task index row changed") {
		t.Errorf("summary %q", rep.Summary)
	}
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), "text-to-image flux-1-dev H100: ") {
		t.Errorf("text report (%v):\n%s", err, text.String())
	}
}
