package build_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/diff"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// buildHostile builds a hostile fixture into out as the snapshot of date,
// and returns its folder and the build's log.
func buildHostile(t *testing.T, name, out, date string) (string, string) {
	t.Helper()
	res, logs, err := loadHostile(t, name).build(t, t.TempDir(), out, date)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res.Dir, logs
}

// TestNewGPUs: new GPUs (new-gpu.txtar) are carried into index.json's
// entries while its GPU comparison stays H100 against B200; the build that
// meets them logs the diff against the earlier snapshot, which names them,
// and diff names them in its summary, its text and its JSON.
func TestNewGPUs(t *testing.T) {
	out := t.TempDir()
	oldDir, _ := buildHostile(t, "base.txtar", out, "2026-09-20")
	newDir, logs := buildHostile(t, "new-gpu.txtar", out, snaptest.SeedDate)

	b, err := os.ReadFile(filepath.Join(newDir, format.IndexPath))
	if err != nil {
		t.Fatal(err)
	}
	var idx format.IndexFile
	if err := json.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	gpus := map[string][]string{}
	for _, e := range idx.Models {
		gpus[e.Slug] = e.GPUs
	}
	wantGPUs := map[string][]string{
		"alpha-7b":      {"B200", "H100", "H200"},
		"beta-1-5b":     {"H100", "RTX PRO 6000"},
		"gamma-30b-a3b": {"MI300X"},
	}
	if diff := cmp.Diff(wantGPUs, gpus); diff != "" {
		t.Errorf("index.json gpus (-want +got):\n%s", diff)
	}
	var cmps []string
	for _, g := range idx.GPUComparisons {
		cmps = append(cmps, g.Slug+" "+g.Over.RowID+" "+g.Under.RowID)
	}
	if diff := cmp.Diff([]string{"alpha-7b alpha-7b/H100/1/16 alpha-7b/B200/1/8"}, cmps); diff != "" {
		t.Errorf("gpu_comparisons (-want +got):\n%s", diff)
	}

	const summary = "GPUs added: H200, MI300X, RTX PRO 6000"
	if !strings.Contains(logs, summary) {
		t.Errorf("the build's log does not hold %q:\n%s", summary, logs)
	}
	r := snaptest.Diff(t, snaptest.Load(t, oldDir), snaptest.Load(t, newDir))
	want := diff.GPUChange{Old: []string{"B200", "H100"}, New: []string{"B200", "H100", "H200", "MI300X", "RTX PRO 6000"},
		Added: []string{"H200", "MI300X", "RTX PRO 6000"}, Removed: []string{}}
	if diff := cmp.Diff(want, r.GPUs); diff != "" {
		t.Errorf("diff gpus (-want +got):\n%s", diff)
	}
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{summary, "GPUs: B200, H100 -> B200, H100, H200, MI300X, RTX PRO 6000\n  added: H200\n  added: MI300X\n  added: RTX PRO 6000\n"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("diff's text lacks %q:\n%s", w, text.String())
		}
	}
	if !strings.Contains(js.String(), `"added": [
      "H200",
      "MI300X",
      "RTX PRO 6000"
    ]`) {
		t.Errorf("diff's JSON does not list the added GPUs:\n%s", js.String())
	}
	// The other way round, they are removed.
	back := snaptest.Diff(t, snaptest.Load(t, newDir), snaptest.Load(t, oldDir))
	if diff := cmp.Diff([]string{"H200", "MI300X", "RTX PRO 6000"}, back.GPUs.Removed); diff != "" {
		t.Errorf("removed GPUs (-want +got):\n%s", diff)
	}
}
