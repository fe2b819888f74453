package jsondecode

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type doc struct {
	Version string  `json:"version"`
	Rows    []row   `json:"rows"`
	Scale   float64 `json:"scale"`
}

type row struct {
	Slug string `json:"slug"`
	N    int    `json:"n"`
}

// TestCheckAgreesWithUnmarshal: Check fails exactly where json.Unmarshal
// fails, naming the field, list entry and all.
func TestCheckAgreesWithUnmarshal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" when it decodes
	}{
		{`{"version": "1", "rows": [{"slug": "a", "n": 1}], "scale": 2}`, ""},
		{`{"VERSION": "1", "extra": [1, 2], "rows": null}`, ""},
		{`{"rows": [{"slug": "a", "n": 1}, {"slug": "b", "n": "two"}]}`, "field rows[1]"},
		{`{"scale": "big"}`, "field scale"},
		{`{"rows": {"slug": "a"}}`, `field "rows": a JSON object where an array belongs`},
		{`[1]`, "cannot unmarshal array"},
		{`{"version": "1"} {}`, "after the top-level value"},
		{`{"version": "1"`, "EOF"},
	} {
		err := Check(strings.NewReader(tc.in), reflect.TypeFor[doc]())
		var d doc
		uerr := json.Unmarshal([]byte(tc.in), &d)
		switch {
		case tc.want == "" && (err != nil || uerr != nil):
			t.Errorf("%s: Check %v, Unmarshal %v; want both to decode it", tc.in, err, uerr)
		case tc.want != "" && (err == nil || uerr == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: Check %v, Unmarshal %v; want both to fail, Check saying %q", tc.in, err, uerr, tc.want)
		}
	}
}
