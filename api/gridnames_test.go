package api

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
)

// TestCarbonGridNames: /carbon's grid finds the area a code or name names,
// UK the United Kingdom and never Ukraine; where grid.json has no value for
// the place, a 404 says which place, in the resolver's words under the
// parameter's name, with no nearest names.
func TestCarbonGridNames(t *testing.T) {
	withAll, _ := server(t, catalogtest.SharedReal(t))
	seven, _ := server(t, catalogtest.Shared(t))
	for _, tc := range catalogtest.GridNames {
		t.Run(tc.Query, func(t *testing.T) {
			path := "/v1/latest/carbon?model=qwen-3-32b&gpu=B200&grid=" + url.QueryEscape(tc.Query)
			a := get(t, withAll+path)
			if a.status != 200 {
				t.Fatalf("%s: %d %s", path, a.status, a.body)
			}
			var ans struct {
				Rows []struct{ Grid, ISO3 string }
			}
			if err := json.Unmarshal([]byte(a.body), &ans); err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, r := range ans.Rows {
				got = append(got, r.Grid+" "+r.ISO3)
			}
			if diff := cmp.Diff([]string{tc.Name + " " + tc.ISO3}, got); diff != "" {
				t.Errorf("%s priced (-want +got):\n%s", path, diff)
			}

			a = get(t, seven+path)
			p := problemOf(t, a)
			want := Problem{Type: ProblemType + "not-found", Title: "Not Found", Status: 404, Instance: path,
				Detail:    fmt.Sprintf("grid %q: no value for %s in the 2024 grid", tc.Query, tc.Place),
				Parameter: "grid", Query: tc.Query}
			if diff := cmp.Diff(want, p); diff != "" || a.status != 404 {
				t.Errorf("%s on the seven grids: %d (-want +got):\n%s", path, a.status, diff)
			}
		})
	}
	path := "/v1/latest/carbon?model=qwen-3-32b&grid=Germny"
	want := Problem{Type: ProblemType + "not-found", Title: "Not Found", Status: 404, Instance: path,
		Detail:    `grid "Germny": no area of that name or code in the 2024 grid; nearest: "Germany"`,
		Parameter: "grid", Query: "Germny", Nearest: []string{"Germany"}}
	if diff := cmp.Diff(want, problemOf(t, get(t, seven+path))); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}
