package verify

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// TestSnapshotWithoutLicence: a snapshot whose manifest records no licence
// of its own (built by code that does not write the field) is still read
// (its manifest is in its canonical form), and this code's verify says
// what it lacks: the licence, by the checker, and manifest.json, by the
// rebuild, whose manifest records it. The rerun line names the code that
// built it, which verifies it.
func TestSnapshotWithoutLicence(t *testing.T) {
	dir := snaptest.CopySmallSnapshot(t)
	snaptest.EditManifest(t, dir, func(m *format.Manifest) { m.Licence = nil })
	if l := snaptest.Load(t, dir).Manifest.Licence; l != nil {
		t.Fatalf("the edited manifest still has a licence: %+v", l)
	}
	rep := verify(t, dir)
	var problems, diffs []string
	for _, p := range rep.Problems {
		problems = append(problems, p.File+" "+p.Field)
	}
	for _, d := range rep.Diffs {
		diffs = append(diffs, d.Path)
	}
	if diff := cmp.Diff([]string{"manifest.json licence"}, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{format.ManifestPath}, diffs); diff != "" {
		t.Errorf("files differing from the rebuild (-want +got):\n%s", diff)
	}
	if rep.OK || rep.Err() == nil {
		t.Error("verify passes a snapshot without the licence")
	}
	if !strings.Contains(rep.Rerun, "@"+snaptest.Generator.Revision+" verify ") {
		t.Errorf("no rerun with the code that built it: %q", rep.Rerun)
	}
}
