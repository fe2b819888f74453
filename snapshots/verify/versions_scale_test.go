//go:build scale

package verify

// The tests of make scale that read more than the repository's sample: the
// other leaderboard versions of ../shared.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/shared"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// sharedLeaderboard is the folder of a leaderboard version of ../shared.
func sharedLeaderboard(t *testing.T, version string) string {
	t.Helper()
	return shared.Path(t, "upstream", "leaderboard", version)
}

// TestEveryUpstreamVersion builds a snapshot from each of the eight
// leaderboard versions of ../shared/upstream/leaderboard, whose fields
// differ (avg_output_len appears on 2025-12-17, max_num_batched_tokens goes
// on 2026-02-13, parallel degrees are 0 before 2025-12-15), and checks what
// each must show.
func TestEveryUpstreamVersion(t *testing.T) {
	versions, err := os.ReadDir(shared.Path(t, "upstream", "leaderboard"))
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) != 8 {
		t.Fatalf("%d leaderboard versions in ../shared, want 8", len(versions))
	}
	outputs := map[string]map[string]string{}
	for _, v := range versions {
		t.Run(v.Name(), func(t *testing.T) {
			res, err := snaptest.Build(t, t.TempDir(), snaptest.SourceOf(sharedLeaderboard(t, v.Name())))
			if err != nil {
				t.Fatal(err)
			}
			// Each snapshot verifies: manifest, schemas, and a byte-identical rebuild.
			if rep := verify(t, res.Dir); !rep.OK {
				var b strings.Builder
				rep.WriteText(&b)
				t.Errorf("the snapshot does not verify:\n%s", b.String())
			}
			models, _ := filepath.Glob(filepath.Join(res.Dir, "models", "*.json"))
			if len(models) != 18 {
				t.Errorf("%d model files, want 18", len(models))
			}
			ev := res.Manifest.Evidence
			// Committed after midnight UTC: 2025-11-30T03:47Z and 2025-12-18T02:12Z.
			wantConflict := v.Name() == "2025-11-29-9fa07d1" || v.Name() == "2025-12-17-281c69e"
			if (ev.Conflict != "") != wantConflict {
				t.Errorf("evidence %+v; want a conflict: %v", ev, wantConflict)
			}
			if ev.Compiled != v.Name()[:len("2006-01-02")] {
				t.Errorf("compiled %s; want the index date of %s", ev.Compiled, v.Name())
			}
			outs := snaptest.Tree(t, res.Dir)
			for k := range outs {
				if strings.HasPrefix(k, "sources/") || k == format.ManifestPath {
					delete(outs, k)
				}
			}
			outputs[v.Name()] = outs
		})
	}
	// The three 2026-02-13 versions hold the same data in other formatting.
	a := outputs["2026-02-13-0ea52b6"]
	for _, other := range []string{"2026-02-13-f76e8d3", "2026-02-13-82e15a4"} {
		if diff := cmp.Diff(a, outputs[other]); diff != "" {
			t.Errorf("2026-02-13-0ea52b6 and %s give different outputs:\n%s", other, diff)
		}
	}
}
