package snapshots

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompareTrees: verify's comparison of a rebuild with the stored
// snapshot finds every file that differs anywhere (in the middle, past the
// first block of a large file, shorter, longer), each only in the rebuild
// or only in the snapshot, and a stored file that cannot be read; files
// with the same bytes are not listed; a JSON file's change is told value
// by value.
func TestCompareTrees(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320 KB, five blocks
	bigChanged := bytes.Clone(big)
	bigChanged[250000] = 'X'
	stored := writeTree(t, map[string][]byte{
		"same.json":       []byte(`{"a": 1.5, "b": [1, 2, 3]}`),
		"models/mid.json": []byte(`{"a": 1.5, "b": [1, 2, 3]}`),
		"short.md":        []byte("line one\n"),
		"long.md":         []byte("line one\nline two\nline three\n"),
		"extra.json":      []byte(`{}`),
		"big.csv":         big,
		"big-same.csv":    big,
	})
	if err := syscall.Mkfifo(filepath.Join(stored, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	rebuilt := writeTree(t, map[string][]byte{
		"same.json":       []byte(`{"a": 1.5, "b": [1, 2, 3]}`),
		"models/mid.json": []byte(`{"a": 1.6, "b": [1, 2, 3]}`),
		"short.md":        []byte("line one\nline two\n"),
		"long.md":         []byte("line one\nline two\n"),
		"absent.json":     []byte(`{"new": true}`),
		"big.csv":         bigChanged,
		"big-same.csv":    big,
		"fifo.json":       []byte(`{}`),
	})
	diffs, err := compareTrees(stored, rebuilt)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, d := range diffs {
		kinds[d.Path] = d.Kind
	}
	want := map[string]string{
		"absent.json": "missing", "extra.json": "extra", "long.md": "changed", "models/mid.json": "changed",
		"short.md": "changed", "big.csv": "changed", "fifo.json": "changed",
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	for _, d := range diffs {
		switch d.Path {
		case "models/mid.json":
			if len(d.Changes) != 1 || d.Changes[0].Path != "a" || d.Changes[0].Stored != "1.5" || d.Changes[0].Rebuilt != "1.6" {
				t.Errorf("models/mid.json's changes: %+v, want a: 1.5 -> 1.6", d.Changes)
			}
		case "big.csv":
			if !strings.Contains(d.Note, "first difference at byte 250000") {
				t.Errorf("big.csv's note %q does not name byte 250000", d.Note)
			}
		case "fifo.json":
			if !strings.Contains(d.Note, "cannot be read") || !strings.Contains(d.Note, "named pipe") {
				t.Errorf("fifo.json's note %q does not say it cannot be read, a named pipe", d.Note)
			}
		}
	}
}

// TestStageWrittenTwice: a path opened twice is refused by the stage
// (O_EXCL), before or after the first is committed.
func TestStageWrittenTwice(t *testing.T) {
	for _, committed := range []bool{false, true} {
		st, err := newStage(t.TempDir(), seedDate)
		if err != nil {
			t.Fatal(err)
		}
		w, err := st.open("x.json")
		if err != nil {
			t.Fatal(err)
		}
		if committed {
			if _, err := w.commit(); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.open("x.json"); err == nil {
			t.Errorf("committed=%v: one path opened twice, both accepted", committed)
		}
		st.close()
	}
}

// writeTree writes files (by slash path) into a new folder.
func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
