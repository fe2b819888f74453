package validate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/internal/sample"
)

// TestEarlyForReusesOnlyWhatIsOnDisk: the grid check takes the rows Early
// read when the manifest lists those bytes and the file on disk still
// holds them, and reads the file again otherwise: when Early read other
// bytes, when the manifest's sha256 differs, and when the file changed
// after Early read it.
func TestEarlyForReusesOnlyWhatIsOnDisk(t *testing.T) {
	// A few lines of the sample's Ember CSV: its header and intensity rows.
	f, err := os.Open(sample.Ember())
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	sc := bufio.NewScanner(f)
	for i := 0; i < 5 && sc.Scan(); i++ {
		csv.WriteString(sc.Text() + "\n")
	}
	f.Close()
	data := []byte(csv.String())

	dir := t.TempDir()
	p := filepath.Join(dir, filepath.FromSlash(gridSourceFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	source := ManifestSource{ManifestFile: ManifestFile{Path: gridSourceFile, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, Name: gridEmberName}

	read := func(r io.ReadCloser) map[string]*earlyFile {
		e := Begin(context.Background(), dir)
		e.Ember(gridSourceFile, r)
		e.Wait()
		return e.files
	}
	readFile := func() map[string]*earlyFile {
		r, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		return read(r)
	}
	snap := func(early map[string]*earlyFile, src ManifestSource) *Snap {
		return &Snap{Dir: dir, Manifest: &Manifest{Sources: []ManifestSource{src}}, early: early}
	}

	// Early read other bytes (of the same length) than the file holds,
	// which are the manifest's: not taken.
	flipped := []byte(strings.Replace(string(data), "gCO2/kWh,", "gCO2/kWh;", 1))
	if len(flipped) != len(data) || string(flipped) == string(data) {
		t.Fatal("no byte flipped")
	}
	if snap(read(io.NopCloser(bytes.NewReader(flipped))), source).earlyFor(gridSourceFile) != nil {
		t.Error("the rows Early read were taken, though it read other bytes than the file holds")
	}

	early := readFile()
	if f := early[gridSourceFile]; f == nil || f.grid == nil || len(f.grid.rows) == 0 {
		t.Fatalf("Early read no intensity rows: %+v", f)
	}
	if snap(early, source).earlyFor(gridSourceFile) == nil {
		t.Error("the rows Early read were not taken, though the file and the manifest hold their bytes")
	}
	other := source
	other.SHA256 = strings.Repeat("0", 64)
	if snap(early, other).earlyFor(gridSourceFile) != nil {
		t.Error("the rows Early read were taken, though the manifest lists other bytes")
	}
	if err := os.WriteFile(p, append(data, "Nowhere,XXX,2022\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if snap(early, source).earlyFor(gridSourceFile) != nil {
		t.Error("the rows Early read were taken, though the file changed after")
	}
}

// TestEarlyOutputs: a model file Early found valid as it was written
// takes no schema check of its own when the snapshot is checked, while
// its bytes on disk are the ones Early checked; one changed on disk after
// (its manifest entry changed too, so that only the schema can object) is
// checked again, and the build's checks report what the folder alone gives.
// One that Early does not find valid is not taken. Not parallel: it reads
// earlyTaken.
func TestEarlyOutputs(t *testing.T) {
	var models []string
	begin := func(dir string) *Early {
		e := Begin(context.Background(), dir)
		paths, err := filepath.Glob(filepath.Join(dir, "models", "*.json"))
		if err != nil || len(paths) == 0 {
			t.Fatalf("no model files: %v", err)
		}
		models = models[:0]
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel := "models/" + filepath.Base(p)
			models = append(models, rel)
			e.Output(rel, b)
		}
		return e
	}

	dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
	before := earlyTaken.Load()
	e := begin(dir)
	if len(models) > earlyQueue {
		t.Fatalf("%d model files: more than Output's queue holds", len(models))
	}
	if err := e.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if n := earlyTaken.Load() - before; n != int64(len(models)) {
		t.Errorf("%d model files took Early's verdict, want all %d", n, len(models))
	}

	dir = vtBuild(t, vtFixture{leaderboard: vtSeed})
	e = begin(dir)
	const changed = "models/qwen-3-32b.json"
	vtEditFile(t, dir, changed, true, vtReplace(t, `"architecture": "Dense Transformer"`, `"architecture": 7`))
	before = earlyTaken.Load()
	got := e.Snapshot()
	if n := earlyTaken.Load() - before; n != int64(len(models)-1) {
		t.Errorf("%d model files took Early's verdict, want all but the changed one (%d)", n, len(models)-1)
	}
	want := vtReport(t, dir)
	r, ok := got.(*Report)
	if !ok {
		t.Fatalf("the build's checks: %v, want a *Report", got)
	}
	if diff := cmp.Diff(want, r.Problems); diff != "" {
		t.Errorf("the build's checks differ from Snapshot of the folder (-want +got):\n%s", diff)
	}
	schema := false
	for _, p := range r.Problems {
		schema = schema || p.File == changed && p.Field == "architecture"
	}
	if !schema {
		t.Errorf("no schema problem in %s's architecture: %v", changed, r.Problems)
	}

	// Bytes the fast pass does not find valid are not taken.
	e, _ = beginWithOutput(t, dir, changed)
	e.Wait()
	if len(e.outputs) != 0 {
		t.Errorf("Early took an invalid model file: %v", e.outputs)
	}
}

// TestEarlyTasks: a task file Early parsed is taken by the checks while
// its bytes on disk are those Early read; one changed after (its manifest
// entry too) is parsed again, and the build's checks report what the
// folder alone gives; a parse that took the three passes (a file with
// problems) is not kept. Not parallel: it reads earlyTasksTaken.
func TestEarlyTasks(t *testing.T) {
	begin := func(dir string) *Early {
		e := Begin(context.Background(), dir)
		e.Task(taskChat, IndexChatTask)
		e.Task(taskGPQA, IndexProblemTask)
		e.Wait()
		if len(e.tasks) != 2 {
			t.Fatalf("Early parsed %d task files, want 2", len(e.tasks))
		}
		return e
	}
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed, tasks: []string{taskChat, taskGPQA}})
	before := earlyTasksTaken.Load()
	if err := begin(dir).Snapshot(); err != nil {
		t.Fatal(err)
	}
	if n := earlyTasksTaken.Load() - before; n != 2 {
		t.Errorf("%d early parses taken, want 2", n)
	}

	// A figure of a stable row changed on disk after the parse.
	e := begin(dir)
	vtEditFile(t, dir, IndexChatTask, true, vtReplace(t, `"energy_per_token_joules": 0.6993091867226764`, `"energy_per_token_joules": 0.7993091867226764`))
	before = earlyTasksTaken.Load()
	got := e.Snapshot()
	if n := earlyTasksTaken.Load() - before; n != 1 {
		t.Errorf("%d early parses taken, want 1 (gpqa's)", n)
	}
	want := vtReport(t, dir)
	r, ok := got.(*Report)
	if !ok || len(want) == 0 {
		t.Fatalf("the build's checks: %v; the folder's: %v; want problems from both", got, want)
	}
	if diff := cmp.Diff(want, r.Problems); diff != "" {
		t.Errorf("the build's checks differ from Snapshot of the folder (-want +got):\n%s", diff)
	}

	// A key given twice: the three passes, which word it.
	vtEditFile(t, dir, IndexChatTask, true, vtReplace(t, `"energy_per_token_joules": 0.7993091867226764`, `"energy_per_token_joules": 1.5, "energy_per_token_joules": 0.7993091867226764`))
	e = Begin(context.Background(), dir)
	e.Task(taskChat, IndexChatTask)
	e.Wait()
	if len(e.tasks) != 0 {
		t.Errorf("Early kept a parse of a file read three times")
	}
}

// TestEarlyReadsEndWithTheChecks: Early's reads of a task file fail once
// its context is done, so that a parse under way stops then (a review
// found one reading a large file to its end after the build was
// cancelled).
func TestEarlyReadsEndWithTheChecks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	e := Begin(ctx, t.TempDir())
	defer e.Wait()
	r := e.s.cancellable(strings.NewReader("0123456789"))
	b := make([]byte, 4)
	if n, err := r.Read(b); n != 4 || err != nil {
		t.Fatalf("before: read %d, %v", n, err)
	}
	cancel()
	if n, err := r.Read(b); n != 0 || err != context.Canceled {
		t.Errorf("after the context is done: read %d, %v; want 0, context.Canceled", n, err)
	}
}

// TestEarlyOutputSameSizeEdit: a model file changed on disk after Early
// checked it, to bytes of the same size, is checked again (by a review:
// the other test's edit changes the size).
func TestEarlyOutputSameSizeEdit(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
	const changed = "models/qwen-3-32b.json"
	e, b := beginWithOutput(t, dir, changed)
	vtEditFile(t, dir, changed, true, vtReplace(t, `"params_b": 32.0`, `"params_b": "32"`))
	if after, err := os.ReadFile(filepath.Join(dir, changed)); err != nil || len(after) != len(b) {
		t.Fatalf("the edit changed the size (%v)", err)
	}
	before := earlyTaken.Load()
	got := e.Snapshot()
	if n := earlyTaken.Load() - before; n != 0 {
		t.Errorf("%d model files took Early's verdict; want none", n)
	}
	r, ok := got.(*Report)
	if !ok {
		t.Fatalf("the build's checks: %v, want a *Report", got)
	}
	if diff := cmp.Diff(vtReport(t, dir), r.Problems); diff != "" {
		t.Errorf("the build's checks differ from Snapshot of the folder (-want +got):\n%s", diff)
	}
}

// TestHashOfCRCOnlyForWhatEarlySaw: the manifest check's one read of a
// file (hashOf) takes its CRC-32C for exactly the files Early read or
// checked (a model file by Output, a task file by Task), and that CRC is
// the file's; no other file's read takes one (a review of the change to CRC-32C).
func TestHashOfCRCOnlyForWhatEarlySaw(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed, tasks: []string{taskChat, taskGPQA}})
	const model = "models/qwen-3-32b.json"
	e, _ := beginWithOutput(t, dir, model)
	e.Task(taskChat, IndexChatTask)
	e.Wait()
	if len(e.outputs) != 1 || len(e.tasks) != 1 {
		t.Fatalf("Early took %d outputs and %d task files, want 1 and 1", len(e.outputs), len(e.tasks))
	}
	s, _ := open(context.Background(), dir)
	s.early, s.earlyOutputs, s.earlyTasks = e.files, e.outputs, e.tasks
	saw := map[string]bool{model: true, IndexChatTask: true}
	for _, p := range s.Files {
		h := s.hashOf(p)
		if h.err != nil {
			t.Fatalf("%s: %v", p, h.err)
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		want := uint32(0)
		if saw[p] {
			want = crc32.Checksum(data, castagnoli)
		}
		if h.crc != want {
			t.Errorf("%s: hashOf's CRC-32C is %#x, want %#x (Early saw it: %v)", p, h.crc, want, saw[p])
		}
	}
}

// closeRecorder is a reader that records whether it was closed.
type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

// TestEarlyTakesNothingAfterWait: once Wait has been called (the checks
// then share Early's maps), Task and Ember take no more work, and Ember
// closes the reader it is handed (a review's point).
func TestEarlyTakesNothingAfterWait(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed, tasks: []string{taskChat, taskGPQA}})
	e := Begin(context.Background(), dir)
	e.Wait()
	e.Task(taskChat, IndexChatTask)
	r := &closeRecorder{Reader: strings.NewReader("country,year\n")}
	e.Ember("sources/ember/x.csv", r)
	e.Wait()
	if len(e.tasks) != 0 || len(e.files) != 0 {
		t.Errorf("after Wait, Early took %d task files and %d sources, want none", len(e.tasks), len(e.files))
	}
	if !r.closed {
		t.Error("Ember did not close the reader it refused")
	}
}

// beginWithOutput begins Early on the snapshot folder dir and hands it the
// output at slash path p, read from disk, as a build would as it writes
// it; it returns Early and the bytes handed.
func beginWithOutput(t *testing.T, dir, p string) (*Early, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	e := Begin(context.Background(), dir)
	e.Output(p, b)
	return e, b
}
