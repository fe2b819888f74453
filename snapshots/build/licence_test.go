package build_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
)

// TestManifestRecordsTheIndexLicence: the manifest of the seeds' release
// names the index's own licence, CC BY 4.0, with the attribution the
// published seed page gives under "Cite as".
func TestManifestRecordsTheIndexLicence(t *testing.T) {
	m := snaptest.Load(t, snaptest.SeedSnapshot(t)).Manifest
	page := string(sample.Read(t, "seeds", "qwen-3-32b.page.txt"))
	_, cite, ok := strings.Cut(page, "\nCite as. ")
	cite, _, ok2 := strings.Cut(cite, " Underlying data: ")
	if !ok || !ok2 {
		t.Fatal("the seed page has no \"Cite as. ... Underlying data:\" paragraph")
	}
	want := &format.Licence{
		ID: "CC-BY-4.0", Name: "Creative Commons Attribution 4.0 International", URL: "https://creativecommons.org/licenses/by/4.0/",
		Scope:       "the files this snapshot derives (every file listed in outputs) and this manifest; each archived upstream file under sources/ keeps its producer's licence (its entry's licence in sources)",
		Attribution: cite,
	}
	if diff := cmp.Diff(want, m.Licence); diff != "" {
		t.Errorf("manifest.json licence (-want +got):\n%s", diff)
	}
}
