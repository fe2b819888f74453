// Package snaptest holds what the tests of the store, diff, the build and
// verify share: the repository's sample as a build's source, builds with
// a fixed generator, snapshots built once per test binary, and the edits
// the tests make to a snapshot (a digit flipped, a file listed again in
// the manifest).
package snaptest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sample"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/diff"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// The seeds' release and retrieval dates.
const (
	SeedDate    = sample.SeedDate
	SeedFetched = sample.SeedRetrieved
)

// SeedLeaderboard is the leaderboard version the seeds were built from, in
// the repository's sample.
var SeedLeaderboard = sample.Leaderboard()

// SampleEmber is the sample's file of real intensity values in Ember's
// layout.
var SampleEmber = sample.Ember()

// repo is the repository's root, from the sample's leaderboard folder
// (REPO/testdata/upstream/leaderboard/VERSION).
func repo() string { return filepath.Join(SeedLeaderboard, "..", "..", "..", "..") }

// SevenGridsCSV is the seed page's seven 2024 grid values in Ember's
// layout.
func SevenGridsCSV() string {
	return filepath.Join(repo(), "render", "testdata", "ember-seed-2024.csv")
}

// SourceOf reads the leaderboard version folder dir and SampleEmber.
func SourceOf(dir string) fetch.Dir {
	return fetch.Dir{Leaderboard: dir, Ember: SampleEmber, Origins: fetch.DefaultOrigins()}
}

// SeedSource is the seeds' leaderboard version with SampleEmber.
func SeedSource() fetch.Dir { return SourceOf(SeedLeaderboard) }

// SmallLeaderboard is sample.SmallLeaderboard: the seeds' version cut to
// eight models, for the tests of what does not depend on a build's size.
func SmallLeaderboard(t testing.TB) string {
	t.Helper()
	return sample.SmallLeaderboard(t)
}

// SmallSource is SmallLeaderboard with SampleEmber.
func SmallSource(t testing.TB) fetch.Dir {
	t.Helper()
	return SourceOf(SmallLeaderboard(t))
}

// OtherSource gives a snapshot other than SeedSource's: the seeds'
// leaderboard version with the seed page's seven grid values instead.
func OtherSource() fetch.Dir {
	return fetch.Dir{Leaderboard: SeedLeaderboard, Ember: SevenGridsCSV(), Origins: fetch.DefaultOrigins()}
}

// SmallOtherSource is OtherSource with SmallLeaderboard.
func SmallOtherSource(t testing.TB) fetch.Dir {
	t.Helper()
	return fetch.Dir{Leaderboard: SmallLeaderboard(t), Ember: SevenGridsCSV(), Origins: fetch.DefaultOrigins()}
}

// Generator is the fixed generator of the tests' builds: builds that are
// compared record the same code whatever binary runs them.
var Generator = format.Generator{Module: "github.com/leadgreen/greentokens", Version: "v0.0.0-test",
	Revision: "0123456789abcdef0123456789abcdef01234567", Go: "go1.26.0"}

// Build builds the seeds' date from src into out, recording Generator.
func Build(t testing.TB, out string, src fetch.Source) (*build.Result, error) {
	t.Helper()
	return BuildBy(t, out, src, Generator)
}

// BuildBy builds with gen as the manifest's generator.
func BuildBy(t testing.TB, out string, src fetch.Source, gen format.Generator) (*build.Result, error) {
	t.Helper()
	return build.Build(context.Background(), build.Options{Out: out, Date: SeedDate, Retrieved: SeedFetched, Source: src, Generator: &gen})
}

// Load loads the snapshot folder dir, failing the test on an error.
func Load(t testing.TB, dir string) *store.Release {
	t.Helper()
	r, err := store.LoadDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Diff is diff.Diff of two loaded releases, failing the test when it
// does not finish or finds a figure that is no rounding of its upstream
// value (the snapshots the tests build have none).
func Diff(t testing.TB, old, new *store.Release) *diff.Report {
	t.Helper()
	r, err := diff.Diff(context.Background(), old, new)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Err(); err != nil {
		t.Error(err)
	}
	return r
}

// Tree returns every file below dir with its bytes, by slash path.
func Tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// CopyDir copies the folder from into to (a leaderboard version, a
// snapshot), for a test that breaks one file.
func CopyDir(t testing.TB, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// AssertEmpty checks that a failed build left nothing in out but the lock.
func AssertEmpty(t testing.TB, out string) {
	t.Helper()
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.Name() != store.LockFile {
			t.Errorf("a failed build left %s in the output folder", e.Name())
		}
	}
}

// Slow marks a slow check (the 10,000-model scale and memory test, two
// builds of one date racing for the folder): under -short it is skipped.
// "make test" runs go test -short, the fast set; "make scale" runs every
// test, these too, and CI runs both.
func Slow(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("slow: run by make scale")
	}
}

// The snapshots built once per test binary, under root; Main removes it.
var (
	root = sync.OnceValues(func() (string, error) {
		return os.MkdirTemp("", "greentokens-snapshots-test-")
	})
	versions struct {
		sync.Mutex
		dirs map[string]string
	}
)

// Main runs the tests of m, then removes the snapshots built once and the
// small leaderboard version.
func Main(m *testing.M) {
	code := sample.Run(m)
	if dir, err := root(); err == nil {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// Root is a folder made once per test binary, which Main removes.
func Root() (string, error) { return root() }

// SeedSnapshot is VersionSnapshot of the seeds' version.
func SeedSnapshot(t testing.TB) string {
	t.Helper()
	return VersionSnapshot(t, SeedLeaderboard)
}

// SmallSnapshot is VersionSnapshot of SmallLeaderboard.
func SmallSnapshot(t testing.TB) string {
	t.Helper()
	return VersionSnapshot(t, SmallLeaderboard(t))
}

// VersionSnapshot builds a snapshot (date SeedDate) from a leaderboard
// version folder once per test binary and returns its folder. Tests must
// not change it: CopySnapshot gives a copy to tamper with.
func VersionSnapshot(t testing.TB, leaderboard string) string {
	t.Helper()
	versions.Lock()
	defer versions.Unlock()
	if dir, ok := versions.dirs[leaderboard]; ok {
		return dir
	}
	dir, err := root()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(t, filepath.Join(dir, strconv.Itoa(len(versions.dirs))), SourceOf(leaderboard))
	if err != nil {
		t.Fatal(err)
	}
	if versions.dirs == nil {
		versions.dirs = map[string]string{}
	}
	versions.dirs[leaderboard] = res.Dir
	return res.Dir
}

// CopySnapshot copies the seed snapshot to a new folder named for its date.
func CopySnapshot(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), SeedDate)
	CopyDir(t, SeedSnapshot(t), dst)
	return dst
}

// CopySmallSnapshot copies SmallSnapshot to a new folder named for its
// date.
func CopySmallSnapshot(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), SeedDate)
	CopyDir(t, SmallSnapshot(t), dst)
	return dst
}

// EditJSON rewrites the JSON object in the file at path after f, indented,
// its numbers as they were spelled.
func EditJSON(t testing.TB, path string, f func(v map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	f(v)
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// FlipDigit replaces the first match of re in the file with the match's
// text where its last digit is changed (9 becomes 8, any other d becomes
// d+1).
func FlipDigit(t testing.TB, path string, re string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	loc := regexp.MustCompile(re).FindIndex(b)
	if loc == nil {
		t.Fatalf("%s: no match for %s", path, re)
	}
	i := loc[1] - 1
	if b[i] < '0' || b[i] > '9' {
		t.Fatalf("%s: the match of %s does not end in a digit", path, re)
	}
	if b[i] == '9' {
		b[i] = '8'
	} else {
		b[i]++
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Relist writes data as the listed file rel (a slash path) of the snapshot
// folder dir, and lists its new size and sha256 in the manifest, in its
// canonical form.
func Relist(t testing.TB, dir, rel string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	EditManifest(t, dir, func(man *format.Manifest) {
		found := false
		for _, f := range ManifestFiles(man) {
			if f.Path == rel {
				f.Size, f.SHA256 = int64(len(data)), hex.EncodeToString(sum[:])
				found = true
			}
		}
		if !found {
			t.Fatalf("%s does not list %s", format.ManifestPath, rel)
		}
	})
}

// RewriteModel changes a model file of the snapshot folder dir with edit,
// writes it as a build would, and lists its new size and sha256 in the
// manifest, so that the folder still loads.
func RewriteModel(t testing.TB, dir, slug string, edit func(*format.Model)) {
	t.Helper()
	m, err := Load(t, dir).Model(slug)
	if err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := format.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	Relist(t, dir, format.ModelPath(slug), b)
}

// EditManifest rewrites dir's manifest.json in its canonical form after
// edit.
func EditManifest(t testing.TB, dir string, edit func(*format.Manifest)) {
	t.Helper()
	mb, err := os.ReadFile(filepath.Join(dir, format.ManifestPath))
	if err != nil {
		t.Fatal(err)
	}
	var man format.Manifest
	if err := json.Unmarshal(mb, &man); err != nil {
		t.Fatal(err)
	}
	edit(&man)
	if mb, err = format.Marshal(&man); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, format.ManifestPath), mb, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ManifestFiles are the entries of every listed source, then every listed
// output, of m, to edit in place.
func ManifestFiles(m *format.Manifest) []*format.File {
	var out []*format.File
	for i := range m.Sources {
		out = append(out, &m.Sources[i].File)
	}
	for i := range m.Outputs {
		out = append(out, &m.Outputs[i])
	}
	return out
}
