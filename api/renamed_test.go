package api

import (
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
)

// TestCarbonRenamedGrid: on a snapshot built from Ember's July 2026 layout,
// grid=Turkey finds Türkiye (TUR), which Ember renamed in that update.
func TestCarbonRenamedGrid(t *testing.T) {
	root := t.TempDir()
	catalogtest.BuildSmall(t, root, catalogtest.Date, "../transform/grid/testdata/renames-july.csv")
	url, _ := server(t, root)
	for _, q := range []string{"Turkey", "TUR", "T%C3%BCrkiye"} {
		a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&gpu=B200&grid="+q)
		if a.status != 200 || !strings.Contains(a.body, `"grid":"Türkiye"`) && !strings.Contains(a.body, `"grid": "Türkiye"`) {
			t.Errorf("grid=%s: status %d: %s", q, a.status, a.body)
		}
	}
}
