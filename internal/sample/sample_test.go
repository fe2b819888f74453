package sample

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// readmeRow is a row of the README's table: a file in backquotes, then its
// sha256 in backquotes among the other cells.
var readmeRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\|.*\\| `([0-9a-f]{64})` \\|")

// listed returns the sha256 of each file the sample's README lists, by
// its path below Root.
func listed(t *testing.T) map[string]string {
	t.Helper()
	readme := Read(t, "README.md")
	want := map[string]string{}
	for _, m := range readmeRow.FindAllSubmatch(readme, -1) {
		name := string(m[1])
		if _, dup := want[name]; dup {
			t.Errorf("the README lists %s twice", name)
		}
		want[name] = string(m[2])
	}
	if len(want) == 0 {
		t.Fatal("the README lists no file with its sha256")
	}
	return want
}

// TestFilesMatchREADME: every file of the sample is listed in its README
// with its sha256, which its bytes have, and every file listed is there.
func TestFilesMatchREADME(t *testing.T) {
	want := listed(t)
	seen := map[string]bool{}
	err := filepath.WalkDir(Root(), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(Root(), p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "README.md" {
			return nil
		}
		seen[rel] = true
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		switch w, ok := want[rel]; {
		case !ok:
			t.Errorf("testdata/%s is not in testdata/README.md: list it with its origin, retrieval date, sha256 and licence", rel)
		case hex.EncodeToString(sum[:]) != w:
			t.Errorf("testdata/%s has sha256 %x; its README lists %s", rel, sum, w)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("testdata/README.md lists %s, which is not in the folder", name)
		}
	}
}

// TestPaths: the paths the package hands out are files of the sample.
func TestPaths(t *testing.T) {
	for _, p := range []string{
		Leaderboard() + "/index.json", Leaderboard() + "/commits.json",
		Leaderboard() + "/tasks/lm-arena-chat.json", Leaderboard() + "/tasks/gpqa.json",
		Ember(), EmberWide(), Seed("qwen-3-32b.json"), Seed("qwen-3-14b.json"), Seed("qwen-3-32b.page.txt"),
	} {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: not a file of the sample (%v)", p, err)
		}
	}
}
