package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
)

// TestGPUCount: a running batch is matched among the configurations with
// the index row's GPU count unless a count is asked for; a count alone
// prices the lowest energy per token under the ITL deadline among its
// configurations; a count the model was not measured with names the
// counts it was.
func TestGPUCount(t *testing.T) {
	c, _ := open(t, catalogtest.Shared(t))
	s, _ := c.Snapshot(Latest)
	pm := s.Published["qwen-3-32b"]
	if pm.Best["H100"].NumGPUs != 2 {
		t.Fatalf("qwen-3-32b's H100 index row is %s; the cases below assume 2 x H100", pm.Best["H100"].RowID)
	}
	// The lowest published Wh/M under the deadline on 1 x H100.
	var lowest format.Config
	for _, cf := range pm.Configurations {
		if cf.GPU == "H100" && cf.NumGPUs == 1 && cf.UnderITLDeadline && (lowest.RowID == "" || cf.WhPerMillion < lowest.WhPerMillion) {
			lowest = cf
		}
	}
	n := func(i int) *int { return &i }
	for _, tc := range []struct {
		name string
		req  PriceRequest
		want []string // row ids, one per GPU
	}{
		// 29.3 on 1 x H100 is nearer to 30 than 31.9 on 2 x H100, but the
		// index row is 2 x H100.
		{"batch, the index row's count", PriceRequest{GPU: "H100", Batch: ptr(30)}, []string{"qwen-3-32b/H100/2/32"}},
		{"batch and a count", PriceRequest{GPU: "H100", Batch: ptr(30), NumGPUs: n(1)}, []string{"qwen-3-32b/H100/1/32"}},
		{"a count alone", PriceRequest{GPU: "h100", NumGPUs: n(1)}, []string{lowest.RowID}},
		{"the index row's count", PriceRequest{NumGPUs: n(2)}, []string{pm.Best["H100"].RowID}},
		{"each GPU with one", PriceRequest{NumGPUs: n(1)}, []string{pm.Best["B200"].RowID, lowest.RowID}},
		{"batch on each GPU", PriceRequest{Batch: ptr(30)}, []string{"qwen-3-32b/B200/1/32", "qwen-3-32b/H100/2/32"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Model, tc.req.Grids = "qwen-3-32b", []string{"NOR"}
			ans, err := s.Price(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range ans.Rows {
				got = append(got, r.RowID)
				if r.IndexRow != (pm.Best[r.GPU].RowID == r.RowID) {
					t.Errorf("%s: index_row %v", r.RowID, r.IndexRow)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if !cmp.Equal(ans.NumGPUs, tc.req.NumGPUs) {
				t.Errorf("num_gpus %v, want the request's %v", ans.NumGPUs, tc.req.NumGPUs)
			}
			if tc.req.NumGPUs != nil && !strings.Contains(ans.Selection, "with 1 GPU,") && !strings.Contains(ans.Selection, "with 2 GPUs,") {
				t.Errorf("the selection does not name the GPU count: %q", ans.Selection)
			}
		})
	}

	for _, tc := range []struct {
		name    string
		req     PriceRequest
		kind    string
		detail  string
		nearest []string
	}{
		{"a count not measured", PriceRequest{NumGPUs: n(4)}, NotFound, "qwen-3-32b was measured on 1 x B200, 1 x H100 and 2 x H100, not with 4 GPUs", []string{"1", "2"}},
		{"a count not measured on the GPU", PriceRequest{GPU: "B200", NumGPUs: n(2), Batch: ptr(8)}, NotFound, "qwen-3-32b on B200 was measured on 1 x B200, not with 2 GPUs", []string{"1"}},
		{"no count", PriceRequest{NumGPUs: n(0)}, Invalid, "num_gpus must be a whole number from 1 to 1024", nil},
		{"too many", PriceRequest{NumGPUs: n(1025)}, Invalid, "num_gpus must be a whole number from 1 to 1024", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Model, tc.req.Grids = "qwen-3-32b", []string{"NOR"}
			_, err := s.Price(tc.req)
			var e *Error
			if !errors.As(err, &e) || e.Kind != tc.kind || e.What != "num_gpus" || e.Detail != tc.detail || !cmp.Equal(e.Nearest, tc.nearest) {
				t.Errorf("error %#v, want %s about num_gpus: %q, nearest %q", err, tc.kind, tc.detail, tc.nearest)
			}
		})
	}
}
