package validate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/schemas"
)

// TestSchemaRejections edits a good model file (or the manifest) so that
// only its schema can object first, fixes the manifest's sha256, and checks
// that Check names the file, row and field, with the schema's reason.
func TestSchemaRejections(t *testing.T) {
	const r0 = "configurations[0] (qwen-3-32b/B200/1/8)"
	tests := []struct {
		name  string
		file  string
		edit  [2]string // old, new (first occurrence)
		want  []vtAt
		msg   string
		noFix bool
	}{
		{"string where a number belongs", vtM32,
			[2]string{`"wh_per_million_output_tokens": 429.18,`, `"wh_per_million_output_tokens": "429.18",`},
			[]vtAt{{vtM32, r0, "wh_per_million_output_tokens"}}, "does not match model.schema.json: got string, want number", false},
		{"missing key", vtM32,
			[2]string{"\n  \"boundary\": \"gpu_only\",", ""},
			[]vtAt{{vtM32, "", "boundary"}}, "is missing (required by model.schema.json)", false},
		{"missing key in a configuration", vtM32,
			[2]string{"\n      \"p95_itl_ms\": 17.3,", ""},
			[]vtAt{{vtM32, r0, "p95_itl_ms"}}, "is missing (required by model.schema.json)", false},
		{"extra key", vtM32,
			[2]string{`"version": "1",`, `"version": "1", "extra": 1,`},
			[]vtAt{{vtM32, "", "extra"}}, "is not a field of model.schema.json", false},
		{"bad row_id", vtM32,
			[2]string{`"row_id": "qwen-3-32b/B200/1/8",`, `"row_id": "qwen-3-32b/B200/1/8/r1",`},
			[]vtAt{{vtM32, "configurations[0] (qwen-3-32b/B200/1/8/r1)", "row_id"}}, "does not match model.schema.json", false},
		{"bad slug", vtM32,
			[2]string{`"slug": "qwen-3-32b",`, `"slug": "Qwen 3 32B",`},
			[]vtAt{{vtM32, "", "slug"}}, "does not match model.schema.json", false},
		{"bad date shape", vtM32,
			[2]string{`"updated": "2026-09-27",`, `"updated": "2026-9-27",`},
			[]vtAt{{vtM32, "", "updated"}}, "does not match model.schema.json", false},
		{"impossible date (format assertion)", vtM32,
			[2]string{`"updated": "2026-09-27",`, `"updated": "2026-02-30",`},
			[]vtAt{{vtM32, "", "updated"}}, "is not valid date", false},
		{"fraction where an integer belongs", vtM32,
			[2]string{`"gpu_power_watts_total": 860,`, `"gpu_power_watts_total": 860.5,`},
			[]vtAt{{vtM32, r0, "gpu_power_watts_total"}}, "got number, want integer", false},
		{"zero GPUs", vtM32,
			[2]string{`"num_gpus": 1,`, `"num_gpus": 0,`},
			[]vtAt{{vtM32, r0, "num_gpus"}}, "minimum", false},
		{"unknown precision", vtM32,
			[2]string{`"precision": "BF16",`, `"precision": "bf16",`},
			[]vtAt{{vtM32, r0, "precision"}}, "does not match model.schema.json", false},
		{"best keyed by a bad GPU name", vtM32,
			[2]string{`"best": {
    "B200": {`, `"best": {
    "B/200": {`},
			[]vtAt{{vtM32, "best.B/200 (qwen-3-32b/B200/1/384)", ""}}, `the key "B/200" is not allowed`, false},
		{"manifest sha256 not lower-case hex", ManifestPath,
			[2]string{`"sha256": "`, `"sha256": "X`},
			[]vtAt{{ManifestPath, "sources[0] (sources/leaderboard/commits.json)", "sha256"}}, "does not match manifest.schema.json", true},
		{"manifest bad retrieved", ManifestPath,
			[2]string{`"retrieved": "2026-09-26",`, `"retrieved": "26 Sep 2026",`},
			[]vtAt{{ManifestPath, "", "retrieved"}}, "does not match manifest.schema.json", true},
		{"manifest extra key", ManifestPath,
			[2]string{`"version": "1",`, `"version": "1", "signed": true,`},
			[]vtAt{{ManifestPath, "", "signed"}}, "is not a field of manifest.schema.json", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
			vtEditFile(t, dir, tt.file, !tt.noFix, vtReplace(t, tt.edit[0], tt.edit[1]))
			var got []Problem
			for _, p := range vtReport(t, dir) {
				if strings.Contains(p.Msg, ".schema.json") {
					got = append(got, p)
				}
			}
			if diff := cmp.Diff(tt.want, vtPositions(got)); diff != "" {
				t.Fatalf("schema problems (-want +got):\n%s\n%v", diff, got)
			}
			if !strings.Contains(got[0].Msg, tt.msg) {
				t.Errorf("%q lacks %q", got[0].String(), tt.msg)
			}
		})
	}
}

// TestSchemasCompile: every embedded schema compiles as draft 2020-12.
func TestSchemasCompile(t *testing.T) {
	schs := compiledSchemas()
	for _, name := range schemas.Names() {
		if schs[name] == nil {
			t.Errorf("%s did not compile", name)
		}
	}
	for _, name := range []string{"model.schema.json", "manifest.schema.json"} {
		if schs[name] == nil {
			t.Errorf("%s is not embedded", name)
		}
	}
}

// TestSchemasStrict: in this package's schemas every object schema forbids
// unknown keys and requires every key but the documented optional ones, and
// every property says what its rule is.
func TestSchemasStrict(t *testing.T) {
	optional := map[string]bool{
		"manifest.schema.json#/properties/evidence/conflict": true,
		"manifest.schema.json#/properties/grid":              true,
		"manifest.schema.json#/properties/licence":           true, // the checker requires it; the catalog reads manifests without
		"manifest.schema.json#/$defs/source/final_url":       true, // absent for a local file
		"manifest.schema.json#/$defs/source/layout":          true, // Ember's July 2026 layout only
		"manifest.schema.json#/$defs/source/header":          true, // with layout
		"manifest.schema.json#/$defs/exclusion/max_num_seqs": true, // a token task's row: one of the two (oneOf)
		"manifest.schema.json#/$defs/exclusion/batch_size":   true, // a diffusion task's row
	}
	for _, name := range []string{"model.schema.json", "manifest.schema.json"} {
		t.Run(name, func(t *testing.T) {
			doc := schemaDoc(t, name)
			if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("$schema is %v", doc["$schema"])
			}
			defs, _ := doc["$defs"].(map[string]any)
			described := func(s map[string]any) bool {
				if d, ok := s["description"].(string); ok && d != "" {
					return true
				}
				ref, _ := s["$ref"].(string)
				def, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
				d, _ := def["description"].(string)
				return d != ""
			}
			var walk func(ptr string, s map[string]any)
			walk = func(ptr string, s map[string]any) {
				props, ok := s["properties"].(map[string]any)
				if ok {
					if s["additionalProperties"] != false {
						t.Errorf("%s: additionalProperties is not false", ptr)
					}
					req := map[string]bool{}
					for _, r := range s["required"].([]any) {
						req[r.(string)] = true
					}
					keys := make([]string, 0, len(props))
					for k := range props {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, k := range keys {
						p := props[k].(map[string]any)
						vtAt := ptr + "/" + k
						if !req[k] && !optional[name+"#"+vtAt] {
							t.Errorf("%s is not required", vtAt)
						}
						if !described(p) {
							t.Errorf("%s has no description", vtAt)
						}
						walk(vtAt, p)
					}
				}
				for _, key := range []string{"items", "additionalProperties"} {
					if sub, ok := s[key].(map[string]any); ok {
						walk(ptr+"/"+key, sub)
					}
				}
			}
			walk("/properties", map[string]any{"properties": doc["properties"], "additionalProperties": doc["additionalProperties"], "required": doc["required"]})
			for k, d := range defs {
				walk("/$defs/"+k, d.(map[string]any))
			}
		})
	}
}

// schemaDoc returns an embedded schema, decoded.
func schemaDoc(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := schemas.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestLargeManifest: a manifest of thousands of files (over 256 KiB, as a
// build of thousands of models writes) read from the snapshot is checked
// as CheckSchema checks its bytes, a bad entry deep in it named.
func TestLargeManifest(t *testing.T) {
	t.Parallel()
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
	m := vtReadManifest(t, dir)
	for i := 0; len(m.Outputs) < 3000; i++ {
		m.Outputs = append(m.Outputs, vtFileEntry(fmt.Sprintf("pages/model-%05d.html", i), []byte(fmt.Sprint(i))))
	}
	vtWriteManifest(t, dir, m)
	check := func() []Problem { return checkSchemas(vtSnap(t, dir, nil)) }
	b, err := os.ReadFile(filepath.Join(dir, ManifestPath))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) <= 256<<10 {
		t.Fatalf("the manifest is %d bytes: not large", len(b))
	}
	if probs := check(); len(probs) != 0 {
		t.Fatalf("a good manifest: %v", probs)
	}

	m.Outputs[2500].SHA256 = strings.ToUpper(m.Outputs[2500].SHA256)
	vtWriteManifest(t, dir, m)
	if b, err = os.ReadFile(filepath.Join(dir, ManifestPath)); err != nil {
		t.Fatal(err)
	}
	probs := check()
	want := CheckSchema("manifest.schema.json", ManifestPath, b)
	if len(want) == 0 || !strings.Contains(want[0].String(), "2500") {
		t.Fatalf("the whole check reports %v", want)
	}
	if diff := cmp.Diff(want, probs); diff != "" {
		t.Errorf("problems (-CheckSchema +checkSchemas):\n%s", diff)
	}
}
