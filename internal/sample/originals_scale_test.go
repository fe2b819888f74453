//go:build scale

package sample

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/shared"
)

// TestCopiesEqualOriginals: every copy in the sample (upstream/, seeds/)
// is byte for byte its original in ../shared, at the same path.
func TestCopiesEqualOriginals(t *testing.T) {
	copies := 0
	for name := range listed(t) {
		if !strings.HasPrefix(name, "upstream/") && !strings.HasPrefix(name, "seeds/") {
			continue
		}
		copies++
		got := Read(t, filepath.FromSlash(name))
		want, err := os.ReadFile(shared.Path(t, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: no original in ../shared: %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("testdata/%s differs from ../shared/%s", name, name)
		}
	}
	if copies != 13 {
		t.Errorf("compared %d copies; want the 13 of upstream/ and seeds/", copies)
	}
}

// TestEmberWideAsWritten: the sample's file in Ember's July 2026 layout is
// what ../shared/tools/ember-wide writes from the 2023 and 2024 rows of
// ../shared's Ember CSV, as the README says.
func TestEmberWideAsWritten(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 not found: ../shared/tools/ember-wide needs it to write the file again (%v)", err)
	}
	long, err := os.ReadFile(shared.Path(t, "upstream", "ember", "co2-intensity-long-format.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// The file quotes no field: the year is the third comma-separated one.
	var rows bytes.Buffer
	for i, line := range bytes.SplitAfter(long, []byte("\n")) {
		if f := bytes.SplitN(line, []byte(","), 4); i == 0 || len(f) == 4 && (string(f[2]) == "2023" || string(f[2]) == "2024") {
			rows.Write(line)
		}
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "long-2023-2024.csv"), filepath.Join(dir, "wide.csv")
	if err := os.WriteFile(in, rows.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(py, shared.Path(t, "tools", "ember-wide"), in, out).CombinedOutput(); err != nil {
		t.Fatalf("ember-wide: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Read(t, "synthetic", "release_generation_yearly_global.csv")) {
		t.Errorf("ember-wide writes another file than testdata/synthetic/release_generation_yearly_global.csv (%d bytes, the sample's %d)",
			len(got), len(Read(t, "synthetic", "release_generation_yearly_global.csv")))
	}
}
