//go:build scale

package diff_test

// The tests of make scale that read more than the repository's sample: the
// other leaderboard versions of ../shared.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/internal/shared"
	"github.com/leadgreen/greentokens/snapshots/diff"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// TestDiffRealPairs diffs snapshots of real upstream versions. Upstream,
// 2026-01-01 -> 2026-02-16 fixed tensor_parallel (1 on every multi-GPU row
// of nine model-GPU pairs), 2025-12-17 -> 2026-01-01 fixed the output
// throughput of every row, and the 2026-02-13 versions reformat the same
// data. No energy figure moved in any of them.
func TestDiffRealPairs(t *testing.T) {
	t.Parallel() // independent of the other tests, and among the package's longest
	for _, tc := range []struct {
		old, new    string
		wantSummary string // %d is the count of configurations computed here
		wantFields  []string
	}{
		{"2026-01-01-6e70d23", "2026-02-16-7885788", "18 models, index rows unchanged, %d configurations changed (tensor_parallel)", []string{"tensor_parallel"}},
		{"2026-02-13-0ea52b6", "2026-02-13-f76e8d3", "18 models, no data change", nil},
		{"2025-12-17-281c69e", "2026-01-01-6e70d23", "18 models, index rows unchanged, %d configurations changed (tokens_per_second)", []string{"tokens_per_second"}},
	} {
		t.Run(tc.old+"_"+tc.new, func(t *testing.T) {
			oldDir, newDir := snaptest.VersionSnapshot(t, sharedLeaderboard(t, tc.old)), snaptest.VersionSnapshot(t, sharedLeaderboard(t, tc.new))
			r := snaptest.Diff(t, snaptest.Load(t, oldDir), snaptest.Load(t, newDir))

			oldRaw := rawChat(t, filepath.Join(sharedLeaderboard(t, tc.old), "tasks", "lm-arena-chat.json"))
			newRaw := rawChat(t, filepath.Join(sharedLeaderboard(t, tc.new), "tasks", "lm-arena-chat.json"))
			oldM, newM := readModels(t, oldDir), readModels(t, newDir)

			// Configurations: exactly the published fields whose upstream moved.
			want := wantConfigChanges(t, oldRaw, newRaw, oldM, newM)
			if diff := cmp.Diff(want, gotConfigChanges(r)); diff != "" {
				t.Errorf("configuration changes (-want +got):\n%s", diff)
			}
			fields := map[string]bool{}
			for _, fs := range want {
				for _, f := range fs {
					fields[strings.Fields(f)[0]] = true
				}
			}
			if diff := cmp.Diff(tc.wantFields, sortedKeysOfAny(fields)); diff != "" {
				t.Errorf("the fields that changed upstream are not the ones expected (-want +got):\n%s", diff)
			}

			// Index rows: no energy moved, and no best row changed.
			for slug, nm := range newM {
				for gpu, nb := range nm.Best {
					ob := oldM[slug].Best[gpu]
					if ob["row_id"] != nb["row_id"] || jtext(t, rawFor(oldRaw, nm.ModelID, ob)["energy_per_token_joules"]) != jtext(t, rawFor(newRaw, nm.ModelID, nb)["energy_per_token_joules"]) {
						t.Fatalf("%s %s: the index row moved upstream; this test expects it not to", slug, gpu)
					}
				}
			}
			if len(r.IndexRows) != 0 || len(r.Models.Added)+len(r.Models.Removed) != 0 || r.Models.New != 18 {
				t.Errorf("index rows %+v, models %+v; want none changed, 18 models", r.IndexRows, r.Models)
			}

			// Sources: the sha256 of each archived upstream file.
			for _, name := range []string{"index.json", "commits.json", "tasks/lm-arena-chat.json", "tasks/gpqa.json"} {
				o, n := fileSHA(t, filepath.Join(sharedLeaderboard(t, tc.old), name)), fileSHA(t, filepath.Join(sharedLeaderboard(t, tc.new), name))
				var got *diff.SourceChange
				for i := range r.Sources {
					if r.Sources[i].Name == "leaderboard/"+name {
						got = &r.Sources[i]
					}
				}
				if got == nil || got.Old.SHA256 != o || got.New.SHA256 != n || (got.Status == "changed") != (o != n) {
					t.Errorf("source %s: %+v; want sha256 %s -> %s", name, got, o, n)
				}
			}

			// Upstream: compiled dates and commits.
			upstream := map[string]diff.ValueChange{}
			for _, v := range r.Upstream {
				upstream[v.Name] = v
			}
			for _, side := range []struct {
				version string
				get     func(diff.ValueChange) string
			}{{tc.old, func(v diff.ValueChange) string { return v.Old }}, {tc.new, func(v diff.ValueChange) string { return v.New }}} {
				var idx struct {
					LastUpdated string `json:"last_updated"`
				}
				var commits []struct {
					SHA string `json:"sha"`
				}
				b, _ := os.ReadFile(filepath.Join(sharedLeaderboard(t, side.version), "index.json"))
				json.Unmarshal(b, &idx)
				b, _ = os.ReadFile(filepath.Join(sharedLeaderboard(t, side.version), "commits.json"))
				json.Unmarshal(b, &commits)
				if got := side.get(upstream["compiled"]); got != idx.LastUpdated {
					t.Errorf("compiled %s; want %s", got, idx.LastUpdated)
				}
				if got := side.get(upstream["last commit"]); len(commits) == 0 || got != commits[0].SHA {
					t.Errorf("last commit %s; want %+v", got, commits)
				}
			}

			// The summary line, and the text report starts with it.
			wantSummary := tc.wantSummary
			if strings.Contains(wantSummary, "%d") {
				wantSummary = fmt.Sprintf(wantSummary, len(want))
			}
			if r.Summary != wantSummary || r.DataChanged != (len(want) > 0) {
				t.Errorf("summary %q (data changed %v); want %q", r.Summary, r.DataChanged, wantSummary)
			}
			var text bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(text.String(), wantSummary+"\n") {
				t.Errorf("the text report does not start with the summary:\n%s", text.String())
			}
			t.Logf("%s", text.String())
		})
	}
}

// upstreamOf names the upstream fields each published configuration field
// is computed from.
var upstreamOf = map[string][]string{
	"tensor_parallel": {"tensor_parallel"}, "data_parallel": {"data_parallel"}, "expert_parallel": {"expert_parallel"},
	"precision":              {"weight_precision"},
	"avg_requests_in_flight": {"avg_batch_size"}, "avg_running_batch": {"avg_batch_size"},
	"wh_per_million_output_tokens": {"energy_per_token_joules"}, "joules_per_output_token": {"energy_per_token_joules"},
	"median_itl_ms": {"median_itl_ms"}, "under_itl_deadline": {"median_itl_ms"},
	"p90_itl_ms": {"p90_itl_ms"}, "p95_itl_ms": {"p95_itl_ms"}, "p99_itl_ms": {"p99_itl_ms"},
	"tokens_per_second":     {"output_throughput_tokens_per_sec"},
	"gpu_power_watts_total": {"avg_power_watts"},
	"avg_output_tokens":     {"avg_output_len", "energy_per_request_joules", "energy_per_token_joules"},
}

// wantConfigChanges lists, by row id, "field old -> new" for every
// published field that changed and whose upstream fields changed.
func wantConfigChanges(t *testing.T, oldRaw, newRaw map[string][]rawRow, oldM, newM map[string]pubModel) map[string][]string {
	want := map[string][]string{}
	for slug, nm := range newM {
		om, ok := oldM[slug]
		if !ok {
			continue
		}
		oldCfg := map[string]map[string]any{}
		for _, c := range om.Configurations {
			oldCfg[c["row_id"].(string)] = c
		}
		for _, nc := range nm.Configurations {
			id := nc["row_id"].(string)
			oc, ok := oldCfg[id]
			if !ok {
				continue
			}
			or, nr := rawFor(oldRaw, om.ModelID, oc), rawFor(newRaw, nm.ModelID, nc)
			if or == nil || nr == nil {
				t.Fatalf("%s: no upstream row", id)
			}
			for f, ups := range upstreamOf {
				ov, nv := jtext(t, oc[f]), jtext(t, nc[f])
				if ov == nv {
					continue
				}
				moved := false
				for _, u := range ups {
					moved = moved || jtext(t, or[u]) != jtext(t, nr[u])
				}
				if moved {
					want[id] = append(want[id], fmt.Sprintf("%s %s -> %s", f, ov, nv))
				}
			}
			sort.Strings(want[id])
		}
	}
	return want
}

func fileSHA(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// sharedLeaderboard is the folder of a leaderboard version of ../shared.
func sharedLeaderboard(t *testing.T, version string) string {
	t.Helper()
	return shared.Path(t, "upstream", "leaderboard", version)
}
