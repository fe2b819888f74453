package api

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/history/historytest"
	"github.com/leadgreen/greentokens/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestOpenAPI: the served document is the shipped file; it documents every
// route; and real answers validate against its schemas (OpenAPI 3.1 schema
// objects are JSON Schema 2020-12), those of the snapshot built on the
// sample's Ember file (with fallback areas) too.
func TestOpenAPI(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	realURL, _ := server(t, catalogtest.SharedReal(t))
	historyURL := "" // served on the first history case
	shipped, err := os.ReadFile("../schemas/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	a := get(t, url+"/v1/openapi.json")
	if a.status != 200 || a.body != string(shipped) {
		t.Fatalf("status %d; the served document is not schemas/openapi.json", a.status)
	}
	var doc struct {
		OpenAPI string                     `json:"openapi"`
		Paths   map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(shipped, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	for _, p := range []string{"/v1/snapshots", "/v1/openapi.json", "/v1/{date}/models", "/v1/{date}/models/{slug}", "/v1/{date}/index",
		"/v1/{date}/grid", "/v1/{date}/manifest", "/v1/{date}/carbon", "/v1/{date}/history/{model}", "/v1/feed.atom", "/healthz", "/readyz", "/mcp"} {
		if _, ok := doc.Paths[p]; !ok {
			t.Errorf("the document lacks %s", p)
		}
	}

	c := jsonschema.NewCompiler()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(shipped))
	if err != nil {
		t.Fatal(err)
	}
	const base = "https://greentokens.invalid/openapi.json"
	if err := c.AddResource(base, inst); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, schema string }{
		{"/v1/snapshots", "SnapshotList"},
		{"real:/v1/snapshots", "SnapshotList"},
		{"/v1/latest/grid", "Grid"},
		{"real:/v1/latest/grid", "Grid"},
		{"real:/v1/latest/carbon?model=qwen-3-32b&grid=" + catalogtest.FallbackISO3 + "&grid=" + catalogtest.ReferenceISO3 + "&intensity=100", "Carbon"},
		{"/v1/latest/models", "ModelList"},
		{"/v1/latest/carbon?model=qwen-3-32b&grid=SAU&grid=World&intensity=100", "Carbon"},
		{"/v1/latest/carbon?model=qwen-3-32b&grid=IND&batch=3", "Carbon"},
		{"/v1/latest/carbon?model=qwen-3-32b&grid=IND&num_gpus=1&gpu=H100", "Carbon"},
		{"/v1/latest/carbon?model=qwen-3-32b&num_gpus=3", "Problem"},
		{"/v1/latest/carbon?model=qwen-3-33b", "Problem"},
		{"/v1/latest/carbon?model=qwen-3-32b&batch=x", "Problem"},
		{"/healthz", "Status"},
		{"/readyz", "Status"},
		{"history:/v1/latest/history/qwen-3-32b", "History"},
		{"history:/v1/latest/history/qwen-3-32b?task=gpqa&gpu=H100", "History"},
		{"history:/v1/latest/history/qwen-3-32b?task=x", "Problem"},
		{"history:/v1/latest/history/flux-1-dev?task=text-to-image", "History"},
		{"history:/v1/latest/history/qwen-3-coder-30b-a3b?task=sourcegraph-fim", "History"},
	} {
		sch, err := c.Compile(base + "#/components/schemas/" + tc.schema)
		if err != nil {
			t.Fatal(err)
		}
		base, path := url, tc.path
		if p, ok := strings.CutPrefix(tc.path, "real:"); ok {
			base, path = realURL, p
		}
		if p, ok := strings.CutPrefix(tc.path, "history:"); ok {
			if testing.Short() {
				continue // over historytest's six releases: make scale validates them
			}
			if historyURL == "" {
				historyURL, _ = server(t, historytest.Store(t))
			}
			base, path = historyURL, p
		}
		a := get(t, base+path)
		if tc.schema == "History" && !strings.Contains(a.body, `"kind": "excluded"`) && !strings.Contains(a.body, `"gpu": "H100"`) {
			t.Errorf("%s: no change to validate:\n%.300s", tc.path, a.body)
		}
		if tc.schema == "Carbon" && !strings.Contains(a.body, `"fallback": false`) ||
			strings.HasPrefix(tc.path, "real:") && tc.schema != "SnapshotList" && !strings.Contains(a.body, `"fallback": true`) {
			t.Errorf("%s: no fallback to validate:\n%.300s", tc.path, a.body)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(a.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s does not validate against %s: %v", tc.path, tc.schema, err)
		}
		if tc.schema == "Problem" && a.status != http.StatusBadRequest && a.status != http.StatusNotFound {
			t.Errorf("%s: status %d", tc.path, a.status)
		}
	}
}

// TestOpenAPIEnergyScope: the API's description says what the energy
// covers in the words of the pages, the site and the MCP server.
func TestOpenAPIEnergyScope(t *testing.T) {
	var doc struct {
		Info struct {
			Description string `json:"description"`
		} `json:"info"`
	}
	if err := json.Unmarshal(schemas.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Info.Description, format.EnergyScope()) {
		t.Errorf("info.description lacks %q", format.EnergyScope())
	}
}

// TestSchemasAreOpenAPIs: each answer the command line, the API and MCP
// share has one schema in schemas/: the OpenAPI document's components are
// those schemas (and their $defs), word for word.
func TestSchemasAreOpenAPIs(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(schemas.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		top  string // the component the file's top level is; "" for none
		defs []string
	}{
		{"carbon.schema.json", "Carbon", []string{"Accounting", "CarbonRow", "FileRef", "FunctionalUnit"}},
		{"list-models.schema.json", "ModelList", []string{"IndexRow", "ModelSummary"}},
		{"list-grids.schema.json", "", []string{"GridArea"}},
		{"history.schema.json", "History", []string{"HistoryPoint", "HistoryReason", "HistoryRelease", "HistorySeries"}},
		{"carbon-diffusion.schema.json", "DiffusionCarbon", []string{"Accounting", "DiffusionCarbonRow", "DiffusionFunctionalUnit", "FileRef"}},
		{"list-tasks.schema.json", "TaskList", []string{"LatencyCeiling", "TaskInfo"}},
		{"list-task-models.schema.json", "TaskModelList", []string{"TaskIndexRow", "TaskModelSummary"}},
	} {
		b, err := schemas.Read(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		// Within the file its parts are under $defs; within the document,
		// under components/schemas.
		b = bytes.ReplaceAll(b, []byte(`"#/$defs/`), []byte(`"#/components/schemas/`))
		var top map[string]any
		if err := json.Unmarshal(b, &top); err != nil {
			t.Fatal(err)
		}
		defs, _ := top["$defs"].(map[string]any)
		if got := slices.Sorted(maps.Keys(defs)); !slices.Equal(got, tc.defs) {
			t.Errorf("%s defines %v, want %v", tc.file, got, tc.defs)
		}
		want := map[string]any{}
		for name, def := range defs {
			want[name] = def
		}
		if tc.top != "" {
			for _, k := range []string{"$defs", "$schema", "title"} {
				delete(top, k)
			}
			want[tc.top] = top
		}
		for name, w := range want {
			if diff := cmp.Diff(w, doc.Components.Schemas[name]); diff != "" {
				t.Errorf("openapi.json's %s is not %s's (-file +openapi):\n%s", name, tc.file, diff)
			}
		}
	}
}
