package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/mcpserver"
	"github.com/leadgreen/greentokens/schemas"
)

// docParam is a parameter of an operation of the OpenAPI document.
type docParam struct {
	Name        string         `json:"name"`
	In          string         `json:"in"`
	Schema      map[string]any `json:"schema"`
	Description string         `json:"description"`
	Ref         string         `json:"$ref"`
}

// docParams returns every parameter of every operation of the document,
// by name ($refs resolved), a path parameter's as "NAME in path" and a
// header's as "NAME in header"; a name given two different schemas fails.
func docParams(t *testing.T) map[string]docParam {
	t.Helper()
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Parameters map[string]docParam `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(schemas.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]docParam{}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			var op struct {
				Parameters []docParam `json:"parameters"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			for _, p := range op.Parameters {
				if name, ok := strings.CutPrefix(p.Ref, "#/components/parameters/"); ok {
					p = doc.Components.Parameters[name]
				}
				key := p.Name
				if p.In != "query" {
					key += " in " + p.In
				}
				if was, ok := out[key]; ok && !cmp.Equal(was, p) {
					t.Errorf("%s %s: parameter %s is not the one of other operations", method, path, key)
				}
				out[key] = p
			}
		}
	}
	return out
}

// boundWords are the JSON Schema keywords that bound a value.
var boundWords = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "pattern", "minItems", "maxItems", "const", "enum"}

// boundsOf returns every bound of a schema, by its path in the schema
// ("maxItems", "items.maxLength", "anyOf.1.minimum").
func boundsOf(schema any) map[string]any {
	out := map[string]any{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if slices.Contains(boundWords, k) {
					out[prefix+k] = x
				} else {
					walk(prefix+k+".", x)
				}
			}
		case []any:
			for i, x := range v {
				walk(prefix+strconv.Itoa(i)+".", x)
			}
		}
	}
	walk("", schema)
	return out
}

// TestOpenAPIBounds: the bounds schemas/openapi.json gives each parameter
// are the server's. The document's bounds are the catalog's constants;
// the handler accepts a value at each bound the document gives (200, or
// 404 for a name that passes its checks and names nothing) and refuses one
// a step past it with 400 naming the parameter; a number given at the
// length the document states is accepted and one character longer is
// refused; every date served matches the date's pattern; the limits the
// document's descriptions state are the API's and the MCP server's
// constants.
func TestOpenAPIBounds(t *testing.T) {
	params := docParams(t)
	name := float64(catalog.MaxNameBytes)
	want := map[string]map[string]any{
		"date in path":            {"pattern": `^([0-9]{4}-[0-9]{2}-[0-9]{2}|latest)$`},
		"slug in path":            {"maxLength": name},
		"model in path":           {"maxLength": name},
		"If-None-Match in header": {},
		"task":                    {"enum": taskIDs()},
		"model":                   {"minLength": 1.0, "maxLength": name},
		"grid":                    {"maxItems": float64(catalog.MaxGrids), "items.minLength": 1.0, "items.maxLength": name},
		"gpu":                     {"maxLength": name},
		"batch":                   {"minimum": catalog.MinNumber, "maximum": float64(catalog.MaxBatch)},
		"num_gpus":                {"minimum": 1.0, "maximum": float64(catalog.MaxNumGPUs)},
		"intensity":               {"anyOf.0.const": 0.0, "anyOf.1.minimum": catalog.MinNumber, "anyOf.1.maximum": float64(format.MaxGCO2PerKWh)},
		"pue":                     {"minimum": float64(catalog.MinPUE), "maximum": float64(catalog.MaxPUE)},
	}
	got := map[string]map[string]any{}
	for n, p := range params {
		got[n] = boundsOf(p.Schema)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the document's bounds (-server +openapi.json):\n%s", diff)
	}

	cat, err := catalog.Open(catalogtest.Shared(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := New(cat, Options{})
	carbon := func(q url.Values) string { return "/v1/latest/carbon?" + q.Encode() }
	// ask is the path that gives the parameter the values vs, and the name
	// a refusal gives it (a slug is a model name).
	ask := map[string]func(vs []string) (string, string){
		"slug in path": func(vs []string) (string, string) { return "/v1/latest/models/" + url.PathEscape(vs[0]), "model" },
		"model in path": func(vs []string) (string, string) {
			return "/v1/latest/history/" + url.PathEscape(vs[0]), "model"
		},
		"task": func(vs []string) (string, string) {
			return "/v1/latest/models?" + url.Values{"task": vs}.Encode(), "task"
		},
		"model": func(vs []string) (string, string) {
			return carbon(url.Values{"model": vs, "grid": {"NOR"}}), "model"
		},
		"grid": func(vs []string) (string, string) {
			return carbon(url.Values{"model": {"qwen-3-32b"}, "grid": vs}), "grid"
		},
	}
	for _, p := range []string{"gpu", "batch", "num_gpus", "intensity", "pue"} {
		ask[p] = func(vs []string) (string, string) {
			return carbon(url.Values{"model": {"qwen-3-32b"}, "grid": {"NOR"}, p: vs}), p
		}
	}
	try := func(param string, vs []string, accept bool) {
		t.Helper()
		path, as := ask[param](vs)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		var p Problem
		json.Unmarshal(w.Body.Bytes(), &p)
		shown := fmt.Sprintf("%.60q", vs)
		switch {
		case accept && w.Code != http.StatusOK && w.Code != http.StatusNotFound:
			t.Errorf("%s %s (at the document's bound): %d %.300s; want it accepted", param, shown, w.Code, w.Body)
		case !accept && (w.Code != http.StatusBadRequest || p.Parameter != as):
			t.Errorf("%s %s (a step past the document's bound): %d %.300s; want 400 naming %s", param, shown, w.Code, w.Body, as)
		}
	}
	for param, p := range params {
		b := got[param]
		if _, ok := ask[param]; !ok {
			if param != "date in path" && len(b) > 0 {
				t.Errorf("%s has bounds %v and no probe", param, b)
			}
			continue
		}
		// A string's length, or each item's of an array.
		for _, at := range []string{"", "items."} {
			for word, past := range map[string]int{"maxLength": 1, "minLength": -1} {
				if n, ok := b[at+word].(float64); ok {
					try(param, []string{strings.Repeat("x", int(n))}, true)
					try(param, []string{strings.Repeat("x", int(n)+past)}, false)
				}
			}
		}
		if enum, ok := b["enum"].([]any); ok {
			for _, v := range enum {
				try(param, []string{v.(string)}, true)
			}
			try(param, []string{"not-a-task"}, false)
		}
		if n, ok := b["maxItems"].(float64); ok {
			try(param, slices.Repeat([]string{"NOR"}, int(n)), true)
			try(param, slices.Repeat([]string{"NOR"}, int(n)+1), false)
		}
		if n, ok := b["maxLength"].(float64); ok && !strings.Contains(p.Description, fmt.Sprintf("At most %d bytes", int(n))) {
			t.Errorf("%s: the description does not say at most %d bytes: %q", param, int(n), p.Description)
		}
		if p.Schema["type"] == "number" || p.Schema["type"] == "integer" {
			checkRange(t, param, p, b, func(v string, accept bool) { try(param, []string{v}, accept) })
		}
	}

	// The limits the document's descriptions give are the server's.
	var doc struct {
		Info  struct{ Description string } `json:"info"`
		Paths struct {
			MCP struct {
				Post struct {
					RequestBody struct{ Description string } `json:"requestBody"`
				} `json:"post"`
			} `json:"/mcp"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(schemas.OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	if limit := fmt.Sprintf("at most %d bytes (a final newline not counted)", mcpserver.MaxRequestBytes); !strings.Contains(doc.Paths.MCP.Post.RequestBody.Description, limit) {
		t.Errorf("/mcp's request body: the description %q does not say %q", doc.Paths.MCP.Post.RequestBody.Description, limit)
	}
	for _, limit := range []string{
		fmt.Sprintf("over %d bytes are refused with 400", catalog.MaxNameBytes),
		fmt.Sprintf("query strings over %d KiB with 400", MaxQueryBytes>>10),
		fmt.Sprintf("paths over %d KiB with 414", MaxPathBytes>>10),
		fmt.Sprintf("request headers over %d KiB with 431", MaxHeaderBytes>>10),
	} {
		if !strings.Contains(doc.Info.Description, limit) {
			t.Errorf("info.description does not say %q", limit)
		}
	}

	// Every date served is one the pattern allows, and so is latest.
	pattern := regexp.MustCompile(got["date in path"]["pattern"].(string))
	for _, d := range append(cat.Dates(), catalog.Latest) {
		if !pattern.MatchString(d) {
			t.Errorf("the served date %q does not match the document's pattern %s", d, pattern)
		}
	}
}

// checkRange tries a number parameter at each end of the ranges the
// document gives it (minimum and maximum, or each of anyOf's const and
// ranges) and a step past each end that no other range holds: a float64's
// neighbour, or 1 for an integer. A number parameter whose description
// says "of at most N characters" is tried at N characters and N+1.
func checkRange(t *testing.T, param string, p docParam, b map[string]any, try func(string, bool)) {
	t.Helper()
	type span struct{ lo, hi float64 }
	var spans []span
	if lo, ok := b["minimum"].(float64); ok {
		spans = append(spans, span{lo, b["maximum"].(float64)})
	}
	for i := 0; ; i++ {
		k := "anyOf." + strconv.Itoa(i) + "."
		if c, ok := b[k+"const"].(float64); ok {
			spans = append(spans, span{c, c})
		} else if lo, ok := b[k+"minimum"].(float64); ok {
			spans = append(spans, span{lo, b[k+"maximum"].(float64)})
		} else {
			break
		}
	}
	if len(spans) == 0 {
		t.Errorf("%s: a number with no range in the document", param)
		return
	}
	step := func(v, dir float64) float64 {
		if p.Schema["type"] == "integer" {
			return v + dir
		}
		return math.Nextafter(v, dir*math.Inf(1))
	}
	held := func(v float64) bool {
		return slices.ContainsFunc(spans, func(s span) bool { return s.lo <= v && v <= s.hi })
	}
	text := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, s := range spans {
		for _, end := range []struct{ v, out float64 }{{s.lo, -1}, {s.hi, 1}} {
			try(text(end.v), true)
			if past := step(end.v, end.out); !held(past) {
				try(text(past), false)
			}
		}
	}
	m := regexp.MustCompile(`of at most (\d+) characters`).FindStringSubmatch(p.Description)
	if m == nil {
		t.Errorf("%s: the description does not say how long the number may be: %q", param, p.Description)
		return
	}
	n, _ := strconv.Atoi(m[1])
	if n != catalog.MaxNumberBytes {
		t.Errorf("%s: the document says at most %d characters; the server reads %d", param, n, catalog.MaxNumberBytes)
	}
	// 1.000...: 1 at n characters, in every range here but intensity's 0;
	// 0...01: a count of 1 at n characters.
	long, longer := "1."+strings.Repeat("0", n-2), "1."+strings.Repeat("0", n-1)
	if p.Schema["type"] == "integer" {
		long, longer = strings.Repeat("0", n-1)+"1", strings.Repeat("0", n)+"1"
	}
	try(long, true)
	try(longer, false)
}

// taskIDs are the ids of the registered tasks, as the document's enum
// lists them.
func taskIDs() []any {
	var ids []any
	for _, t := range format.Tasks() {
		ids = append(ids, t.ID)
	}
	return ids
}
