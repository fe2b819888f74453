package exports

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// jsonKeys lists the JSON keys of v's struct type, in order.
func jsonKeys(v any) []string {
	t := reflect.TypeOf(v)
	var keys []string
	for i := range t.NumField() {
		if k := t.Field(i).Tag.Get("json"); k != "-" {
			keys = append(keys, strings.Split(k, ",")[0])
		}
	}
	return keys
}

// TestRowsMirrorFormat: a row's columns are the published keys of what
// it flattens, in the published order.
func TestRowsMirrorFormat(t *testing.T) {
	if diff := cmp.Diff(append(append([]string{}, modelColumns...), jsonKeys(format.Config{})...), names(columnsOf[ConfigRow]())); diff != "" {
		t.Errorf("ConfigRow's columns (-model columns and format.Config's keys +got):\n%s", diff)
	}
	diffusion := jsonKeys(format.DiffusionConfig{})
	without := func(drop ...string) []string {
		return slices.DeleteFunc(slices.Clone(diffusion), func(k string) bool { return slices.Contains(drop, k) })
	}
	image := without("num_frames", "fps", "video_seconds", "wh_per_video", "joules_per_video")
	video := without("wh_per_image", "joules_per_image")
	if diff := cmp.Diff(append(slices.Clone(modelColumns[:5]), image...), names(columnsOf[ImageRow]())); diff != "" {
		t.Errorf("ImageRow's columns (-model columns and an image task's format.DiffusionConfig keys +got):\n%s", diff)
	}
	if diff := cmp.Diff(append(slices.Clone(modelColumns[:5]), video...), names(columnsOf[VideoRow]())); diff != "" {
		t.Errorf("VideoRow's columns (-model columns and a video task's format.DiffusionConfig keys +got):\n%s", diff)
	}
	if diff := cmp.Diff(jsonKeys(format.Area{}), names(columnsOf[AreaRow]())); diff != "" {
		t.Errorf("AreaRow's columns (-format.Area's keys +got):\n%s", diff)
	}
}

// memSink holds what is written.
type memSink map[string][]byte

func (m memSink) WriteFile(rel string, data []byte) (format.File, error) {
	m[rel] = bytes.Clone(data)
	sum := sha256.Sum256(data)
	return format.File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, nil
}

func (m memSink) WriteStream(rel string, fn func(w io.Writer) error) (format.File, error) {
	var b bytes.Buffer
	if err := fn(&b); err != nil {
		return format.File{}, err
	}
	return m.WriteFile(rel, b.Bytes())
}

// fixture is a snapshot of one model with two configurations, and a grid
// of a country and a region.
func fixture(t *testing.T) Snapshot {
	t.Helper()
	c := format.Config{GPU: "B200", NumGPUs: 1, TensorParallel: 1, DataParallel: 1, Precision: "BF16", MaxNumSeqs: 8,
		AvgRequestsInFlight: 8, WhPerMillion: 86.84, JoulesPerToken: 0.3126325, MedianITL: 12.5, P90ITL: 13, P99ITL: 20,
		TokensPerSecond: 640.5, GPUPowerWatts: 720, AvgOutputTokens: 860, UnderITLDeadline: true, AvgRunningBatch: 8,
		P95ITL: 14.1, RowID: "m/B200/1/8", Repeat: 1}
	d := c
	d.MaxNumSeqs, d.WhPerMillion, d.UnderITLDeadline, d.RowID = 16, 70.25, false, "m/B200/1/16"
	m := &format.Model{Slug: "m", Name: "M, \"quoted\"", ModelID: "o/m", ParamsB: 32, ActiveParamsB: 32, Architecture: "Dense",
		GPUs: []string{"B200"}, Configurations: []format.Config{c, d}, Best: map[string]format.Config{"B200": c}}
	g := &format.Grid{Year: 2024, Areas: []format.Area{
		{Name: "ASEAN", AreaType: "Region", Year: 2024, GCO2ePerKWh: 569.95},
		{Name: "Norway", ISO3: "NOR", AreaType: "Country or economy", Year: 2023, Fallback: true, GCO2ePerKWh: 30},
	}}
	fsys := fstest.MapFS{}
	for p, v := range map[string]any{format.ModelPath("m"): m, format.GridPath: g} {
		b, err := format.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		fsys[p] = &fstest.MapFile{Data: b}
	}
	text, err := sourcetext.Load()
	if err != nil {
		t.Fatal(err)
	}
	return Snapshot{FS: fsys, Index: &format.IndexFile{Models: []format.IndexEntry{m.Entry()}}, Grid: true, Date: "2026-09-27", Licence: text.Licence}
}

// TestWrite: the exports of a snapshot, their bytes the same twice, the
// CSV as the JSON files print, the Parquet files' CreatedBy pinned, the
// grid in co2.js's shape, and the data package naming each file's bytes
// and sha256.
func TestWrite(t *testing.T) {
	a, b := memSink{}, memSink{}
	files, err := Write(a, fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(b, fixture(t)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two writes differ (-first +second):\n%s", diff)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	want := []string{"exports/co2js-average-intensities.json", "exports/datapackage.json", "exports/grid.csv", "exports/grid.parquet",
		"exports/lm-arena-chat/configurations.csv", "exports/lm-arena-chat/configurations.parquet",
		"exports/lm-arena-chat/index-rows.csv", "exports/lm-arena-chat/index-rows.parquet"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Fatalf("files (-want +got):\n%s", diff)
	}

	csvText := string(a["exports/lm-arena-chat/configurations.csv"])
	if !strings.HasSuffix(csvText, "\n") || strings.Count(csvText, "\n") != 3 {
		t.Errorf("configurations.csv: want a header and two records, each ended by LF:\n%q", csvText)
	}
	records, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i, h := range records[0] {
		got[h] = records[1][i]
	}
	for k, v := range map[string]string{"name": `M, "quoted"`, "params_b": "32.0", "avg_requests_in_flight": "8.0", "p90_itl_ms": "13.0",
		"wh_per_million_output_tokens": "86.84", "gpu_power_watts_total": "720", "under_itl_deadline": "true", "row_id": "m/B200/1/8"} {
		if got[k] != v {
			t.Errorf("configurations.csv row 1: %s is %q, want %q as model files print it", k, got[k], v)
		}
	}

	for _, p := range []string{"exports/lm-arena-chat/configurations.parquet", "exports/grid.parquet"} {
		f, err := parquet.OpenFile(bytes.NewReader(a[p]), int64(len(a[p])))
		if err != nil {
			t.Fatal(err)
		}
		if cb := f.Metadata().CreatedBy; cb != Creator {
			t.Errorf("%s: CreatedBy is %q, want %q", p, cb, Creator)
		}
	}
	rows, err := parquet.Read[ConfigRow](bytes.NewReader(a["exports/lm-arena-chat/index-rows.parquet"]), int64(len(a["exports/lm-arena-chat/index-rows.parquet"])))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].RowID != "m/B200/1/8" || rows[0].WhPerMillion != 86.84 {
		t.Errorf("index-rows.parquet: %+v, want the B200 index row, m/B200/1/8", rows)
	}

	wantCo2js := `{
  "$schema": "https://leadgreen.ai/schemas/co2js-average-intensities.schema.json",
  "ASEAN": {
    "country_code": "",
    "country_or_region": "ASEAN",
    "year": 2024,
    "emissions_intensity_gco2_per_kwh": 569.95
  },
  "NOR": {
    "country_code": "NOR",
    "country_or_region": "Norway",
    "year": 2023,
    "emissions_intensity_gco2_per_kwh": 30.0
  }
}`
	if diff := cmp.Diff(wantCo2js, string(a[Co2jsPath])); diff != "" {
		t.Errorf("co2js-average-intensities.json (-want +got):\n%s", diff)
	}

	var pkg DataPackage
	if err := json.Unmarshal(a[DataPackagePath], &pkg); err != nil {
		t.Fatal(err)
	}
	if len(pkg.Resources) != 6 {
		t.Fatalf("datapackage.json: %d resources, want 6", len(pkg.Resources))
	}
	for _, r := range pkg.Resources {
		data := a[Dir+r.Path]
		sum := sha256.Sum256(data)
		if r.Bytes != int64(len(data)) || r.Hash != "sha256:"+hex.EncodeToString(sum[:]) || r.Licenses[0].Name != "CC-BY-4.0" {
			t.Errorf("datapackage.json: resource %s: bytes %d, hash %s, licence %v; want the file's, and CC-BY-4.0", r.Name, r.Bytes, r.Hash, r.Licenses)
		}
		for _, f := range r.Schema.Fields {
			if f.Description == "" {
				t.Errorf("datapackage.json: resource %s: field %s has no description", r.Name, f.Name)
			}
		}
	}
}

// TestCo2jsOneKeyEach: two areas under one key are an error, never a
// file with a key twice; areas that share an ISO 3 code are keyed by their
// names, each with its code.
func TestCo2jsOneKeyEach(t *testing.T) {
	g := &format.Grid{Areas: []format.Area{{Name: "NOR", AreaType: "Region"}, {Name: "Norway", ISO3: "NOR"}}}
	if _, err := co2js(g); err == nil || !strings.Contains(err.Error(), `"NOR"`) {
		t.Errorf("co2js of two areas keyed NOR: %v, want an error naming the key", err)
	}
	g = &format.Grid{Areas: []format.Area{{Name: "Afghanistan", ISO3: "AFG", Year: 2024}, {Name: "Afghanistan 1", ISO3: "AFG", Year: 2024}, {Name: "France", ISO3: "FRA", Year: 2024}}}
	c, err := co2js(g)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"$schema", "Afghanistan", "Afghanistan 1", "FRA"} {
		if _, ok := got[key]; !ok {
			t.Errorf("no key %q in %s", key, b)
		}
	}
	var a Co2jsIntensity
	if err := json.Unmarshal(got["Afghanistan 1"], &a); err != nil || a.CountryCode != "AFG" || len(got) != 4 {
		t.Errorf("%d keys, Afghanistan 1 coded %q (%v): %s", len(got), a.CountryCode, err, b)
	}
}
