package format

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

// The published layout of the comparisons, as structs: what their
// MarshalJSON must write, byte for byte.
type publishedGPUComparison struct {
	Slug                string `json:"slug"`
	H100                RowRef `json:"h100"`
	B200                RowRef `json:"b200"`
	EnergyPerTokenRatio Float  `json:"energy_per_token_ratio"`
}

type publishedTaskComparison struct {
	Slug                   string  `json:"slug"`
	GPU                    string  `json:"gpu"`
	TextConversation       TaskRow `json:"text_conversation"`
	ProblemSolving         TaskRow `json:"problem_solving"`
	EnergyPerResponseRatio Float   `json:"energy_per_response_ratio"`
	EnergyPerTokenRatio    Float   `json:"energy_per_token_ratio"`
}

func comparisons() ([]GPUComparison, []TaskComparison, []publishedGPUComparison, []publishedTaskComparison) {
	h := RowRef{RowID: "qwen-3-32b/H100/2/64", NumGPUs: 2, MaxNumSeqs: 64, AvgRunningBatch: 60.8, WhPerMillion: 71.2,
		JoulesPerToken: 0.2563141, MedianITL: 47.3, TokensPerSecond: 2399.5, GPUPowerWatts: 615, AvgOutputTokens: 646}
	b := RowRef{RowID: "qwen-3-32b/B200/1/128", NumGPUs: 1, MaxNumSeqs: 128, AvgRunningBatch: 120.0, WhPerMillion: 39.05,
		JoulesPerToken: 0.140581, MedianITL: 41.0, TokensPerSecond: 5000.0, GPUPowerWatts: 702, AvgOutputTokens: 640}
	chat := TaskRow{RowRef: b, JoulesPerResponse: 89.9}
	gpqa := TaskRow{RowRef: RowRef{RowID: "qwen-3-32b/gpqa/B200/1/64/r2", NumGPUs: 1, MaxNumSeqs: 64, AvgRunningBatch: 50.5,
		WhPerMillion: 60.0, JoulesPerToken: 0.216, MedianITL: 30.5, TokensPerSecond: 1500.0, GPUPowerWatts: 600, AvgOutputTokens: 6000}, JoulesPerResponse: 1296.0}
	g := []GPUComparison{{Slug: "qwen-3-32b", Over: GPURow{"h100", h}, Under: GPURow{"b200", b}, EnergyPerTokenRatio: 1.82}}
	t := []TaskComparison{{Slug: "qwen-3-32b", GPU: "B200", Base: TaskSide{"lm-arena-chat", chat}, Other: TaskSide{"gpqa", gpqa},
		EnergyPerResponseRatio: 14.4, EnergyPerTokenRatio: 1.54}}
	pg := []publishedGPUComparison{{Slug: "qwen-3-32b", H100: h, B200: b, EnergyPerTokenRatio: 1.82}}
	pt := []publishedTaskComparison{{Slug: "qwen-3-32b", GPU: "B200", TextConversation: chat, ProblemSolving: gpqa,
		EnergyPerResponseRatio: 14.4, EnergyPerTokenRatio: 1.54}}
	return g, t, pg, pt
}

// TestComparisonsPublishedBytes: the comparisons print as the structs of
// their published keys do, through Marshal and through index.json's list
// encoder, and read back to what was written, with encoding/json and with
// the strict v2 decoder the page renderer uses.
func TestComparisonsPublishedBytes(t *testing.T) {
	g, tc, pg, pt := comparisons()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"gpu_comparisons", g, pg},
		{"task_comparisons", tc, pt},
		{"index", &IndexFile{GPUComparisons: g, TaskComparisons: tc}, struct {
			G []publishedGPUComparison  `json:"gpu_comparisons"`
			T []publishedTaskComparison `json:"task_comparisons"`
		}{pg, pt}},
	} {
		got, err := Marshal(c.got)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Marshal(c.want)
		if c.name == "index" {
			var b bytes.Buffer
			if err := c.got.(*IndexFile).Encode(&b); err != nil {
				t.Fatal(err)
			}
			got = b.Bytes()
			for _, key := range []string{`"gpu_comparisons": [`, `"task_comparisons": [`} {
				i, j := bytes.Index(got, []byte(key)), bytes.Index(want, []byte(key))
				k, l := bytes.Index(got[i:], []byte("\n  ]")), bytes.Index(want[j:], []byte("\n  ]"))
				if diff := cmp.Diff(string(want[j:j+l]), string(got[i:i+k])); diff != "" {
					t.Errorf("%s: Encode (-want +got):\n%s", key, diff)
				}
			}
			continue
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-published +got):\n%s", c.name, diff)
		}
	}

	gb, _ := Marshal(g)
	tb, _ := Marshal(tc)
	var g1, g2 []GPUComparison
	var t1, t2 []TaskComparison
	for _, err := range []error{json.Unmarshal(gb, &g1), json.Unmarshal(tb, &t1),
		jsonv2.Unmarshal(gb, &g2, jsonv2.RejectUnknownMembers(true)), jsonv2.Unmarshal(tb, &t2, jsonv2.RejectUnknownMembers(true))} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([][]GPUComparison{g, g}, [][]GPUComparison{g1, g2}); diff != "" {
		t.Errorf("GPU comparisons read back (-written +read):\n%s", diff)
	}
	if diff := cmp.Diff([][]TaskComparison{tc, tc}, [][]TaskComparison{t1, t2}); diff != "" {
		t.Errorf("task comparisons read back (-written +read):\n%s", diff)
	}
}

// TestComparisonsRefused: what a comparison cannot be is an error, written
// or read.
func TestComparisonsRefused(t *testing.T) {
	g, tc, _, _ := comparisons()
	same := g[0]
	same.Under.Key = "h100"
	other := tc[0]
	other.Other.Task = "image-chat"
	swapped := tc[0]
	swapped.Base, swapped.Other = swapped.Other, swapped.Base
	for name, v := range map[string]any{"one GPU twice": same, "a task index.json does not compare": other, "the primary task second": swapped} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("%s: written", name)
		}
	}
	for _, c := range []struct{ name, data, want string }{
		{"a third GPU", `{"slug": "m", "h100": {}, "b200": {}, "a100": {}}`, `a third GPU "a100"`},
		{"a key twice", `{"slug": "m", "slug": "n"}`, `key "slug" given twice`},
		{"an unknown field in a row", `{"slug": "m", "h100": {"row": 1}}`, `unknown field "row"`},
	} {
		var v GPUComparison
		if err := json.Unmarshal([]byte(c.data), &v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("GPU comparison, %s: %v; want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct{ name, data, want string }{
		{"an unknown key", `{"slug": "m", "image_chat": {}}`, `unknown key "image_chat"`},
		{"a ratio of another name", `{"slug": "m", "ratio": 1}`, `unknown key "ratio"`},
	} {
		var v TaskComparison
		if err := json.Unmarshal([]byte(c.data), &v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("task comparison, %s: %v; want %q", c.name, err, c.want)
		}
	}
}
