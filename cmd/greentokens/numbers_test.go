package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/api"
	"github.com/leadgreen/greentokens/catalog"
)

// TestNumberSyntax sends the same numbers, as text, to the API's /carbon
// and to carbon's flags: both accept the same ones with the same answer,
// and refuse the same ones in the same words (catalog.ParseNumber's and
// ParseGPUCount's, or Price's for a number out of range), the command
// line's naming the flag and the text as given.
func TestNumberSyntax(t *testing.T) {
	endToEnd(t)
	snap, _ := builtSnapshots(t)
	cat, err := catalog.Open(filepath.Dir(snap), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(cat, api.Options{})
	flags := map[string]string{"batch": "--batch", "intensity": "--intensity", "num_gpus": "--num-gpus"}
	long := "8." + strings.Repeat("0", catalog.MaxNumberBytes-1) // one character too many
	const (
		batchRange     = "batch must be a number from 1e-06 to 100000"
		intensityRange = "intensity must be 0 or a number of g CO2e per kWh from 1e-06 to 2000"
		gpusRange      = "num_gpus must be a whole number from 1 to 1024"
	)
	for _, tc := range []struct {
		param, value string
		ok           bool
		// rangeDetail is the API's whole detail for a number out of
		// range, as it has always been.
		rangeDetail string
	}{
		{"batch", "8", true, ""},
		{"batch", " 8 ", true, ""},
		{"batch", ".5", true, ""},
		{"batch", "5.", true, ""},
		{"batch", "+3", true, ""},
		{"batch", "2e1", true, ""},
		{"batch", long[:catalog.MaxNumberBytes], true, ""},
		{"batch", long, false, ""},
		{"batch", "0x10", false, ""},
		{"batch", "0x1p4", false, ""},
		{"batch", "1_000", false, ""},
		{"batch", "Inf", false, ""},
		{"batch", "NaN", false, ""},
		{"batch", "1e400", false, ""},
		{"batch", "-0", false, batchRange}, // 0: below catalog.MinNumber
		{"batch", "1e-7", false, batchRange},
		{"batch", " 1e-7 ", false, batchRange},
		{"batch", "100001", false, batchRange},
		{"batch", "", false, ""},
		{"intensity", "692", true, ""},
		{"intensity", "-0", true, ""}, // 0, not -0
		{"intensity", "0x10", false, ""},
		{"intensity", "1_000", false, ""},
		{"intensity", "Inf", false, ""},
		{"intensity", "-Inf", false, ""},
		{"intensity", "NaN", false, ""},
		{"intensity", "1e-7", false, intensityRange},
		{"intensity", "-1", false, intensityRange},
		{"intensity", "2000.5", false, intensityRange},
		{"num_gpus", "2", true, ""},
		{"num_gpus", " 2 ", true, ""},
		{"num_gpus", "02", true, ""},
		{"num_gpus", "+2", true, ""},
		{"num_gpus", "0x2", false, ""},
		{"num_gpus", "0o2", false, ""},
		{"num_gpus", "2.0", false, ""},
		{"num_gpus", "2e0", false, ""},
		{"num_gpus", "1_0", false, ""},
		{"num_gpus", "0", false, gpusRange},
		{"num_gpus", "-2", false, gpusRange},
		{"num_gpus", "1025", false, gpusRange},
		{"num_gpus", "4", false, ""}, // a count not measured: no flag named
		{"num_gpus", strings.Repeat("0", catalog.MaxNumberBytes-1) + "1", true, ""},
		{"num_gpus", strings.Repeat("0", catalog.MaxNumberBytes) + "1", false, ""},
	} {
		t.Run(tc.param+"="+tc.value, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "carbon", "--json", "--snapshot", snap, "qwen-3-32b", "NOR", flags[tc.param], tc.value)
			q := url.Values{"model": {"qwen-3-32b"}, "grid": {"NOR"}, tc.param: {tc.value}}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/v1/"+seedDate+"/carbon?"+q.Encode(), nil))
			body := w.Body.String()

			if tc.ok {
				if code != exitOK || w.Code != http.StatusOK {
					t.Fatalf("command line: exit %d %s; API: %d %s; want both to answer", code, stderr, w.Code, body)
				}
				if diff := cmp.Diff(stdout, body+"\n"); diff != "" {
					t.Errorf("carbon --json and the API differ (-cli +api):\n%s", diff)
				}
				return
			}
			if code != exitUsage || w.Code/100 != 4 {
				t.Fatalf("command line: exit %d; API: %d; want both to refuse (exit %d, 4xx)", code, w.Code, exitUsage)
			}
			var p api.Problem
			if err := json.Unmarshal([]byte(body), &p); err != nil {
				t.Fatal(err)
			}
			// A number that is not one: the API's detail less its
			// "parameter batch " is the command line's reason, after the
			// flag's name. A number out of range: the API's detail is the
			// catalog's sentence, unchanged, and the command line's
			// reason after the flag's name. A count not measured: the
			// same sentence, no flag named.
			why, syntax := strings.CutPrefix(p.Detail, "parameter "+tc.param+" ")
			if tc.rangeDetail != "" && (syntax || p.Detail != tc.rangeDetail || p.Query != strings.TrimSpace(tc.value) || w.Code != http.StatusBadRequest) {
				t.Errorf("the API answers %d %+v; want 400 with the detail %q and the query %q", w.Code, p, tc.rangeDetail, strings.TrimSpace(tc.value))
			}
			want := "greentokens: " + why + "\n"
			if syntax || tc.rangeDetail != "" {
				want = fmt.Sprintf("greentokens: invalid argument %q for %q flag: %s\n", tc.value, flags[tc.param], why)
			}
			if p.Parameter != tc.param || !strings.HasPrefix(stderr, want) {
				t.Errorf("the API's problem about %q says %q; the command line says %q: want it to start %q", p.Parameter, p.Detail, stderr, want)
			}
		})
	}
}
