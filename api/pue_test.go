package api

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
)

// TestCarbonUnitsAndPUE: every carbon answer states the PUE it used and
// whether it was the default, and that embodied emissions are not
// included; each row is priced per billion output tokens, per request
// and per 1,000 requests, the per-request prices from the archived task
// file's energy_per_request_joules of the row priced, times the PUE.
func TestCarbonUnitsAndPUE(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	// The archived row behind qwen-3-32b's B200 index row, read here from
	// the snapshot's sources.
	var task struct {
		Configurations []struct {
			Nickname   string  `json:"nickname"`
			GPU        string  `json:"gpu_model"`
			NumGPUs    int     `json:"num_gpus"`
			MaxNumSeqs int     `json:"max_num_seqs"`
			Joules     float64 `json:"energy_per_request_joules"`
		} `json:"configurations"`
	}
	if err := json.Unmarshal(snapFile(t, "sources/leaderboard/tasks/lm-arena-chat.json"), &task); err != nil {
		t.Fatal(err)
	}
	joules := map[string]float64{}
	for _, c := range task.Configurations {
		if c.Nickname == "Qwen 3 32B" {
			joules["qwen-3-32b/"+c.GPU+"/"+strconv.Itoa(c.NumGPUs)+"/"+strconv.Itoa(c.MaxNumSeqs)] = c.Joules
		}
	}
	type row struct {
		RowID        string      `json:"row_id"`
		G            float64     `json:"g_co2e_per_kwh"`
		Kg           json.Number `json:"kg_co2e_per_billion_output_tokens"`
		WhPerRequest *float64    `json:"wh_per_request_unrounded"`
		Request      json.Number `json:"g_co2e_per_request"`
		Thousand     json.Number `json:"g_co2e_per_thousand_requests"`
	}
	var ans struct {
		PUE        json.Number `json:"pue"`
		PUEDefault bool        `json:"pue_default"`
		Units      []struct {
			Key, Per string
		} `json:"functional_units"`
		SCI struct {
			Energy, Embodied string
			Included         bool `json:"embodied_included"`
		} `json:"sci"`
		Rows []row
	}
	var got []string
	for _, q := range []string{"", "&pue=1", "&pue=1.5", "&pue=+3.0"} {
		a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&gpu=B200&grid=SAU&intensity=400"+q)
		if a.status != 200 {
			t.Fatalf("pue %q: status %d: %s", q, a.status, a.body)
		}
		dec := json.NewDecoder(strings.NewReader(a.body))
		dec.UseNumber()
		ans.Rows = nil
		if err := dec.Decode(&ans); err != nil {
			t.Fatal(err)
		}
		if ans.SCI.Included || !strings.Contains(ans.SCI.Embodied, "SCI's M") || !strings.Contains(ans.SCI.Embodied, "not included") ||
			!strings.Contains(ans.SCI.Energy, "PUE") {
			t.Errorf("pue %q: sci %+v", q, ans.SCI)
		}
		line := string(ans.PUE) + " " + strconv.FormatBool(ans.PUEDefault)
		for _, r := range ans.Rows {
			j, ok := joules[r.RowID]
			if !ok || r.WhPerRequest == nil || *r.WhPerRequest != j/3600 {
				t.Errorf("pue %q: %s: wh_per_request_unrounded %v, want the archived %v J / 3600", q, r.RowID, r.WhPerRequest, j)
			}
			line += " | " + string(r.Kg) + " " + string(r.Request) + " " + string(r.Thousand)
		}
		got = append(got, line)
	}
	// The B200 index row: 39.05033 Wh/M and 89.264 J per request, on Saudi
	// Arabia's 692 and a stated 400 g CO2e per kWh.
	want := []string{
		"1.0 true | 27.0 0.0172 17.2 | 15.6 0.0099 9.9",
		"1.0 false | 27.0 0.0172 17.2 | 15.6 0.0099 9.9",
		"1.5 false | 40.5 0.0257 25.7 | 23.4 0.0149 14.9",
		"3.0 false | 81.1 0.0515 51.5 | 46.9 0.0298 29.8",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prices by pue (-want +got):\n%s", diff)
	}
	var keys []string
	for _, u := range ans.Units {
		keys = append(keys, u.Key+" per "+u.Per)
	}
	if diff := cmp.Diff([]string{"kg_co2e_per_billion_output_tokens per billion output tokens", "g_co2e_per_request per request",
		"g_co2e_per_thousand_requests per 1,000 requests"}, keys); diff != "" {
		t.Errorf("functional_units (-want +got):\n%s", diff)
	}
}
