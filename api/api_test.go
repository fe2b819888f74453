package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/leadgreen/greentokens/internal/sample"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/history/historytest"
)

func TestMain(m *testing.M) {
	code := sample.Run(m)
	catalogtest.Cleanup()
	historytest.Cleanup()
	os.Exit(code)
}

// server serves the API over the snapshots under root on 127.0.0.1, with
// the production server's limits; it returns the URL and the access log.
func server(t testing.TB, root string) (string, *bytes.Buffer) {
	t.Helper()
	cat := openCatalog(t, root)
	var logs syncBuffer
	h := New(cat, Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	ts := httptest.NewUnstartedServer(h)
	ts.Config = NewServer(h)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL, &logs.Buffer
}

// openCatalog opens root's catalog; a root of catalogtest's shared
// folders, which no test changes, is opened once per test binary.
func openCatalog(t testing.TB, root string) *catalog.Catalog {
	t.Helper()
	open := func() (*catalog.Catalog, error) { return catalog.Open(root, nil) }
	if catalogtest.IsShared(root) {
		once, _ := sharedCatalogs.LoadOrStore(root, sync.OnceValues(open))
		open = once.(func() (*catalog.Catalog, error))
	}
	cat, err := open()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

var sharedCatalogs sync.Map

type answer struct {
	status int
	header http.Header
	body   string
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func get(t testing.TB, url string, header ...string) answer {
	t.Helper()
	return do(t, http.MethodGet, url, header...)
}

func do(t testing.TB, method, url string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func snapFile(t *testing.T, rel string) []byte {
	t.Helper()
	return fileOf(t, catalogtest.Shared(t), rel)
}

// smallSnapFile is snapFile of catalogtest.SharedSmall's snapshot.
func smallSnapFile(t *testing.T, rel string) []byte {
	t.Helper()
	return fileOf(t, catalogtest.SharedSmall(t), rel)
}

// fileOf reads the file rel of the snapshot of catalogtest.Date under root.
func fileOf(t *testing.T, root, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, catalogtest.Date, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestPublishedFiles: each published file byte for byte, with its
// manifest sha256 as ETag, 304 on If-None-Match, and Cache-Control
// immutable for a date, short for latest.
func TestPublishedFiles(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	var manifest struct {
		Outputs []struct{ Path, SHA256 string }
	}
	if err := json.Unmarshal(snapFile(t, "manifest.json"), &manifest); err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{"manifest.json": sha(snapFile(t, "manifest.json"))}
	for _, o := range manifest.Outputs {
		listed[o.Path] = o.SHA256
	}
	for _, tc := range []struct{ path, file string }{
		{"models/qwen-3-32b", "models/qwen-3-32b.json"},
		{"models/qwen-3-14b", "models/qwen-3-14b.json"},
		{"index", "index.json"},
		{"grid", "grid.json"},
		{"manifest", "manifest.json"},
	} {
		for _, date := range []string{catalogtest.Date, "latest"} {
			t.Run(date+"/"+tc.path, func(t *testing.T) {
				a := get(t, url+"/v1/"+date+"/"+tc.path)
				want := snapFile(t, tc.file)
				if a.status != 200 || a.body != string(want) {
					t.Fatalf("status %d; body equal to the file: %v", a.status, a.body == string(want))
				}
				etag := `"` + listed[tc.file] + `"`
				if a.header.Get("ETag") != etag || listed[tc.file] != sha(want) {
					t.Errorf("ETag %s, want %s (the manifest's sha256)", a.header.Get("ETag"), etag)
				}
				cc := map[string]string{catalogtest.Date: "public, max-age=31536000, immutable", "latest": "public, max-age=60"}[date]
				if a.header.Get("Cache-Control") != cc || a.header.Get("Content-Type") != "application/json" || a.header.Get("Access-Control-Allow-Origin") != "*" {
					t.Errorf("headers %v", a.header)
				}
				for _, inm := range []string{etag, "W/" + etag, `"x", ` + etag, "*"} {
					if a := get(t, url+"/v1/"+date+"/"+tc.path, "If-None-Match", inm); a.status != 304 || a.body != "" || a.header.Get("ETag") != etag || a.header.Get("Cache-Control") != cc {
						t.Errorf("If-None-Match %s: status %d, ETag %s", inm, a.status, a.header.Get("ETag"))
					}
				}
				if a := get(t, url+"/v1/"+date+"/"+tc.path, "If-None-Match", `"0000"`); a.status != 200 {
					t.Errorf("If-None-Match of another tag: status %d", a.status)
				}
				if a := do(t, http.MethodHead, url+"/v1/"+date+"/"+tc.path); a.status != 200 || a.body != "" || a.header.Get("Content-Length") != strconv.Itoa(len(want)) {
					t.Errorf("HEAD: status %d, %d bytes, Content-Length %s", a.status, len(a.body), a.header.Get("Content-Length"))
				}
			})
		}
	}
}

// TestCarbon: the seed page's figures, and the rows and files behind them.
func TestCarbon(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	a := get(t, url+"/v1/latest/carbon?model=Qwen+3+32B&grid=Saudi+Arabia&grid=nor&gpu=B200&intensity=692")
	if a.status != 200 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	var ans struct {
		Snapshot string
		Rows     []struct {
			GPU          string      `json:"gpu"`
			NumGPUs      int         `json:"num_gpus"`
			RowID        string      `json:"row_id"`
			Wh           json.Number `json:"wh_per_million_output_tokens"`
			Unrounded    float64     `json:"wh_per_million_output_tokens_unrounded"`
			Grid         string      `json:"grid"`
			GridYear     *int        `json:"grid_year"`
			G            json.Number `json:"g_co2e_per_kwh"`
			KgPerBillion json.Number `json:"kg_co2e_per_billion_output_tokens"`
		}
		Files []struct{ Path, SHA256 string }
	}
	dec := json.NewDecoder(strings.NewReader(a.body))
	dec.UseNumber()
	if err := dec.Decode(&ans); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ans.Rows {
		y := "null"
		if r.GridYear != nil {
			y = strconv.Itoa(*r.GridYear)
		}
		got = append(got, strings.Join([]string{strconv.Itoa(r.NumGPUs), r.GPU, string(r.Wh), r.Grid, string(r.G), y, string(r.KgPerBillion)}, " "))
	}
	want := []string{"1 B200 39.05 Saudi Arabia 692.0 2024 27.0", "1 B200 39.05 Norway 30.0 2024 1.2", "1 B200 39.05 stated 692.0 null 27.0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if ans.Snapshot != catalogtest.Date || len(ans.Files) != 6 || ans.Files[2].Path != "grid.json" || ans.Files[2].SHA256 != sha(snapFile(t, "grid.json")) {
		t.Errorf("snapshot %s, files %+v", ans.Snapshot, ans.Files)
	}
	if a.header.Get("Cache-Control") != "public, max-age=60" {
		t.Errorf("Cache-Control %q for latest", a.header.Get("Cache-Control"))
	}
	// Batch: one row per GPU, each a measured configuration.
	a = get(t, url+"/v1/"+catalogtest.Date+"/carbon?model=qwen-3-32b&grid=IND&batch=64")
	if a.status != 200 || !strings.Contains(a.body, `"running_batch": 64.0`) || strings.Count(a.body, `"row_id": "qwen-3-32b/`) != 2 {
		t.Errorf("batch=64: status %d\n%s", a.status, a.body)
	}
	// A batch is matched with the index row's GPU count (2 x H100), or with
	// the count asked for.
	for q, want := range map[string]string{"": "qwen-3-32b/H100/2/32", "&num_gpus=1": "qwen-3-32b/H100/1/32", "&num_gpus=2": "qwen-3-32b/H100/2/32"} {
		a = get(t, url+"/v1/latest/carbon?model=qwen-3-32b&grid=NOR&gpu=H100&batch=30"+q)
		if a.status != 200 || strings.Count(a.body, `"row_id": "`+want+`"`) != 1 || strings.Count(a.body, `"row_id"`) != 1 {
			t.Errorf("batch=30%s: status %d, want %s\n%s", q, a.status, want, a.body)
		}
	}
	// Every grid when none is named.
	a = get(t, url+"/v1/latest/carbon?model=qwen-3-32b&gpu=h100")
	if a.status != 200 || strings.Count(a.body, `"grid_source": "ember"`) != 7 {
		t.Errorf("every grid: status %d\n%s", a.status, a.body)
	}
}

// problemOf decodes a problem+json answer.
func problemOf(t *testing.T, a answer) Problem {
	t.Helper()
	var p Problem
	if ct := a.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json; body %s", ct, a.body)
	}
	if err := json.Unmarshal([]byte(a.body), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBadInput: every bad request is a problem+json 400 or 404 (405 for a
// method), the unknown names with the nearest ones, and nothing is read
// from a path built from the request.
func TestBadInput(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	grids := func(n int, name string) string {
		return strings.Repeat("&grid="+name, n)
	}
	for _, tc := range []struct {
		name, path string
		status     int
		param      string
		nearest    []string
	}{
		{"unknown model", "/v1/latest/carbon?model=qwen-3-33b&grid=IND", 404, "model", []string{"qwen-3-32b", "qwen-3-14b", "qwen-3-8b"}},
		{"unknown grid", "/v1/latest/carbon?model=qwen-3-32b&grid=Germny", 404, "grid", []string{"Germany"}},
		{"unknown gpu", "/v1/latest/carbon?model=qwen-3-32b&gpu=A100", 404, "gpu", []string{"H100"}},
		{"unknown date", "/v1/2026-09-28/models", 404, "snapshot", []string{"2026-09-27"}},
		{"not a date", "/v1/yesterday/models", 404, "snapshot", nil},
		{"unknown slug", "/v1/latest/models/qwen-3-33b", 404, "model", []string{"qwen-3-32b", "qwen-3-14b", "qwen-3-8b"}},
		{"%2f in a slug", "/v1/latest/models/..%2f..%2fmanifest", 404, "model", nil},
		{"%2f to a source", "/v1/latest/models/..%2fsources%2fleaderboard%2findex", 404, "model", nil},
		{"%2f in a date", "/v1/..%2f..%2fetc/models", 404, "snapshot", nil},
		{"missing model", "/v1/latest/carbon?grid=IND", 400, "model", nil},
		{"unknown parameter", "/v1/latest/carbon?model=qwen-3-32b&grids=IND", 400, "grids", nil},
		{"model twice", "/v1/latest/carbon?model=qwen-3-32b&model=qwen-3-14b", 400, "model", nil},
		{"51 grids", "/v1/latest/carbon?model=qwen-3-32b" + grids(51, "IND"), 400, "grid", nil},
		{"500 grids", "/v1/latest/carbon?model=qwen-3-32b" + grids(500, "NOR"), 400, "grid", nil},
		{"non-numeric num_gpus", "/v1/latest/carbon?model=qwen-3-32b&num_gpus=two", 400, "num_gpus", nil},
		{"fractional num_gpus", "/v1/latest/carbon?model=qwen-3-32b&num_gpus=1.5", 400, "num_gpus", nil},
		{"zero num_gpus", "/v1/latest/carbon?model=qwen-3-32b&num_gpus=0", 400, "num_gpus", nil},
		{"num_gpus twice", "/v1/latest/carbon?model=qwen-3-32b&num_gpus=1&num_gpus=2", 400, "num_gpus", nil},
		{"num_gpus not measured", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&num_gpus=8", 404, "num_gpus", []string{"1", "2"}},
		{"negative batch", "/v1/latest/carbon?model=qwen-3-32b&batch=-8", 400, "batch", nil},
		{"zero batch", "/v1/latest/carbon?model=qwen-3-32b&batch=0", 400, "batch", nil},
		{"non-numeric batch", "/v1/latest/carbon?model=qwen-3-32b&batch=eight", 400, "batch", nil},
		{"NaN batch", "/v1/latest/carbon?model=qwen-3-32b&batch=NaN", 400, "batch", nil},
		{"infinite batch", "/v1/latest/carbon?model=qwen-3-32b&batch=Inf", 400, "batch", nil},
		{"negative intensity", "/v1/latest/carbon?model=qwen-3-32b&intensity=-1", 400, "intensity", nil},
		{"non-numeric intensity", "/v1/latest/carbon?model=qwen-3-32b&intensity=low", 400, "intensity", nil},
		{"huge intensity", "/v1/latest/carbon?model=qwen-3-32b&intensity=1e300", 400, "intensity", nil},
		{"pue below 1", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&pue=0.99", 400, "pue", nil},
		{"pue above 3", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&pue=3.01", 400, "pue", nil},
		{"NaN pue", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&pue=NaN", 400, "pue", nil},
		{"infinite pue", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&pue=Inf", 400, "pue", nil},
		{"overflowing pue", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&pue=1e999", 400, "pue", nil},
		{"non-numeric pue", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&pue=high", 400, "pue", nil},
		{"pue twice", "/v1/latest/carbon?model=qwen-3-32b&grid=NOR&pue=1.1&pue=1.2", 400, "pue", nil},
		{"malformed query", "/v1/latest/carbon?model=%zz", 400, "query", nil},
		{"huge query", "/v1/latest/carbon?model=qwen-3-32b&grid=" + strings.Repeat("x", MaxQueryBytes+1), 400, "query", nil},
		{"huge path", "/v1/latest/models/" + strings.Repeat("x", MaxPathBytes), 414, "", nil},
		{"unknown endpoint", "/v1/latest/pages/qwen-3-32b", 404, "", nil},
		{"unknown top path", "/etc/passwd", 404, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := get(t, url+tc.path)
			p := problemOf(t, a)
			if a.status != tc.status || p.Status != tc.status || p.Parameter != tc.param || !strings.HasPrefix(p.Type, ProblemType) || p.Detail == "" {
				t.Errorf("status %d, problem %+v; want %d about %q", a.status, p, tc.status, tc.param)
			}
			if tc.nearest != nil {
				if diff := cmp.Diff(tc.nearest, p.Nearest); diff != "" {
					t.Errorf("nearest (-want +got):\n%s", diff)
				}
			}
			if a.header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q on an error", a.header.Get("Cache-Control"))
			}
		})
	}

	// A number out of range is echoed as it was asked.
	for _, q := range []string{"batch=Inf", "batch=1e6", "intensity=-0.5", "intensity=2e3.0", "pue=3.5", "pue=0.5e0"} {
		a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&"+q)
		name, value, _ := strings.Cut(q, "=")
		if p := problemOf(t, a); a.status != 400 || p.Parameter != name || p.Query != value {
			t.Errorf("%s: status %d, parameter %q, query %q; want 400 about %s %q", q, a.status, p.Parameter, p.Query, name, value)
		}
	}

	// A path with ".." is cleaned (a redirect to the clean path, which
	// is then looked up like any other) or not found, never read from
	// disk.
	for _, path := range []string{"/v1/latest/models/../../../manifest.json", "/v1/latest/models/%2e%2e/%2e%2e/grid", "/v1/../../etc/passwd"} {
		a := get(t, url+path)
		if a.status == http.StatusTemporaryRedirect || a.status == http.StatusMovedPermanently {
			a = get(t, url+a.header.Get("Location"))
		}
		if p := problemOf(t, a); a.status != 404 || p.Status != 404 {
			t.Errorf("%s: status %d, want 404", path, a.status)
		}
	}

	// A request line over the header cap is refused by the server itself.
	a := get(t, url+"/v1/latest/carbon?model="+strings.Repeat("q", MaxHeaderBytes+(8<<10)))
	if a.status != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a %d KiB query: status %d, want 431", (MaxHeaderBytes+(8<<10))>>10, a.status)
	}
	// 50 grids is the most, and fine.
	if a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b"+grids(50, "IND")); a.status != 200 {
		t.Errorf("50 grids: status %d: %s", a.status, a.body)
	}

	// Methods.
	a = do(t, http.MethodPost, url+"/v1/latest/carbon?model=qwen-3-32b")
	if p := problemOf(t, a); a.status != 405 || p.Status != 405 || a.header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("POST: status %d, Allow %q", a.status, a.header.Get("Allow"))
	}
	a = do(t, http.MethodOptions, url+"/v1/latest/carbon", "Origin", "https://example.org", "Access-Control-Request-Method", "GET")
	if a.status != 204 || a.header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(a.header.Get("Access-Control-Allow-Methods"), "GET") {
		t.Errorf("preflight: status %d, headers %v", a.status, a.header)
	}
}

// TestTamperedSnapshot: a snapshot that fails its manifest check is not
// served; the others are, and latest is the greatest that passed.
func TestTamperedSnapshot(t *testing.T) {
	out := t.TempDir()
	catalogtest.Copy(t, filepath.Join(catalogtest.SharedSmall(t), catalogtest.Date), out)
	bad := catalogtest.BuildSmall(t, out, "2026-10-04", catalogtest.SevenGrids())
	model := filepath.Join(bad, "models", "qwen-3-32b.json")
	b, _ := os.ReadFile(model)
	if err := os.WriteFile(model, bytes.Replace(b, []byte("39.05"), []byte("3.905"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	url, _ := server(t, out)
	if a := get(t, url+"/v1/2026-10-04/models/qwen-3-32b"); a.status != 404 || problemOf(t, a).Parameter != "snapshot" {
		t.Errorf("tampered snapshot: status %d %s", a.status, a.body)
	}
	a := get(t, url+"/v1/snapshots")
	var l struct {
		Latest    string
		Snapshots []struct{ Date string }
	}
	json.Unmarshal([]byte(a.body), &l)
	if l.Latest != catalogtest.Date || len(l.Snapshots) != 1 {
		t.Errorf("snapshots: %s", a.body)
	}
	if a := get(t, url+"/v1/latest/models/qwen-3-32b"); a.status != 200 || a.body != string(smallSnapFile(t, "models/qwen-3-32b.json")) {
		t.Errorf("latest is not the good snapshot: status %d", a.status)
	}
}

func TestHealth(t *testing.T) {
	url, _ := server(t, t.TempDir())
	if a := get(t, url+"/healthz"); a.status != 200 {
		t.Errorf("healthz %d", a.status)
	}
	if a := get(t, url+"/readyz"); a.status != 503 || problemOf(t, a).Status != 503 {
		t.Errorf("readyz with no snapshot: %d", a.status)
	}
	if a := get(t, url+"/v1/latest/models"); a.status != 404 {
		t.Errorf("latest with no snapshot: %d", a.status)
	}
	url, _ = server(t, catalogtest.Shared(t))
	if a := get(t, url+"/readyz"); a.status != 200 {
		t.Errorf("readyz: %d", a.status)
	}
}

// TestAccessLog: one line per request, with its status.
func TestAccessLog(t *testing.T) {
	url, logs := server(t, catalogtest.Shared(t))
	get(t, url+"/v1/latest/models")
	get(t, url+"/v1/latest/carbon?model=nope")
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d log lines, want 2:\n%s", len(lines), logs)
	}
	for i, want := range []struct {
		path   string
		status int
	}{{"/v1/latest/models", 200}, {"/v1/latest/carbon", 404}} {
		var l struct {
			Msg, Method, Path string
			Status            int
		}
		if err := json.Unmarshal([]byte(lines[i]), &l); err != nil {
			t.Fatal(err)
		}
		if l.Msg != "request" || l.Method != "GET" || l.Path != want.path || l.Status != want.status {
			t.Errorf("log line %d: %s", i, lines[i])
		}
	}
}

// TestListings: /v1/snapshots and /v1/{date}/models.
func TestListings(t *testing.T) {
	url, _ := server(t, catalogtest.Shared(t))
	a := get(t, url+"/v1/snapshots")
	var l struct {
		Latest    string `json:"latest"`
		Snapshots []struct {
			Date      string `json:"date"`
			Compiled  string `json:"compiled"`
			Retrieved string `json:"retrieved"`
			GridYear  int    `json:"grid_year"`
			Models    int    `json:"models"`
			Manifest  string `json:"manifest_sha256"`
		} `json:"snapshots"`
	}
	if err := json.Unmarshal([]byte(a.body), &l); err != nil {
		t.Fatal(err)
	}
	if len(l.Snapshots) != 1 {
		t.Fatalf("snapshots: %s", a.body)
	}
	s := l.Snapshots[0]
	if l.Latest != catalogtest.Date || s.Date != catalogtest.Date || s.Retrieved != catalogtest.Retrieved || s.GridYear != 2024 || s.Models != 18 ||
		s.Compiled != "2026-02-16" || s.Manifest != sha(snapFile(t, "manifest.json")) {
		t.Errorf("snapshots: %s", a.body)
	}
	a = get(t, url+"/v1/latest/models")
	if a.status != 200 || strings.Count(a.body, `"slug"`) != 18 || !strings.Contains(a.body, `"wh_per_million_output_tokens": 39.05`) {
		t.Errorf("models: status %d\n%s", a.status, a.body)
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	bytes.Buffer
	mu sync.Mutex
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.Write(p)
}

// TestNoGrid: a snapshot built without the Ember stage has no /grid, and
// prices stated intensities only.
func TestNoGrid(t *testing.T) {
	out := t.TempDir()
	catalogtest.BuildSmall(t, out, catalogtest.Date, "")
	url, _ := server(t, out)
	if a := get(t, url+"/v1/latest/grid"); a.status != 404 || problemOf(t, a).Parameter != "file" {
		t.Errorf("/grid without grid.json: %d %s", a.status, a.body)
	}
	if a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&grid=NOR"); a.status != 404 || !strings.Contains(problemOf(t, a).Detail, "no grid.json") {
		t.Errorf("a grid without grid.json: %d %s", a.status, a.body)
	}
	if a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&gpu=B200&intensity=30"); a.status != 200 || !strings.Contains(a.body, `"kg_co2e_per_billion_output_tokens": 1.2`) {
		t.Errorf("a stated intensity without grid.json: %d %s", a.status, a.body)
	}
}

// TestCarbonFallback: on the snapshot built from the sample's Ember file
// pinned to 2024, a fallback area's row carries its own earlier year and
// fallback true, a reference-year area's 2024 and fallback false; the
// snapshot listing gives the reference year.
func TestCarbonFallback(t *testing.T) {
	url, _ := server(t, catalogtest.SharedReal(t))
	a := get(t, url+"/v1/latest/carbon?model=qwen-3-32b&gpu=B200&grid="+catalogtest.FallbackISO3+"&grid="+catalogtest.ReferenceName+"&intensity=100")
	if a.status != 200 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	var ans struct {
		Rows []struct {
			Grid     string      `json:"grid"`
			GridYear *int        `json:"grid_year"`
			Fallback *bool       `json:"fallback"`
			G        json.Number `json:"g_co2e_per_kwh"`
		}
	}
	dec := json.NewDecoder(strings.NewReader(a.body))
	dec.UseNumber()
	if err := dec.Decode(&ans); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range ans.Rows {
		y, f := "null", "absent"
		if r.GridYear != nil {
			y = strconv.Itoa(*r.GridYear)
		}
		if r.Fallback != nil {
			f = strconv.FormatBool(*r.Fallback)
		}
		got = append(got, strings.Join([]string{r.Grid, string(r.G), y, f}, " "))
	}
	want := []string{
		catalogtest.FallbackName + " " + catalogtest.FallbackValue + " " + strconv.Itoa(catalogtest.FallbackYear) + " true",
		catalogtest.ReferenceName + " 344.14 2024 false",
		"stated 100.0 null false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if a := get(t, url+"/v1/snapshots"); a.status != 200 || !strings.Contains(a.body, `"grid_year": 2024,`) {
		t.Errorf("snapshots: status %d\n%s", a.status, a.body)
	}
}
