package build_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/validate"
)

// TestTaskProblemsReportedOnce: validate's checks share the archived task
// files, parsed once. A task file's parse problems are reported once (by
// the leaderboard check when the task is in the manifest's selection, else
// by the index check), before the index's "cannot be recomputed"; and the
// report is the same when the check runs again.
func TestTaskProblemsReportedOnce(t *testing.T) {
	t.Parallel() // independent of the other tests, and among the package's longest
	const gpqa = "sources/leaderboard/tasks/gpqa.json"
	const chat = "sources/leaderboard/tasks/lm-arena-chat.json"
	for _, tc := range []struct {
		name      string
		file      string
		selection []string // nil: as built (both tasks)
	}{
		// Read by both checks: reported once, by the leaderboard check.
		{"the chat task file", chat, nil},
		{"gpqa, in the selection", gpqa, nil},
		// Read by the index check only, which must report it.
		{"gpqa, not in the selection", gpqa, []string{format.PrimaryTask().ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := snaptest.CopySmallSnapshot(t)
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			snaptest.Relist(t, dir, tc.file, []byte(strings.Replace(string(data), `"max_num_seqs": `, `"max_num_seqs": "x", "was": `, 1)))
			if tc.selection != nil {
				snaptest.EditManifest(t, dir, func(m *format.Manifest) { m.Selection.Tasks = tc.selection })
			}
			first := reportOf(t, dir)
			parse, recompute := -1, -1
			for i, p := range first {
				switch {
				case p.File == tc.file && strings.Contains(p.Msg, `is "x", not a number`):
					if parse >= 0 {
						t.Errorf("the parse problem is reported twice: %v and %v", first[parse], p)
					}
					parse = i
				case p.File == validate.IndexPath && p.Msg == "cannot be recomputed: "+tc.file+" has the problems reported above":
					recompute = i
				}
			}
			if parse < 0 || recompute < 0 || parse > recompute {
				t.Fatalf("want the parse problem, then the index's \"cannot be recomputed\"; got positions %d, %d in\n%v", parse, recompute, first)
			}
			if diff := cmp.Diff(first, reportOf(t, dir)); diff != "" {
				t.Fatalf("the report changed between runs (-first +again):\n%s", diff)
			}
		})
	}
}

// reportOf returns validate.Check's problems of dir.
func reportOf(t *testing.T, dir string) []validate.Problem {
	t.Helper()
	var r *validate.Report
	if err := validate.Check(t.Context(), regfile.DirFS(dir)); !errors.As(err, &r) {
		t.Fatalf("validate.Check: %v, want a report", err)
	}
	return slices.Clone(r.Problems)
}
