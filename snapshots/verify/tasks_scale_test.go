//go:build scale

package verify

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/shared"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// TestTaskIndexRowsEveryVersion: for every task with files of its own in
// every shared leaderboard version, each published index row (each model
// file's best, and its task index's) is the configuration the rule picks,
// read here from the archived task file with encoding/json alone: among
// the model's published rows on the GPU within the task's latency ceiling,
// the lowest unrounded energy per unit, to the last bit; and every model
// and GPU with such a row has one. A diffusion task publishes every
// upstream row of the shared versions (none breaks a bound).
func TestTaskIndexRowsEveryVersion(t *testing.T) {
	versions, err := os.ReadDir(shared.Path(t, "upstream", "leaderboard"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions {
		dir := snaptest.VersionSnapshot(t, sharedLeaderboard(t, v.Name()))
		for _, task := range format.Tasks() {
			if !task.HasFiles() {
				continue
			}
			t.Run(v.Name()+"/"+task.ID, func(t *testing.T) {
				checkTaskIndexRows(t, dir, task)
			})
		}
	}
}

// upstreamRow is what the test reads of an archived row.
type upstreamRow map[string]any

func (r upstreamRow) num(key string) float64 { x, _ := r[key].(float64); return x }
func (r upstreamRow) int(key string) int     { return int(r.num(key)) }

// identity is a row's published identity without its repeat: the fields
// its row id is made of.
func identity(task format.Task, gpu string, n int, r map[string]any) string {
	num := func(k string) string { x, _ := r[k].(float64); return strconv.Itoa(int(x)) }
	if task.Kind.Diffusion() {
		return fmt.Sprint(gpu, "/", n, "/", num("batch_size"), "/", num("ulysses_degree"), "/", num("ring_degree"))
	}
	return fmt.Sprint(gpu, "/", n, "/", num("max_num_seqs"))
}

func checkTaskIndexRows(t *testing.T, dir string, task format.Task) {
	var upstream struct {
		Configurations []upstreamRow `json:"configurations"`
	}
	readJSON(t, filepath.Join(dir, task.ArchivedPath()), &upstream)
	var index struct {
		StableConfigurations int `json:"stable_configurations"`
		Models               []struct {
			Slug, ModelID string
			File          string                    `json:"file"`
			Best          map[string]map[string]any `json:"best"`
		} `json:"models"`
	}
	readJSON(t, filepath.Join(dir, format.TaskIndexPath(task.ID)), &index)
	if task.Kind.Diffusion() && index.StableConfigurations != len(upstream.Configurations) {
		t.Errorf("%d configurations published of %d upstream rows", index.StableConfigurations, len(upstream.Configurations))
	}
	published := 0
	for _, e := range index.Models {
		var m struct {
			ModelID        string                    `json:"model_id"`
			Configurations []map[string]any          `json:"configurations"`
			Best           map[string]map[string]any `json:"best"`
		}
		readJSON(t, filepath.Join(dir, e.File), &m)
		published += len(m.Configurations)
		// The model's upstream rows by identity, in upstream order: the
		// Nth of an identity is repeat N.
		byID := map[string][]upstreamRow{}
		for _, r := range upstream.Configurations {
			if r["model_id"] == m.ModelID {
				id := identity(task, r["gpu_model"].(string), r.int("num_gpus"), r)
				byID[id] = append(byID[id], r)
			}
		}
		lowest := map[string]float64{} // GPU -> lowest energy within the ceiling
		for _, c := range m.Configurations {
			gpu := c["gpu"].(string)
			rows := byID[identity(task, gpu, int(c["num_gpus"].(float64)), c)]
			repeat := int(c["repeat"].(float64))
			if repeat > len(rows) {
				t.Fatalf("%s: %v is not an upstream row", e.File, c["row_id"])
			}
			r := rows[repeat-1]
			if r.num(task.Ceiling.Field) <= task.Ceiling.Max {
				if e, ok := lowest[gpu]; !ok || r.num(task.EnergyField) < e {
					lowest[gpu] = r.num(task.EnergyField)
				}
			}
		}
		for _, best := range []map[string]map[string]any{m.Best, e.Best} {
			if len(best) != len(lowest) {
				t.Errorf("%s: index rows on %d GPUs, want %d", e.File, len(best), len(lowest))
			}
			for gpu, c := range best {
				rows := byID[identity(task, gpu, int(c["num_gpus"].(float64)), c)]
				r := rows[int(c["repeat"].(float64))-1]
				if got := r.num(task.EnergyField); got != lowest[gpu] {
					t.Errorf("%s %s: index row %v has %s %v, the lowest within the ceiling is %v", e.File, gpu, c["row_id"], task.EnergyField, got, lowest[gpu])
				}
			}
		}
	}
	if published != index.StableConfigurations {
		t.Errorf("the model files publish %d configurations, the index counts %d", published, index.StableConfigurations)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
