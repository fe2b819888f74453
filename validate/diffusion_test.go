package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// vtDiffusionDir is the stability fixture's leaderboard with
// testdata/diffusion.txtar laid over it: a text-to-image task file.
func vtDiffusionDir(t *testing.T) string {
	t.Helper()
	dir := vtStabilityDir(t)
	a, err := txtar.ParseFile("testdata/diffusion.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	vtDiffModel = "tasks/text-to-image/models/test-diffuser-1b.json"
	vtDiffIndex = "tasks/text-to-image/index.json"
)

// vtSetBest replaces best[gpu] of a task model file with its
// configuration i.
func vtSetBest(t *testing.T, gpu string, i int) func([]byte) []byte {
	return func(b []byte) []byte {
		n, err := parseTree(b)
		if err != nil {
			t.Fatal(err)
		}
		best := n.get("best")
		for k, key := range best.keys {
			if key == gpu {
				best.vals[k] = n.get("configurations").vals[i]
			}
		}
		return writeTree(n)
	}
}

// TestTamperDiffusion: a text-to-image snapshot passes; altered in one way
// each, Check names the file, the entry and the field: a figure, the
// index row the rule picks (the lowest energy per image within 30 s; on a
// tie fewer GPUs, then the smaller batch), the GPU comparison, the
// exclusion of a row with no positive energy, a file no row gives.
func TestTamperDiffusion(t *testing.T) {
	fix := vtFixture{leaderboard: vtDiffusionDir(t), tasks: []string{"lm-arena-chat", "text-to-image"}}
	if probs := vtReport(t, vtBuild(t, fix)); probs != nil {
		t.Fatalf("the diffusion fixture fails its check: %v", probs)
	}
	for _, tc := range []struct {
		name        string
		edit        func(t *testing.T, dir string)
		at          vtAt
		msg         string
		onlyInFiles []string
	}{
		{"a figure", func(t *testing.T, dir string) {
			vtEditFile(t, dir, vtDiffModel, true, vtReplace(t, `"wh_per_image": 0.0833`, `"wh_per_image": 0.0834`))
		}, vtAt{vtDiffModel, "configurations[0] (test-diffuser-1b/text-to-image/B200/1/1/ulysses-1-ring-1)", "wh_per_image"},
			"is 0.0834, recomputed 0.0833", []string{vtDiffModel}},
		{"the index row over the latency ceiling", func(t *testing.T, dir string) {
			vtEditFile(t, dir, vtDiffModel, true, vtSetBest(t, "B200", 2)) // batch 4: 100 J, but 31 s
		}, vtAt{vtDiffModel, "", "best.B200.row_id"}, `recomputed "test-diffuser-1b/text-to-image/B200/1/1/ulysses-1-ring-1"`, []string{vtDiffModel}},
		{"a tie won by more GPUs", func(t *testing.T, dir string) {
			vtEditFile(t, dir, vtDiffModel, true, vtSetBest(t, "B200", 3)) // sorted by GPU count: 2 x B200, ring 2, 300 J
		}, vtAt{vtDiffModel, "", "best.B200.num_gpus"}, "is 2, recomputed 1", []string{vtDiffModel}},
		{"the GPU comparison's ratio", func(t *testing.T, dir string) {
			vtEditFile(t, dir, vtDiffIndex, true, vtReplace(t, `"energy_ratio": 1.5`, `"energy_ratio": 1.49`))
		}, vtAt{vtDiffIndex, "gpu_comparisons[0] (test-diffuser-1b)", "energy_ratio"}, "is 1.49, recomputed 1.5", []string{vtDiffIndex}},
		{"an exclusion missing", manifest(func(m *Manifest) {
			var keep []ManifestExclusion
			for _, e := range m.Exclusions {
				if e.Task != "text-to-image" {
					keep = append(keep, e)
				}
			}
			m.Exclusions = keep
		}), vtAt{ManifestPath, "", "exclusions"}, "lacks text-to-image configurations[4] (test-org/Test-Diffuser-1B on 1 x B200, batch_size 8), which the stability filter excludes: energy_per_image_joules 0 is not a finite positive number",
			[]string{ManifestPath}},
		{"a file no model gives", func(t *testing.T, dir string) {
			b, _ := os.ReadFile(filepath.Join(dir, vtDiffModel))
			p := "tasks/text-to-image/models/ghost.json"
			if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
				t.Fatal(err)
			}
			m := vtReadManifest(t, dir)
			m.Outputs = append(m.Outputs, vtFileEntry(p, b))
			vtSortOutputs(m)
			vtWriteManifest(t, dir, m)
		}, vtAt{"tasks/text-to-image/models/ghost.json", "", ""}, "is not a recomputed file", []string{"tasks/text-to-image/models/ghost.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := vtBuild(t, fix)
			tc.edit(t, dir)
			got := vtReport(t, dir)
			found := false
			for _, p := range got {
				if (vtAt{p.File, p.Where, p.Field}) == tc.at && strings.Contains(p.Msg, tc.msg) {
					found = true
				}
				if !strings.Contains(strings.Join(tc.onlyInFiles, " "), p.File) {
					t.Errorf("a problem of another file: %s", p)
				}
			}
			if !found {
				t.Errorf("no problem at %+v saying %q:\n%s", tc.at, tc.msg, (&Report{Dir: dir, Problems: got}).Error())
			}
		})
	}
}

// TestTamperTokenTask: a token task's file (Code Completion) is
// recomputed by the model files' own rules: a figure altered, and an index
// row that is not the lowest energy per token within 500 ms, are named.
func TestTamperTokenTask(t *testing.T) {
	fix := vtFixture{leaderboard: vtSeed, tasks: []string{"lm-arena-chat", "sourcegraph-fim"}}
	const p = "tasks/sourcegraph-fim/models/qwen-3-coder-30b-a3b.json"
	dir := vtBuild(t, fix)
	if probs := vtReport(t, dir); probs != nil {
		t.Fatalf("the fixture fails its check: %v", probs)
	}
	vtEditFile(t, dir, p, true, func(b []byte) []byte {
		n, err := parseTree(b)
		if err != nil {
			t.Fatal(err)
		}
		c := n.get("configurations").vals[0]
		for k, key := range c.keys {
			if key == "joules_per_output_token" {
				c.vals[k] = jnum("9.5")
			}
		}
		return writeTree(n)
	})
	got := vtReport(t, dir)
	if len(got) == 0 || got[0].File != p || got[0].Field != "joules_per_output_token" || !strings.Contains(got[0].Msg, "is 9.5, recomputed") {
		t.Errorf("problems: %v", got)
	}
}
