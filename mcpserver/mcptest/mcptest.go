// Package mcptest drives every tool of the Green Tokens MCP server through
// an MCP client session, whatever the transport (in memory, the stdio
// binary, streamable HTTP), against the test snapshot of
// catalog/catalogtest.
package mcptest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools are the server's tools, by name.
var Tools = []string{"get_history", "get_model", "list_grids", "list_models", "list_tasks", "price_carbon"}

// Check calls every tool through cs, with good and bad input, and checks
// the answers against the snapshot of catalogtest.Date under root (the
// seven-grid snapshot).
func Check(t *testing.T, cs *mcp.ClientSession, root string) {
	t.Helper()
	ctx := context.Background()
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "500 ms") || !strings.Contains(ins, "GPU energy only") || !strings.Contains(ins, "lifecycle") {
		t.Errorf("instructions do not say what the figures are:\n%s", ins)
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("tool %s lacks an input or output schema or a description", tool.Name)
		}
		// A title for people, the same in the annotations.
		if tool.Title == "" || tool.Annotations == nil || tool.Annotations.Title != tool.Title {
			t.Errorf("tool %s: title %q, annotations %+v; want a title, and the same in the annotations", tool.Name, tool.Title, tool.Annotations)
		}
		// Every tool only reads: the same call gives the same answer.
		if a := tool.Annotations; a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint ||
			a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("tool %s annotations %+v; want read-only, idempotent, not destructive, closed world", tool.Name, a)
		}
	}
	slices.Sort(names)
	if diff := cmp.Diff(Tools, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	// The input schemas come from the typed structs: price_carbon's; and
	// list_models and get_model list the values of detail.
	for _, tool := range lt.Tools {
		var in struct {
			Properties map[string]struct{ Enum []string }
		}
		decode(t, tool.InputSchema, &in)
		if d, ok := in.Properties["detail"]; (tool.Name == "list_models" || tool.Name == "get_model" || tool.Name == "get_history") && (!ok || !cmp.Equal(d.Enum, []string{"compact", "full"})) {
			t.Errorf("%s: detail %+v in the input schema; want the values compact and full", tool.Name, d)
		}
	}
	for _, tool := range lt.Tools {
		if tool.Name != "price_carbon" {
			continue
		}
		var in struct {
			Required   []string
			Properties map[string]struct{ Type any }
		}
		decode(t, tool.InputSchema, &in)
		var props []string
		for p := range in.Properties {
			props = append(props, p)
		}
		slices.Sort(props)
		want := []string{"gpu", "grid_intensity", "grids", "model", "num_gpus", "pue", "running_batch", "snapshot", "task"}
		if !cmp.Equal(in.Required, []string{"model"}) || !cmp.Equal(props, want) {
			t.Errorf("price_carbon input schema: required %v, properties %v; want [model], %v", in.Required, props, want)
		}
	}

	t.Run("list_models", func(t *testing.T) { checkListModels(t, cs) })

	t.Run("get_model", func(t *testing.T) { checkGetModel(t, cs, root) })

	t.Run("list_grids", func(t *testing.T) { checkListGrids(t, cs) })

	t.Run("price_carbon", func(t *testing.T) { checkPriceCarbon(t, cs) })

	t.Run("tool errors", func(t *testing.T) { checkToolErrors(t, cs) })

	t.Run("tasks", func(t *testing.T) { checkTasks(t, cs, root) })
}

// checkTasks: list_tasks lists every task; list_models, get_model and
// price_carbon answer for a diffusion task, in its unit, compact by
// default; get_model's full text is the task model file byte for byte.
func checkTasks(t *testing.T, cs *mcp.ClientSession, root string) {
	var tasks struct {
		Tasks []struct {
			ID     string `json:"id"`
			Unit   string `json:"unit"`
			Models int    `json:"models"`
		} `json:"tasks"`
	}
	decodeText(t, callRaw(t, cs, "list_tasks", map[string]any{}), &tasks)
	var ids []string
	for _, tk := range tasks.Tasks {
		ids = append(ids, tk.ID)
	}
	if want := []string{"lm-arena-chat", "gpqa", "sourcegraph-fim", "image-chat", "video-chat", "text-to-image", "text-to-video"}; !cmp.Equal(ids, want) {
		t.Errorf("list_tasks: %v, want %v", ids, want)
	}
	var list struct {
		Task   string `json:"task"`
		Models []struct {
			Slug      string           `json:"slug"`
			ModelID   string           `json:"model_id"`
			IndexRows []map[string]any `json:"index_rows"`
		} `json:"models"`
	}
	decodeText(t, callRaw(t, cs, "list_models", map[string]any{"task": "Text to Image"}), &list)
	if list.Task != "text-to-image" || len(list.Models) != 7 || list.Models[0].ModelID != "" || list.Models[0].IndexRows[0]["wh_per_image"] == nil || list.Models[0].IndexRows[0]["row_id"] != nil {
		t.Errorf("compact list_models of text-to-image: %+v", list)
	}
	decodeText(t, callRaw(t, cs, "list_models", map[string]any{"task": "text-to-image", "detail": "full"}), &list)
	if len(list.Models) != 7 || list.Models[0].ModelID == "" || list.Models[0].IndexRows[0]["row_id"] == nil {
		t.Errorf("full list_models of text-to-image: %+v", list)
	}
	var brief struct {
		Path  string `json:"path"`
		Brief struct {
			Task           string `json:"task"`
			Configurations int    `json:"configurations"`
		} `json:"brief"`
	}
	decodeText(t, callRaw(t, cs, "get_model", map[string]any{"model": "Wan 2.1 14B", "task": "text-to-video"}), &brief)
	if brief.Path != "tasks/text-to-video/models/wan-2-1-14b.json" || brief.Brief.Task != "text-to-video" || brief.Brief.Configurations == 0 {
		t.Errorf("compact get_model of text-to-video: %+v", brief)
	}
	full := callRaw(t, cs, "get_model", map[string]any{"model": "wan-2-1-14b", "task": "text-to-video", "detail": "full"})
	b, err := os.ReadFile(filepath.Join(root, catalogtest.Date, "tasks", "text-to-video", "models", "wan-2-1-14b.json"))
	if err != nil || text(full) != string(b) {
		t.Errorf("full get_model of text-to-video is not the file byte for byte (%v)", err)
	}
	var carbon struct {
		Task string           `json:"task"`
		Rows []map[string]any `json:"rows"`
	}
	decodeText(t, callRaw(t, cs, "price_carbon", map[string]any{"model": "flux-1-dev", "task": "text-to-image", "grids": []string{"NOR"}}), &carbon)
	if carbon.Task != "text-to-image" || len(carbon.Rows) != 2 || carbon.Rows[0]["g_co2e_per_image"] == nil || carbon.Rows[0]["kg_co2e_per_thousand_images"] == nil {
		t.Errorf("price_carbon of text-to-image: %+v", carbon)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "price_carbon", Arguments: map[string]any{"model": "flux-1-dev", "task": "text-to-audio", "grids": []string{"NOR"}}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "no task") {
		t.Errorf("price_carbon of an unknown task: %v, %s", err, text(res))
	}
}

func checkListModels(t *testing.T, cs *mcp.ClientSession) {
	var out struct {
		Snapshot string
		Models   []struct {
			Slug      string
			ModelID   string       `json:"model_id"`
			IndexRows []indexRowOf `json:"index_rows"`
		}
	}
	// Compact by default: each index row in one figure, no row ids.
	compact := callRaw(t, cs, "list_models", map[string]any{})
	decodeText(t, compact, &out)
	if out.Snapshot != catalogtest.Date || len(out.Models) != 18 {
		t.Fatalf("snapshot %s, %d models", out.Snapshot, len(out.Models))
	}
	for _, m := range out.Models {
		if m.ModelID != "" || len(m.IndexRows) == 0 || m.IndexRows[0].RowID != "" {
			t.Errorf("compact list_models gives %s's model id or row ids: %+v", m.Slug, m)
		}
		if m.Slug == "qwen-3-32b" && !cmp.Equal(m.IndexRows, []indexRowOf{{"B200", 1, "", "39.05"}, {"H100", 2, "", "63.47"}}) {
			t.Errorf("qwen-3-32b index rows %+v", m.IndexRows)
		}
	}
	full := callRaw(t, cs, "list_models", map[string]any{"detail": "full"})
	decodeText(t, full, &out)
	for _, m := range out.Models {
		if m.Slug == "qwen-3-32b" && (m.ModelID != "Qwen/Qwen3-32B" || len(m.IndexRows) != 2 || m.IndexRows[0].RowID != "qwen-3-32b/B200/1/384") {
			t.Errorf("full list_models: qwen-3-32b %+v", m)
		}
	}
	// The compact answer fits an assistant's context; the full one is
	// the HTTP API's /models.
	if c, f := size(t, compact), size(t, full); c > MaxCompactListModels || 2*c > f {
		t.Errorf("list_models answers %d bytes compact, %d full; want at most %d, and under half the full one", c, f, MaxCompactListModels)
	}
}

func checkGetModel(t *testing.T, cs *mcp.ClientSession, root string) {
	file, err := os.ReadFile(filepath.Join(root, catalogtest.Date, "models", "qwen-3-32b.json"))
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(file)
	res := callRaw(t, cs, "get_model", map[string]any{"model": "Qwen 3 32B", "snapshot": catalogtest.Date, "detail": "full"})
	if text(res) != string(file) {
		t.Errorf("get_model's text is not the published file byte for byte")
	}
	var out struct {
		Path, SHA256 string
		Model        struct{ Slug string }
	}
	decode(t, res.StructuredContent, &out)
	if out.Path != "models/qwen-3-32b.json" || out.SHA256 != hex.EncodeToString(h[:]) || out.Model.Slug != "qwen-3-32b" {
		t.Errorf("get_model: %+v", out)
	}

	// Compact by default: what the model is, its index rows, the
	// source to cite, and the file they are read from.
	compact := callRaw(t, cs, "get_model", map[string]any{"model": "Qwen 3 32B"})
	var brief struct {
		Snapshot, Path, SHA256 string
		Model                  *struct{} `json:"model"`
		Brief                  struct {
			Slug           string
			Configurations int
			IndexRows      []indexRowOf `json:"index_rows"`
			Source         struct{ Licence, Cite string }
		}
	}
	decodeText(t, compact, &brief)
	b := brief.Brief
	if brief.Snapshot != catalogtest.Date || brief.Path != out.Path || brief.SHA256 != out.SHA256 || brief.Model != nil ||
		b.Slug != "qwen-3-32b" || b.Configurations != 22 || len(b.IndexRows) != 2 || b.IndexRows[1].RowID != "qwen-3-32b/H100/2/256" ||
		b.Source.Licence == "" || b.Source.Cite == "" {
		t.Errorf("compact get_model: %+v", brief)
	}
	if c, f := size(t, compact), size(t, res); c > MaxCompactGetModel || 10*c > f {
		t.Errorf("get_model answers %d bytes compact, %d full; want at most %d, and under a tenth of the full one", c, f, MaxCompactGetModel)
	}
}

func checkListGrids(t *testing.T, cs *mcp.ClientSession) {
	var out struct {
		Year  int
		Areas []struct {
			Name  string
			ISO3  string
			Year  int
			Value json.Number `json:"g_co2e_per_kwh"`
		}
	}
	call(t, cs, "list_grids", map[string]any{"query": "NOR"}, &out)
	if out.Year != 2024 || len(out.Areas) != 1 || out.Areas[0].Name != "Norway" || out.Areas[0].Year != 2024 || out.Areas[0].Value != "30.0" {
		t.Errorf("list_grids NOR: %+v", out)
	}
	call(t, cs, "list_grids", map[string]any{}, &out)
	if len(out.Areas) != 7 {
		t.Errorf("list_grids: %d areas, want 7", len(out.Areas))
	}
}

func checkPriceCarbon(t *testing.T, cs *mcp.ClientSession) {
	var out struct {
		Snapshot string
		Rows     []struct {
			GPU      string      `json:"gpu"`
			RowID    string      `json:"row_id"`
			Grid     string      `json:"grid"`
			GridYear *int        `json:"grid_year"`
			Kg       json.Number `json:"kg_co2e_per_billion_output_tokens"`
		}
		Files []struct{ Path, SHA256 string }
	}
	call(t, cs, "price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"SAU", "Norway"}, "gpu": "B200", "grid_intensity": 692}, &out)
	var got []string
	for _, r := range out.Rows {
		y := 0
		if r.GridYear != nil {
			y = *r.GridYear
		}
		got = append(got, r.GPU+" "+r.Grid+" "+string(r.Kg)+" "+strconv.Itoa(y))
	}
	want := []string{"B200 Saudi Arabia 27.0 2024", "B200 Norway 1.2 2024", "B200 stated 27.0 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("price_carbon (-want +got):\n%s", diff)
	}
	if out.Snapshot != catalogtest.Date || len(out.Files) < 3 {
		t.Errorf("snapshot %q, files %v", out.Snapshot, out.Files)
	}
	checkPUE(t, cs)
	call(t, cs, "price_carbon", map[string]any{"model": "Qwen 3 32B", "grids": []string{"IND"}, "running_batch": 1000}, &out)
	if len(out.Rows) != 2 || out.Rows[0].RowID == "" {
		t.Errorf("running_batch 1000: %+v", out.Rows)
	}
	// A number of catalog.MaxNumberBytes characters is read, as the API
	// and the command line read it.
	call(t, cs, "price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "gpu": "H100",
		"num_gpus": json.RawMessage("2." + strings.Repeat("0", catalog.MaxNumberBytes-2)), "running_batch": json.RawMessage("8." + strings.Repeat("0", catalog.MaxNumberBytes-2))}, &out)
	if len(out.Rows) != 1 || !strings.HasPrefix(out.Rows[0].RowID, "qwen-3-32b/H100/2/") {
		t.Errorf("num_gpus 2 and running_batch 8 in %d characters each: %+v", catalog.MaxNumberBytes, out.Rows)
	}
}

// checkPUE: price_carbon states the PUE it used and whether it was the
// default, prices the energy times it, and says embodied emissions are
// not included.
func checkPUE(t *testing.T, cs *mcp.ClientSession) {
	type answer struct {
		PUE        json.Number `json:"pue"`
		PUEDefault bool        `json:"pue_default"`
		SCI        struct {
			Embodied         string `json:"embodied"`
			EmbodiedIncluded bool   `json:"embodied_included"`
		} `json:"sci"`
		Rows []struct {
			Kg       json.Number `json:"kg_co2e_per_billion_output_tokens"`
			Request  json.Number `json:"g_co2e_per_request"`
			Thousand json.Number `json:"g_co2e_per_thousand_requests"`
		}
	}
	var got []string
	for _, pue := range []any{nil, 2} {
		args := map[string]any{"model": "qwen-3-32b", "grids": []string{"SAU"}, "gpu": "B200"}
		if pue != nil {
			args["pue"] = pue
		}
		var out answer
		call(t, cs, "price_carbon", args, &out)
		if len(out.Rows) != 1 || out.SCI.EmbodiedIncluded || !strings.Contains(out.SCI.Embodied, "not included") {
			t.Errorf("price_carbon pue %v: %+v", pue, out)
			continue
		}
		r := out.Rows[0]
		got = append(got, fmt.Sprint(out.PUE, " ", out.PUEDefault, " ", r.Kg, " ", r.Request, " ", r.Thousand))
	}
	// The B200 index row (max_num_seqs 384): 39.05033 Wh/M and 89.264 J
	// per request upstream, on Saudi Arabia's 692 g CO2e per kWh.
	want := []string{"1.0 true 27.0 0.0172 17.2", "2.0 false 54.0 0.0343 34.3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("price_carbon with and without pue (-want +got):\n%s", diff)
	}
}

func checkToolErrors(t *testing.T, cs *mcp.ClientSession) {
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get_model", map[string]any{"model": "qwen-3-33b"}, `"qwen-3-32b"`},
		{"get_model", map[string]any{"model": "qwen-3-32b", "detail": "all"}, "detail"},
		{"list_models", map[string]any{"detail": "Full"}, "detail"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "num_gpus": 3}, "1 x B200, 1 x H100 and 2 x H100"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "num_gpus": 0}, "num_gpus"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"Germny"}}, `"Germany"`},
		{"price_carbon", map[string]any{"model": "qwen-3-33b"}, `"qwen-3-32b"`},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "gpu": "A100"}, "A100"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b"}, "list_grids"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{}}, "grid_intensity"},
		// A number out of range is named as the tool's argument.
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "running_batch": -4}, "running_batch must be a number from 1e-06 to 100000"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "running_batch": 1e-7}, "running_batch must be a number from 1e-06 to 100000"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grid_intensity": -1}, "grid_intensity must be 0 or a number of g CO2e per kWh from 1e-06 to 2000"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grid_intensity": 1e-7}, "grid_intensity must be 0 or a number of g CO2e per kWh from 1e-06 to 2000"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "num_gpus": 1025}, "num_gpus must be a whole number from 1 to 1024"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "running_batch": "many"}, "running_batch"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "pue": 0.99}, "pue must be a number from 1 to 3"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "pue": 3.5}, "pue must be a number from 1 to 3"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "pue": "1.2"}, "pue"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "pue": json.RawMessage("1." + strings.Repeat("0", catalog.MaxNumberBytes-1))},
			`pue "1.000`},
		// A number's text is bounded as the API's and the command line's
		// are: 2 written in 33 characters is no GPU count.
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "num_gpus": json.RawMessage("2." + strings.Repeat("0", catalog.MaxNumberBytes-1))},
			`num_gpus "2.` + strings.Repeat("0", catalog.MaxNumberBytes-1) + `" is over 32 characters`},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"IND"}, "running_batch": json.RawMessage("8." + strings.Repeat("0", catalog.MaxNumberBytes-1))},
			"running_batch \"8.000"},
		{"price_carbon", map[string]any{"model": "qwen-3-32b", "grid_intensity": json.RawMessage("692." + strings.Repeat("0", catalog.MaxNumberBytes-3))},
			"grid_intensity \"692.000"},
		{"list_models", map[string]any{"snapshot": "2026-09-28"}, `"` + catalogtest.Date + `"`},
		{"list_grids", map[string]any{"snapshot": "../etc"}, "no snapshot"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Errorf("%s %v: a protocol error (%v), want a tool error", tc.tool, tc.args, err)
			continue
		}
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s %v: isError %v, text %q; want a tool error naming %s", tc.tool, tc.args, res.IsError, text(res), tc.want)
		}
	}
}

// CheckFallback checks, through cs, the answers on the snapshot of
// catalogtest.SharedReal (the sample's Ember file pinned to 2024): a
// fallback area carries its earlier year and fallback true, a
// reference-year area 2024 and fallback false, in list_grids and
// price_carbon alike, and price_carbon's output schema has the field.
func CheckFallback(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range lt.Tools {
		if tool.Name != "price_carbon" {
			continue
		}
		// One of the token and the diffusion answer: each with the field.
		var out struct {
			OneOf []struct {
				Properties struct {
					Rows struct {
						Items struct {
							Properties map[string]any
						}
					}
				}
			}
		}
		decode(t, tool.OutputSchema, &out)
		if len(out.OneOf) != 2 {
			t.Errorf("price_carbon's output schema is one of %d answers, want 2", len(out.OneOf))
		}
		for _, o := range out.OneOf {
			if _, ok := o.Properties.Rows.Items.Properties["fallback"]; !ok {
				t.Errorf("price_carbon's output schema has no rows[].fallback: %v", o.Properties.Rows.Items.Properties)
			}
		}
	}
	fig := func(name string, year int, fallback bool) string {
		return name + " " + strconv.Itoa(year) + " " + strconv.FormatBool(fallback)
	}
	want := []string{fig(catalogtest.FallbackName, catalogtest.FallbackYear, true), fig(catalogtest.ReferenceName, 2024, false)}

	var grids struct {
		Year  int
		Areas []struct {
			Name     string
			Year     int
			Fallback bool
		}
	}
	var got []string
	for _, q := range []string{catalogtest.FallbackName, catalogtest.ReferenceName} {
		call(t, cs, "list_grids", map[string]any{"query": q}, &grids)
		if grids.Year != 2024 || len(grids.Areas) != 1 {
			t.Fatalf("list_grids %s: %+v", q, grids)
		}
		a := grids.Areas[0]
		got = append(got, fig(a.Name, a.Year, a.Fallback))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("list_grids (-want +got):\n%s", diff)
	}

	var carbon struct {
		Rows []struct {
			Grid     string `json:"grid"`
			GridYear int    `json:"grid_year"`
			Fallback *bool  `json:"fallback"`
		}
	}
	call(t, cs, "price_carbon", map[string]any{"model": "qwen-3-32b", "gpu": "B200",
		"grids": []string{catalogtest.FallbackISO3, catalogtest.ReferenceName}}, &carbon)
	got = nil
	for _, r := range carbon.Rows {
		if r.Fallback == nil {
			t.Fatalf("price_carbon: a row without fallback: %+v", carbon.Rows)
		}
		got = append(got, fig(r.Grid, r.GridYear, *r.Fallback))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("price_carbon (-want +got):\n%s", diff)
	}
}

// Bounds on the compact answers (the whole CallToolResult as JSON, text and
// structured content): the full ones are about 21 KB and 35 KB.
const (
	MaxCompactListModels = 9000
	MaxCompactGetModel   = 3500
)

// SizeRows are the rows of docs/mcp.md's table of sizes, as measured
// through cs: for list_models and get_model of qwen-3-32b, the size of the
// whole result as JSON, compact and with detail "full", and for
// price_carbon of qwen-3-32b on one grid, in KB (1,000 bytes) to 1
// decimal.
func SizeRows(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	kb := func(res *mcp.CallToolResult) string {
		return strconv.FormatFloat(float64(size(t, res))/1000, 'f', 1, 64) + " KB"
	}
	var rows []string
	for _, c := range []struct {
		label string
		args  map[string]any
		tool  string
	}{
		{"`list_models`", map[string]any{}, "list_models"},
		{"`get_model` `qwen-3-32b`", map[string]any{"model": "qwen-3-32b"}, "get_model"},
		{"`list_models` `text-to-image`", map[string]any{"task": "text-to-image"}, "list_models"},
		{"`get_model` `flux-1-dev` `text-to-image`", map[string]any{"model": "flux-1-dev", "task": "text-to-image"}, "get_model"},
	} {
		compact := callRaw(t, cs, c.tool, c.args)
		args := maps.Clone(c.args)
		args["detail"] = "full"
		full := callRaw(t, cs, c.tool, args)
		rows = append(rows, "| "+c.label+" | "+kb(compact)+" | "+kb(full)+" |")
	}
	// price_carbon has one detail: a model's index rows on one grid.
	carbon := callRaw(t, cs, "price_carbon", map[string]any{"model": "qwen-3-32b", "grids": []string{"NOR"}})
	rows = append(rows, "| `price_carbon` `qwen-3-32b` on one grid (2 rows) | "+kb(carbon)+" | (no detail) |")
	image := callRaw(t, cs, "price_carbon", map[string]any{"model": "flux-1-dev", "task": "text-to-image", "grids": []string{"NOR"}})
	rows = append(rows, "| `price_carbon` `flux-1-dev` `text-to-image` on one grid (2 rows) | "+kb(image)+" | (no detail) |")
	rows = append(rows, "| `list_tasks` | "+kb(callRaw(t, cs, "list_tasks", map[string]any{}))+" | (no detail) |")
	return rows
}

// indexRowOf is an index row as the answers give it.
type indexRowOf struct {
	GPU          string      `json:"gpu"`
	NumGPUs      int         `json:"num_gpus"`
	RowID        string      `json:"row_id"`
	WhPerMillion json.Number `json:"wh_per_million_output_tokens"`
}

// size is a result's size as JSON.
func size(t *testing.T, res *mcp.CallToolResult) int {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

// decodeText decodes a result's text content into out, and checks that
// its structured content is the same JSON.
func decodeText(t *testing.T, res *mcp.CallToolResult, out any) {
	t.Helper()
	var fromText, fromStruct any
	if err := json.Unmarshal([]byte(text(res)), &fromText); err != nil {
		t.Fatalf("text content: %v\n%s", err, text(res))
	}
	decode(t, res.StructuredContent, &fromStruct)
	if diff := cmp.Diff(fromStruct, fromText); diff != "" {
		t.Errorf("text and structured content differ (-structured +text):\n%s", diff)
	}
	if err := json.Unmarshal([]byte(text(res)), out); err != nil {
		t.Fatal(err)
	}
}

// call calls a tool that must succeed and decodes its structured content
// into out, keeping numbers as published.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res := callRaw(t, cs, name, args)
	// The text content is the structured content's JSON, numbers printed
	// as the published files print them.
	if err := json.Unmarshal([]byte(text(res)), out); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, text(res))
	}
}

func callRaw(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", name, args, text(res))
	}
	return res
}

func decode(t *testing.T, v, out any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
