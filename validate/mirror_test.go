package validate_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/validate"
)

// fill sets every field reachable from v (a pointer) to a non-zero value.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.String:
		v.SetString("s")
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Float64, reflect.Float32:
		v.SetFloat(0.5)
	case reflect.Bool:
		v.SetBool(true)
	}
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeStrict(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%T does not decode strictly: %v", v, err)
	}
}

// TestManifestMirrorsSnapshots: validate.Manifest, which this package
// declares so that snapshots/ can import it, has exactly the JSON shape of
// format.Manifest, both ways, every field set.
func TestManifestMirrorsSnapshots(t *testing.T) {
	var s format.Manifest
	fill(reflect.ValueOf(&s))
	var v validate.Manifest
	decodeStrict(t, marshal(t, &s), &v)
	if diff := cmp.Diff(string(marshal(t, &s)), string(marshal(t, &v))); diff != "" {
		t.Errorf("format.Manifest → validate.Manifest loses or changes fields (-snapshots +validate):\n%s", diff)
	}

	var v2 validate.Manifest
	fill(reflect.ValueOf(&v2))
	var s2 format.Manifest
	decodeStrict(t, marshal(t, &v2), &s2)
	if diff := cmp.Diff(string(marshal(t, &v2)), string(marshal(t, &s2))); diff != "" {
		t.Errorf("validate.Manifest → format.Manifest loses or changes fields (-validate +snapshots):\n%s", diff)
	}
}

// TestManifestSchemaAcceptsSnapshotsManifest: a realistic, fully populated
// format.Manifest passes manifest.schema.json.
func TestManifestSchemaAcceptsSnapshotsManifest(t *testing.T) {
	const sum = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	text, err := sourcetext.Load()
	if err != nil {
		t.Fatal(err)
	}
	m := format.Manifest{
		Version: "1", Date: "2026-09-27", Retrieved: "2026-09-26",
		Licence: &format.Licence{ID: text.Licence.ID, Name: text.Licence.Name, URL: text.Licence.URL, Scope: text.Licence.Scope, Attribution: "Lead Green. Green Tokens."},
		Generator: format.Generator{Module: "github.com/leadgreen/greentokens", Version: "(devel)",
			Revision: "0123456789abcdef0123456789abcdef01234567", Modified: true, Go: "go1.26.0"},
		Selection: format.Selection{ITLDeadlineMS: 500, MinSteadyStateSeconds: 20, MinBatchFraction: 0.85, Tasks: []string{"lm-arena-chat", "gpqa"}},
		Sources: []format.SourceFile{
			{File: format.File{Path: "sources/ember/yearly_full_release_long_format.csv", Size: 40, SHA256: sum},
				Name: "ember/yearly_full_release_long_format.csv", URL: "https://files.ember-energy.org/public-downloads/yearly_full_release_long_format.csv",
				Retrieved: "2026-09-26T08:00:00Z", Producer: "Ember", Licence: "CC BY 4.0"},
			{File: format.File{Path: "sources/leaderboard/index.json", Size: 10, SHA256: sum},
				Name: "leaderboard/index.json", URL: "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/index.json",
				Retrieved: "2026-09-26", Producer: "The ML.ENERGY Initiative", Licence: "Apache-2.0"},
		},
		Outputs: []format.File{{Path: "grid.json", Size: 1, SHA256: sum}, {Path: "models/qwen-3-32b.json", Size: 1, SHA256: sum}},
		Evidence: format.Evidence{IndexLastUpdated: "2025-12-17", LastCommitSHA: "281c69e3ec33ea2ceff53e180e41edd48fe8f991",
			LastCommitDate: "2025-12-18", Compiled: "2025-12-17", Conflict: "dates differ"},
		Exclusions: []format.Exclusion{{Task: "gpqa", Row: 3, ModelID: "a/b", GPU: "H100", NumGPUs: 1, MaxNumSeqs: 64, Reason: "cascade"}},
		Grid: &format.GridSummary{Year: 2024, Areas: 226, AreasWithoutYear: 127, Fallbacks: 127, YearRule: text.Ember.YearRule, YearPinned: true,
			YearCandidates: []format.YearCount{
				{Year: 2025, World: true, Countries: 80, CountriesYearBefore: 212},
				{Year: 2024, World: true, Countries: 212, CountriesYearBefore: 213, Complete: true},
			},
			Exclusions: []format.GridExclusion{
				{Area: "Costa Rica", ISO3: "CRI", Year: 2025, Line: 1169, Value: "-37.9", Reason: grid.ReasonNegative},
				{Area: "Asia", Year: 2025, Line: 201, Value: "", Reason: grid.ReasonBlank},
				{Area: "Kosovo", ISO3: "XKX", Year: 2023, Line: 2830, Value: "912.5", Reason: "exact duplicate of line 2829"},
				{Area: "Chile", ISO3: "CHL", Year: 2023, Line: 900, Value: "2500.00", Reason: grid.ReasonImplausible},
				{Area: "Palestine, State of", ISO3: "PSE", Year: 2025, Line: 4000, Value: "NaN", Reason: grid.ReasonNonFinite},
			}},
	}
	if ps := validate.CheckSchema("manifest.schema.json", "manifest.json", marshal(t, &m)); len(ps) != 0 {
		t.Errorf("manifest.schema.json rejects a realistic manifest: %v", ps)
	}
}
