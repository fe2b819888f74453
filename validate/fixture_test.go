package validate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/render"
	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"golang.org/x/tools/txtar"
)

// vtSeed is the leaderboard version the seeds were built from, in the
// repository's sample (testdata/ at its root).
var vtSeed = sample.Leaderboard()

// vtFile is an upstream file read in place.
type vtFile struct {
	path string
	data []byte
}

// vtVersionFiles reads the files of every leaderboard version the tests
// read (sample.Versions: the sample's one in make test, the eight of
// ../shared in make scale) that match pattern (relative to a version's
// folder, as "tasks/*.json"), sorted by path; it fails the test when none
// does.
func vtVersionFiles(t testing.TB, pattern string) []vtFile {
	t.Helper()
	dirs, _ := sample.Versions(t)
	var names []string
	for _, d := range dirs {
		m, err := filepath.Glob(filepath.Join(d, pattern))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Fatalf("no upstream files match %s in %s", pattern, dirs)
	}
	files := make([]vtFile, len(names))
	for i, p := range names {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = vtFile{p, data}
	}
	return files
}

// vtStabilityDir unpacks testdata/stability.txtar, the synthetic
// leaderboard with unstable rows, into a temporary folder and returns it.
func vtStabilityDir(t testing.TB) string {
	t.Helper()
	a, err := txtar.ParseFile("testdata/stability.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	vtDate            = "2026-09-27"
	vtRetrieved       = "2026-09-26"
	vtLeaderboardBase = "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/"
	vtCommitsURL      = "https://api.github.com/repos/ml-energy/leaderboard/commits?path=public/data/tasks&per_page=1"
)

// vtFixture describes a snapshot folder to lay out.
type vtFixture struct {
	// leaderboard is a folder holding index.json, commits.json and
	// tasks/lm-arena-chat.json (and optionally tasks/gpqa.json).
	leaderboard string
	// tasks are the manifest's selection tasks; default lm-arena-chat.
	tasks []string
	// mutate, when set, edits the built models before they are written
	// (the manifest then lists the edited bytes).
	mutate func(t *testing.T, models map[string]*format.Model)
	// grid adds the sample's Ember CSV and grid.json for 2024, built with
	// transform/grid.
	grid bool
	// exports adds exports/, written by the exports package from the
	// model files and grid.json.
	exports bool
}

// vtBuild lays out a snapshot folder DIR/2026-09-27 in t.TempDir() the way
// snapshots.Build does: the archived sources, model files produced by the
// transform package, and a manifest. It returns the folder.
func vtBuild(t *testing.T, f vtFixture) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), vtDate)
	if len(f.tasks) == 0 {
		f.tasks = []string{"lm-arena-chat"}
	}
	text := &vtLoadText(t).Leaderboard
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(f.leaderboard, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	write := func(rel string, b []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	var m Manifest
	m.Version, m.Date, m.Retrieved, m.Generator = "1", vtDate, vtRetrieved, ManifestGenerator{Module: "github.com/leadgreen/greentokens", Version: "(devel)"}
	m.Selection = ManifestSelection{ITLDeadlineMS: 500, MinSteadyStateSeconds: 20, MinBatchFraction: 0.85, Tasks: f.tasks}
	m.Licence = vtLicence(t)

	// Sources.
	names := []string{"leaderboard/index.json", "leaderboard/commits.json", "leaderboard/tasks/lm-arena-chat.json"}
	if _, err := os.Stat(filepath.Join(f.leaderboard, "tasks", "gpqa.json")); err == nil {
		names = append(names, "leaderboard/tasks/gpqa.json")
	}
	for _, task := range f.tasks {
		if name := "leaderboard/tasks/" + task + ".json"; !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, name := range names {
		b := read(strings.TrimPrefix(name, "leaderboard/"))
		write("sources/"+name, b)
		url := vtLeaderboardBase + strings.TrimPrefix(name, "leaderboard/")
		if name == "leaderboard/commits.json" {
			url = vtCommitsURL
		}
		m.Sources = append(m.Sources, ManifestSource{
			ManifestFile: vtFileEntry("sources/"+name, b), Name: name, URL: url,
			Retrieved: vtRetrieved, Producer: text.Producer, Licence: text.Licence,
		})
	}

	if f.grid {
		vtAddGrid(t, &m, write)
	}

	// Models, with the transform package.
	lb, excluded, err := transform.NewLeaderboard(transform.LeaderboardFiles{
		Index: read("index.json"), Commits: read("commits.json"), Primary: read("tasks/lm-arena-chat.json"),
		PrimaryURL: vtLeaderboardBase + "tasks/lm-arena-chat.json",
	}, vtDate, vtRetrieved)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range excluded {
		r := e.Row
		m.Exclusions = append(m.Exclusions, ManifestExclusion{Task: r.Task, Row: r.Index, ModelID: r.ModelID, GPU: r.GPU, NumGPUs: r.NumGPUs, MaxNumSeqs: r.MaxNumSeqs, Reason: e.Reason})
	}
	// Every other task's exclusions and files (tasks/TASK/), as the build
	// writes them.
	for _, task := range f.tasks {
		if task == "lm-arena-chat" {
			continue
		}
		ex, err := lb.AddTaskFile(task, read("tasks/"+task+".json"), vtLeaderboardBase+"tasks/"+task+".json")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ex {
			x := e.Exclusion
			m.Exclusions = append(m.Exclusions, ManifestExclusion{Task: x.Task, Row: x.Row, ModelID: x.ModelID, GPU: x.GPU, NumGPUs: x.NumGPUs, MaxNumSeqs: x.MaxNumSeqs, BatchSize: x.BatchSize, Reason: x.Reason})
		}
		files, err := transform.TaskFiles(lb, task)
		if err != nil {
			t.Fatal(err)
		}
		for _, tf := range files {
			b, err := format.Marshal(tf.Value)
			if err != nil {
				t.Fatal(err)
			}
			write(tf.Path, b)
			m.Outputs = append(m.Outputs, vtFileEntry(tf.Path, b))
		}
	}
	models, err := transform.Models(lb)
	if err != nil {
		t.Fatal(err)
	}
	bySlug := map[string]*format.Model{}
	for _, mo := range models {
		bySlug[mo.File.Slug] = mo.File
	}
	if f.mutate != nil {
		f.mutate(t, bySlug)
	}
	for slug, mo := range bySlug {
		b, err := format.Marshal(mo)
		if err != nil {
			t.Fatal(err)
		}
		p := "models/" + slug + ".json"
		write(p, b)
		m.Outputs = append(m.Outputs, vtFileEntry(p, b))
	}
	if f.exports {
		m.Outputs = append(m.Outputs, vtExports(t, dir, bySlug, f.tasks, f.grid)...)
	}
	sort.Slice(m.Sources, func(i, j int) bool { return m.Sources[i].Path < m.Sources[j].Path })
	sort.Slice(m.Outputs, func(i, j int) bool { return m.Outputs[i].Path < m.Outputs[j].Path })

	compiled, _, conflict, err := lb.Evidence(text)
	if err != nil {
		t.Fatal(err)
	}
	m.Evidence = ManifestEvidence{
		IndexLastUpdated: lb.Index.LastUpdated, LastCommitSHA: lb.Commit.SHA,
		LastCommitDate: lb.Commit.Date.Format("2006-01-02"), Compiled: compiled, Conflict: conflict,
	}
	vtWriteManifest(t, dir, &m)
	return dir
}

// vtLicence is the licence block a build of the fixture's release writes:
// the reviewed licence, and the pages' citation (render.CiteAs, the
// builder's) as its attribution.
func vtLicence(t *testing.T) *ManifestLicence {
	t.Helper()
	l := vtLoadText(t).Licence
	cite, err := render.CiteAs(vtDate, "")
	if err != nil {
		t.Fatal(err)
	}
	return &ManifestLicence{ID: l.ID, Name: l.Name, URL: l.URL, Scope: l.Scope, Attribution: cite}
}

// vtAddGrid archives the sample's Ember CSV, writes grid.json for 2024
// (the seeds' year) built by transform/grid, and lists both in m.
func vtAddGrid(t *testing.T, m *Manifest, write func(rel string, b []byte)) {
	t.Helper()
	csv, err := os.ReadFile(sample.Ember())
	if err != nil {
		t.Fatal(err)
	}
	tab, err := grid.Parse(bytes.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	g, sum, err := grid.Build(tab, 2024, grid.SourceMeta{URL: gridTestMeta.URL, Retrieved: vtRetrieved, DataVersion: vtDate})
	if err != nil {
		t.Fatal(err)
	}
	gj, err := format.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	text := vtLoadText(t).Ember
	write(gridSourceFile, csv)
	write(gridOutputFile, gj)
	m.Sources = append(m.Sources, ManifestSource{ManifestFile: vtFileEntry(gridSourceFile, csv), Name: gridEmberName,
		URL: gridTestMeta.URL, Retrieved: vtRetrieved, Producer: text.Producer, Licence: text.Licence})
	m.Outputs = append(m.Outputs, vtFileEntry(gridOutputFile, gj))
	m.Grid = gridManifestOf(t, sum)
}

func vtFileEntry(p string, b []byte) ManifestFile {
	sum := sha256.Sum256(b)
	return ManifestFile{Path: p, Size: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}
}

// vtReadManifest and vtWriteManifest edit a fixture's manifest.
func vtReadManifest(t *testing.T, dir string) *Manifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ManifestPath))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func vtWriteManifest(t *testing.T, dir string, m *Manifest) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestPath), bytes.TrimSuffix(buf.Bytes(), []byte("\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// vtEditFile rewrites a snapshot file with edit and, when fixSHA is set,
// updates the manifest's size and sha256 for it, so that only the other
// checks can catch the edit.
func vtEditFile(t *testing.T, dir, rel string, fixSHA bool, edit func([]byte) []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	nb := edit(append([]byte(nil), b...))
	if bytes.Equal(b, nb) {
		t.Fatalf("edit of %s changed nothing", rel)
	}
	if err := os.WriteFile(p, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	if !fixSHA {
		return
	}
	m := vtReadManifest(t, dir)
	found := false
	for i := range m.Outputs {
		if m.Outputs[i].Path == rel {
			m.Outputs[i] = vtFileEntry(rel, nb)
			found = true
		}
	}
	for i := range m.Sources {
		if m.Sources[i].Path == rel {
			m.Sources[i].ManifestFile = vtFileEntry(rel, nb)
			found = true
		}
	}
	if !found {
		t.Fatalf("%s is not in the manifest", rel)
	}
	vtWriteManifest(t, dir, m)
}

// vtReplace replaces the first occurrence of old, failing when absent.
func vtReplace(t *testing.T, old, new string) func([]byte) []byte {
	return func(b []byte) []byte {
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%q not found", old)
		}
		return bytes.Replace(b, []byte(old), []byte(new), 1)
	}
}

// vtReport returns Check's problems on the folder dir (nil when it passes).
func vtReport(t *testing.T, dir string) []Problem {
	t.Helper()
	err := Check(t.Context(), regfile.DirFS(dir))
	if err == nil {
		return nil
	}
	var r *Report
	if !errors.As(err, &r) {
		t.Fatalf("Check returned %T, want *Report: %v", err, err)
	}
	if len(r.Problems) == 0 {
		t.Fatalf("Check returned a Report with no problems")
	}
	return r.Problems
}

// vtSnap opens the folder dir for a single check: its files listed, with
// the manifest m.
func vtSnap(t *testing.T, dir string, m *Manifest) *snap {
	t.Helper()
	s := &snap{fsys: regfile.DirFS(dir), ctx: t.Context(), tasks: map[string]*taskData{}, text: vtLoadText(t), exports: &exportWant{}}
	s.list()
	s.manifest = m
	return s
}

func vtLoadText(t *testing.T) *sourcetext.Text {
	t.Helper()
	text, err := sourcetext.Load()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// recomputeModels rebuilds every model file from the stable rows, sorted
// by slug (see eachModel).
func recomputeModels(in *lbInputs, chat, index *problems) (models []*wantModel, broken map[string]bool, err error) {
	broken, err = eachModel(in, chat, index, func(m *wantModel) { models = append(models, m) })
	return models, broken, err
}

// problemsError is nil for no problems, else an error listing them.
func problemsError(what string, probs []Problem) error {
	if len(probs) == 0 {
		return nil
	}
	return errors.New(listProblems(what, probs))
}
