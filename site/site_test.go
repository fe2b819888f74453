package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/render"
)

var (
	tagRE   = regexp.MustCompile(`<[^>]*>`)
	trRE    = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cellRE  = regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`)
	paraRE  = regexp.MustCompile(`(?s)<p>(.*?)</p>`)
	headRE  = regexp.MustCompile(`(?s)<h[1-6][^>]*>(.*?)</h[1-6]>`)
	blockRE = regexp.MustCompile(`(?s)<article class="model">(.*)</article>`)
)

// text is the visible text of an HTML fragment: tags dropped, entities decoded.
func text(s string) string { return html.UnescapeString(tagRE.ReplaceAllString(s, "")) }

func set(re *regexp.Regexp, s string, f func(string) string) map[string]bool {
	out := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out[f(m[1])] = true
	}
	return out
}

// TestSameTextAsMarkdown: every model's HTML page carries every heading,
// paragraph and table row of its Markdown page in the snapshot (pages/,
// written by the build), word for word, and no paragraph the Markdown lacks.
func TestSameTextAsMarkdown(t *testing.T) {
	dir := seedSnapshot(t)
	s := openSeed(t)
	for _, e := range s.pages.Index.Models {
		t.Run(e.Slug, func(t *testing.T) {
			md, err := os.ReadFile(filepath.Join(dir, "pages", e.Slug+".md"))
			if err != nil {
				t.Fatal(err)
			}
			b, err := s.Page(modelPath(e.Slug))
			if err != nil {
				t.Fatal(err)
			}
			m := blockRE.FindStringSubmatch(string(b))
			if m == nil {
				t.Fatal("no <article>")
			}
			article := m[1]
			paras := set(paraRE, article, text)
			heads := set(headRE, article, text)
			rows := set(trRE, article, func(r string) string {
				var cells []string
				for _, c := range cellRE.FindAllStringSubmatch(r, -1) {
					cells = append(cells, text(c[1]))
				}
				return "| " + strings.Join(cells, " | ") + " |"
			})
			mdParas := map[string]bool{}
			for _, block := range strings.Split(strings.TrimSpace(string(md)), "\n\n") {
				switch {
				case strings.HasPrefix(block, "#"):
					h := render.Plain(strings.TrimLeft(block, "# "))
					if !heads[h] {
						t.Errorf("no heading %q", h)
					}
				case strings.HasPrefix(block, "|"):
					for _, line := range strings.Split(block, "\n") {
						if strings.HasPrefix(line, "|---") {
							continue
						}
						if line = render.Plain(line); !rows[line] {
							t.Errorf("no table row %q", line)
						}
					}
				default:
					block = render.Plain(block)
					mdParas[block] = true
					if !paras[block] {
						t.Errorf("no paragraph %q", block)
					}
				}
			}
			for p := range paras {
				if !mdParas[p] {
					t.Errorf("a paragraph the Markdown page lacks: %q", p)
				}
			}
			if e.Slug == "qwen-3-32b" && !strings.Contains(article, `<tr class="index-row"><td class="nw">384</td><td class="nw">383</td><td class="nw">39.1</td>`) {
				t.Errorf("the 1 × B200 index row is not marked")
			}
		})
	}
}

// TestDeterministic: two sites of one snapshot are the same bytes, and
// WriteDir writes exactly the listed files.
func TestDeterministic(t *testing.T) {
	a, b := openSeed(t), openSeed(t)
	if diff := cmp.Diff(a.Paths(), b.Paths()); diff != "" {
		t.Fatal(diff)
	}
	out := t.TempDir()
	if err := a.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	var written []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			written = append(written, filepath.ToSlash(rel))
		}
		return err
	})
	if diff := cmp.Diff(a.Paths(), written); diff != "" {
		t.Errorf("written files (-listed +written):\n%s", diff)
	}
	for _, p := range a.Paths() {
		x, err := a.Page(p)
		if err != nil {
			t.Fatal(err)
		}
		y, err := b.Page(p)
		if err != nil {
			t.Fatal(err)
		}
		disk, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) || !bytes.Equal(x, disk) {
			t.Errorf("%s differs between two sites of one snapshot", p)
		}
	}
	for _, want := range []string{"index.html", "grids.html", "sources.html", "site.css", "site.js",
		"models/qwen-3-32b.html", "tasks/text-to-image/flux-1-dev.html", "tasks/gpqa/qwen-3-32b.html", "data/index.json", "data/grid.json", "data/manifest.json",
		"data/models/qwen-3-32b.json", "data/sources/leaderboard/tasks/lm-arena-chat.json"} {
		if _, err := a.Page(want); err != nil {
			t.Errorf("%s: %v", want, err)
		}
	}
	if len(a.Paths()) != 8+18+44+1+120+9 {
		t.Errorf("%d files; want 3 assets, 3 pages, robots.txt and feed.atom, 18 model pages, 44 task model pages, manifest and 120 outputs (32 of them exports), 9 JSON sources: %v", len(a.Paths()), a.Paths())
	}
}

// TestSelfContained: no page loads anything from another origin, every page
// carries the CSP, and no page has an inline script or style.
func TestSelfContained(t *testing.T) {
	s := openSeed(t)
	extRE := regexp.MustCompile(`(?i)(src|href)="(https?:)?//`)
	for _, p := range s.Paths() {
		if !strings.HasSuffix(p, ".html") {
			continue
		}
		b, _ := s.Page(p)
		h := string(b)
		if !strings.Contains(h, `<meta http-equiv="Content-Security-Policy" content="`+html.EscapeString(CSP)+`">`) &&
			!strings.Contains(h, `<meta http-equiv="Content-Security-Policy" content="`+template.HTMLEscapeString(CSP)+`">`) {
			t.Errorf("%s: no CSP meta", p)
		}
		for _, m := range regexp.MustCompile(`<(link|script|img)[^>]*>`).FindAllString(h, -1) {
			if extRE.MatchString(m) {
				t.Errorf("%s loads from elsewhere: %s", p, m)
			}
		}
		if regexp.MustCompile(`<script>|<script type="(text/)?javascript"|<style|style="| on[a-z]+="`).MatchString(h) {
			t.Errorf("%s has an inline script or style", p)
		}
	}
}

func TestHandler(t *testing.T) {
	s := openSeed(t)
	mux := http.NewServeMux()
	mux.Handle("/", s)
	mux.Handle("/"+s.Date()+"/", http.StripPrefix("/"+s.Date(), s))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	index, _ := s.Page("index.html")
	model, _ := s.Page("models/qwen-3-32b.html")
	icon, _ := s.Page("favicon.svg")
	data, err := os.ReadFile(filepath.Join(seedSnapshot(t), "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method, path string
		status       int
		ctype        string
		body         []byte
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", index},
		{"GET", "/index.html", 200, "text/html; charset=utf-8", index},
		{"GET", "/" + seedDate + "/", 200, "text/html; charset=utf-8", index},
		{"GET", "/models/qwen-3-32b.html", 200, "text/html; charset=utf-8", model},
		{"GET", "/" + seedDate + "/models/qwen-3-32b.html", 200, "text/html; charset=utf-8", model},
		{"GET", "/data/index.json", 200, "application/json", data},
		{"HEAD", "/site.css", 200, "text/css; charset=utf-8", nil},
		{"GET", "/robots.txt", 200, "text/plain; charset=utf-8", []byte("User-agent: *\nAllow: /\n")},
		{"GET", "/sitemap.xml", 404, "", nil},
		{"GET", "/favicon.ico", 200, "image/svg+xml", icon},
		{"GET", "/models/no-such-model.html", 404, "", nil},
		{"GET", "/manifest.json", 404, "", nil},
		{"GET", "/data/sources/ember/yearly_full_release_long_format.csv", 404, "", nil},
		{"POST", "/", 405, "", nil},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, resp.StatusCode, tc.status)
			continue
		}
		if tc.status != 200 {
			continue
		}
		if got := resp.Header.Get("Content-Type"); got != tc.ctype {
			t.Errorf("%s %s: Content-Type %q, want %q", tc.method, tc.path, got, tc.ctype)
		}
		if resp.Header.Get("Content-Security-Policy") != CSP || resp.Header.Get("ETag") == "" {
			t.Errorf("%s %s: no CSP header or ETag", tc.method, tc.path)
		}
		if tc.body != nil && !bytes.Equal(body, tc.body) {
			t.Errorf("%s %s: not the site's bytes", tc.method, tc.path)
		}
	}
}

// TestEscaping: upstream text reaches a page only through html/template:
// markup is shown as text and a script URL is not linked.
func TestEscaping(t *testing.T) {
	s := openSeed(t)
	hostile := `<script>alert("x")</script> & <b>bold</b>`
	d := modelData{frame: s.frame(hostile, "models/x.html", ""), GPUs: hostile, Blocks: []htmlBlock{
		{Kind: "h1", Text: hostile},
		{Kind: "p", Segs: append(segs("see https://example.org/a?b=<c> and "), seg{Text: "x", URL: "javascript:alert(1)"})},
		{Kind: "table", Table: &render.Table{Caption: hostile, Head: []string{hostile}, Rows: []render.TableRow{{Cells: []string{hostile}}}}},
	}}
	b, err := execute("model.tmpl", d)
	if err != nil {
		t.Fatal(err)
	}
	h := string(b)
	if strings.Contains(h, "<script>alert") || strings.Contains(h, "<b>bold") || strings.Contains(h, `href="javascript:`) {
		t.Errorf("unescaped upstream text:\n%s", h)
	}
	if !strings.Contains(h, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;") || !strings.Contains(h, `href="#ZgotmplZ"`) {
		t.Errorf("the hostile text is not shown escaped:\n%s", h)
	}
	if !strings.Contains(h, `<a href="https://example.org/a?b=">https://example.org/a?b=</a>&lt;c&gt;`) {
		t.Errorf("a URL is not linked up to the first character that cannot be in it:\n%s", h)
	}
}

func TestSegs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []seg
	}{
		{"no link", []seg{{Text: "no link"}}},
		{"at https://ml.energy/leaderboard/. Next", []seg{{Text: "at "}, {Text: "https://ml.energy/leaderboard/", URL: "https://ml.energy/leaderboard/"}, {Text: ". Next"}}},
		{"(https://a.org/x), b", []seg{{Text: "("}, {Text: "https://a.org/x", URL: "https://a.org/x"}, {Text: "), b"}}},
	} {
		if diff := cmp.Diff(tc.want, segs(tc.in)); diff != "" {
			t.Errorf("%q:\n%s", tc.in, diff)
		}
	}
}

// calcJSON is the calculator's data embedded in grids.html.
func calcJSON(t *testing.T, s *Site) calcData {
	t.Helper()
	b, err := s.Page("grids.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="calc-data">(.*?)</script>`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no calculator data in grids.html")
	}
	var d calcData
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestGridsPage(t *testing.T) {
	s := openSeed(t)
	d := calcJSON(t, s)
	if len(d.Grids) != 7 {
		t.Errorf("%d grids; want the seed's 7", len(d.Grids))
	}
	var qwen *calcModel
	for i := range d.Models {
		if d.Models[i].Slug == "qwen-3-32b" {
			qwen = &d.Models[i]
		}
	}
	if qwen == nil || len(qwen.Rows) != 2 || qwen.Rows[0].Label != "1 × B200" {
		t.Fatalf("Qwen 3 32B in the calculator: %+v", qwen)
	}
	// A running batch is priced among the index row's GPU count: the ten
	// configurations on 1 x B200, and the nine on 2 x H100 (not the three
	// on 1 x H100), each under its cap and running batch.
	var labels []string
	for _, r := range qwen.Rows {
		for _, c := range r.Batches {
			labels = append(labels, r.Label+", "+c.Label)
		}
	}
	if len(labels) != 19 || labels[0] != "1 × B200, cap 8, running batch 8" || labels[9] != "1 × B200, cap 512, running batch 456" ||
		labels[18] != "2 × H100, cap 384, running batch 340" || qwen.Rows[0].Config != "cap 384, running batch 383" {
		t.Errorf("Qwen 3 32B's configurations at a running batch: %q; index row %q", labels, qwen.Rows[0].Config)
	}
	for _, tc := range []struct {
		area, want string
	}{{"Saudi Arabia", "27.0"}, {"Norway", "1.2"}, {"India", "27.6"}} {
		for _, g := range d.Grids {
			if g.Name == tc.area {
				if got := render.Dec1(float64(pricing.KgPerBillionTokens(qwen.Rows[0].Wh, g.G))); got != tc.want {
					t.Errorf("%s: %s kg from the embedded figures, want %s", tc.area, got, tc.want)
				}
			}
		}
	}
	// An area whose value is not of the reference year shows its year.
	s.pages.Grid.Areas[0].Year = 2023
	b, err := s.gridsPage()
	if err != nil {
		t.Fatal(err)
	}
	a := s.pages.Grid.Areas[0]
	// Short cells (a name, a code, a value, a year) stay on one line; a
	// longer one wraps.
	if want := `<td class="nw">` + a.Name + `</td><td class="nw">` + a.ISO3 + "</td><td>" + a.AreaType + `</td><td class="nw">` + render.Short(a.GCO2ePerKWh) + ` (2023)</td><td class="nw">2023</td>`; !strings.Contains(string(b), want) {
		t.Errorf("grids.html lacks %q", want)
	}
	if !strings.Contains(string(b), "6 values are of 2024, the reference year, and 1 of an earlier year") {
		t.Errorf("grids.html does not count the values of an earlier year")
	}
	// The calculator's text says what it leaves out: overhead, and the
	// embodied emissions (SCI's M), in the words of every carbon answer.
	for _, want := range []string{"a PUE of 1", html.EscapeString(pricing.SCI().Embodied)} {
		if !strings.Contains(string(b), want) {
			t.Errorf("grids.html lacks %q", want)
		}
	}
	// The index does not call them all values of 2024 either.
	if b, err = s.indexPage(); err != nil {
		t.Fatal(err)
	}
	if want := "7 grids from Ember, each with its 2024 value or, for 1 without one, its latest earlier value"; !strings.Contains(string(b), want) {
		t.Errorf("index.html lacks %q", want)
	}
}

func TestSourcesPage(t *testing.T) {
	s := openSeed(t)
	b, _ := s.Page("sources.html")
	h := text(string(b))
	for _, want := range []string{
		"ML.ENERGY Leaderboard", "Apache-2.0 per the ml-energy/benchmark-v3 dataset card", "Ember: Yearly electricity data",
		"September 2026", "CC BY 4.0", "Chung et al.", "Cite the index", "328 stable configurations", "120 files derived",
		// The snapshot's own licence, from its manifest.
		"Creative Commons Attribution 4.0 International (CC-BY-4.0, https://creativecommons.org/licenses/by/4.0/): the files this snapshot derives",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("sources.html lacks %q", want)
		}
	}
	// A date is a short cell, kept on one line (never "2026-09-" over "26").
	if want := `<td class="nw">` + s.snap.Manifest.Retrieved + `</td>`; !strings.Contains(string(b), want) {
		t.Errorf("sources.html lacks %q", want)
	}
	for p := range s.data {
		if !strings.Contains(string(b), `href="`+p+`"`) {
			t.Errorf("sources.html does not link %s", p)
		}
	}
}

// TestWriteDir: a site is written whole into a new folder, replaces an
// earlier site (files it no longer has go), and refuses a folder of other
// files, leaving it as it was and nothing beside it.
func TestWriteDir(t *testing.T) {
	s := openSeed(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "deep", "web")
	if err := s.WriteDir(out); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(out, "models", "removed-model.html")
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteDir(out); err != nil {
		t.Fatalf("replacing an earlier site: %v", err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a file of the earlier site is still there: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "index.html")); err != nil || len(b) == 0 {
		t.Errorf("no index.html after the replacement: %v", err)
	}

	foreign := filepath.Join(parent, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	err := s.WriteDir(foreign)
	if !errors.Is(err, catalog.ErrConflict) || !strings.Contains(err.Error(), "choose a new or empty folder") {
		t.Errorf("writing into a folder of other files: %v; want a conflict", err)
	}
	entries, _ := os.ReadDir(foreign)
	if len(entries) != 1 {
		t.Errorf("the foreign folder was changed: %v", entries)
	}
	entries, _ = os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"deep", "foreign"}, names); diff != "" {
		t.Errorf("leftovers beside the output (-want +got):\n%s", diff)
	}
}

// TestMarkdownEscapesBecomePlainText: upstream text that the page escapes
// for Markdown (a backslash before each markup character) reads as itself on
// the HTML page, escaped there by html/template, in every kind of block.
func TestMarkdownEscapesBecomePlainText(t *testing.T) {
	const esc, plain = `\<b\>X\</b\> \*y\* a\|b`, `<b>X</b> *y* a|b`
	d := &render.Doc{Blocks: []render.Block{
		&render.Heading{Level: 1, Text: esc},
		&render.Heading{Level: 2, ID: "s", Text: esc},
		&render.Para{Text: "On " + esc + "."},
		&render.Table{Caption: esc, Head: []string{esc}, Rows: []render.TableRow{{Cells: []string{esc}}}},
		&render.Figure{ID: "energy", Title: esc, XLabel: "x", YLabel: "y", Alt: esc,
			Series: []render.Series{{Name: esc, Points: []render.Point{{X: 1, Y: 2, Label: esc}}}}},
		&render.Figure{ID: "carbon", Title: "c", XLabel: "x", Alt: "a", Bars: []render.Bar{{Label: esc, Value: 1, Text: "1.0"}}},
	}}
	blocks, open, err := htmlBlocks(d)
	if err != nil || !open {
		t.Fatalf("%v, section open %v", err, open)
	}
	s := openSeed(t)
	b, err := execute("model.tmpl", modelData{frame: s.frame("t", "models/t.html", ""), Blocks: blocks, Open: open})
	if err != nil {
		t.Fatal(err)
	}
	h := string(b)
	if strings.Contains(h, `\`) || strings.Contains(h, "<b>") {
		t.Errorf("a backslash escape or raw markup on the HTML page:\n%s", h)
	}
	if n := strings.Count(h, template.HTMLEscapeString(plain)); n < 9 {
		t.Errorf("the text shows as itself %d times, want every block's (9):\n%s", n, h)
	}
}

// TestEnergyScope: the index and a model page say what the energy covers
// in the words of the API and the MCP server.
func TestEnergyScope(t *testing.T) {
	s := openSeed(t)
	for _, p := range []string{"index.html", "models/qwen-3-32b.html"} {
		b, err := s.Page(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text(string(b)), format.EnergyScope()) {
			t.Errorf("%s lacks %q", p, format.EnergyScope())
		}
	}
}

// TestSourcesPageShowsNoControlCharacters: text of the snapshot that the
// sources page shows (the generator, a source's URL, an exclusion's model
// id and reason) reaches the page HTML-escaped and with every control
// character and bidi override shown as its escape, none raw.
func TestSourcesPageShowsNoControlCharacters(t *testing.T) {
	const hostile = "<b>x</b>\x1b[31m\r\x00\u202e\u0085"
	s := openSeed(t)
	m := s.snap.Manifest
	m.Generator.Module += hostile
	m.Sources[0].URL += hostile
	m.Exclusions = append(m.Exclusions, format.Exclusion{Task: "lm-arena-chat", ModelID: "org/x" + hostile, GPU: "H100", NumGPUs: 1, MaxNumSeqs: 8, Reason: "unstable" + hostile})
	b, err := s.sourcesPage()
	if err != nil {
		t.Fatal(err)
	}
	h := string(b)
	if strings.ContainsAny(h, "\x1b\r\x00\u202e\u0085") {
		t.Errorf("sources.html carries a control character raw")
	}
	shown := `&lt;b&gt;x&lt;/b&gt;\x1b[31m\r\x00\u202e\u0085`
	for _, want := range []string{"greentokens" + shown, "org/x" + shown, "unstable" + shown} {
		if !strings.Contains(h, want) {
			t.Errorf("sources.html does not show %q", want)
		}
	}
}
