package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/internal/sample"
)

// TestCarbonGridNames: carbon finds the area a code or name names, UK the
// United Kingdom and never Ukraine; on a snapshot whose grid.json lacks
// it, it says which place is missing, in the resolver's words with the
// argument's name, and suggests no other area.
func TestCarbonGridNames(t *testing.T) {
	endToEnd(t)
	withAll := buildOnGrids(t, sample.Ember())
	seven, _ := builtSnapshots(t)
	for _, tc := range catalogtest.GridNames {
		t.Run(tc.Query, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "carbon", "--json", "--snapshot", withAll, "--gpu", "B200", "qwen-3-32b", tc.Query)
			if code != exitOK {
				t.Fatalf("carbon %q: exit %d: %s", tc.Query, code, stderr)
			}
			var ans struct {
				Rows []struct{ Grid, ISO3 string }
			}
			if err := json.Unmarshal([]byte(stdout), &ans); err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, r := range ans.Rows {
				got = append(got, r.Grid+" "+r.ISO3)
			}
			if diff := cmp.Diff([]string{tc.Name + " " + tc.ISO3}, got); diff != "" {
				t.Errorf("carbon %q priced (-want +got):\n%s", tc.Query, diff)
			}

			code, _, stderr = runCLI(t, "carbon", "--snapshot", seven, "qwen-3-32b", tc.Query)
			first, _, _ := strings.Cut(stderr, "\n")
			want := fmt.Sprintf("greentokens: GRID %q: no value for %s in the 2024 grid", tc.Query, tc.Place)
			if code != exitUsage || first != want {
				t.Errorf("carbon %q on the seven grids: exit %d, %q; want %d, %q", tc.Query, code, first, exitUsage, want)
			}
		})
	}
	// A name of no place gets the nearest names, as the argument GRID.
	code, _, stderr := runCLI(t, "carbon", "--snapshot", seven, "qwen-3-32b", "Germny")
	if want := `greentokens: GRID "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"` + "\n"; code != exitUsage || !strings.HasPrefix(stderr, want) {
		t.Errorf("a mistyped name: exit %d, %q; want %q", code, stderr, want)
	}
}
