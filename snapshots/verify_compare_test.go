package snapshots

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestComparingStage: Verify's rebuild stage compares each file with the
// stored one as it is written, whole or piece by piece: a file with the
// stored bytes is never written, one that differs anywhere (in the middle,
// shorter, longer, or not stored at all) is written out whole; the build
// reads back what it wrote either way; the size and sha256 are those of
// the written bytes; and the differences are listed by kind.
func TestComparingStage(t *testing.T) {
	stored := t.TempDir()
	for name, data := range map[string]string{
		"same.json":       `{"a": 1.5, "b": [1, 2, 3]}`,
		"models/mid.json": `{"a": 1.5, "b": [1, 2, 3]}`,
		"short.md":        "line one\n",
		"long.md":         "line one\nline two\nline three\n",
		"extra.json":      `{}`,
	} {
		p := filepath.Join(stored, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := comparingStage(t, stored)
	rebuilt := map[string]string{
		"same.json":       `{"a": 1.5, "b": [1, 2, 3]}`,
		"models/mid.json": `{"a": 1.6, "b": [1, 2, 3]}`,
		"short.md":        "line one\nline two\n",
		"long.md":         "line one\nline two\n",
		"absent.json":     `{"new": true}`,
	}
	for name, data := range rebuilt {
		if name == "long.md" { // piece by piece, as index.json and the Ember CSV are written
			w, err := st.open(name)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < len(data); i += 4 {
				if _, err := w.Write([]byte(data[i:min(i+4, len(data))])); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.commit(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := st.write(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}

	for name, data := range rebuilt {
		b, err := fs.ReadFile(st.fsys(), name)
		if err != nil || string(b) != data {
			t.Errorf("read back %s: %q, %v; want %q", name, b, err, data)
		}
		sum := sha256.Sum256([]byte(data))
		if f := st.files[name]; f.Size != int64(len(data)) || f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s recorded as %+v, want the size and sha256 of %q", name, f, data)
		}
	}
	written, err := listTree(st.dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"absent.json", "long.md", "models/mid.json", "short.md"}, written); diff != "" {
		t.Errorf("files written out (-want +got):\n%s", diff)
	}
	diffs, err := comparedDiffs(st)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, d := range diffs {
		kinds[d.Path] = d.Kind
	}
	want := map[string]string{"absent.json": "missing", "extra.json": "extra", "long.md": "changed", "models/mid.json": "changed", "short.md": "changed"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	for _, d := range diffs {
		if d.Path == "models/mid.json" && (len(d.Changes) != 1 || d.Changes[0].Path != "a" || d.Changes[0].Stored != "1.5" || d.Changes[0].Rebuilt != "1.6") {
			t.Errorf("models/mid.json's changes: %+v, want a: 1.5 -> 1.6", d.Changes)
		}
	}
}

// TestComparingStageWrittenTwice: a path opened twice at once is refused
// by a comparing stage as by one that writes every file (O_EXCL): else
// verify's rebuild would pass a build that the real build fails.
func TestComparingStageWrittenTwice(t *testing.T) {
	for _, comparing := range []bool{false, true} {
		stored := t.TempDir()
		if err := os.WriteFile(filepath.Join(stored, "x.json"), []byte(`{}`), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := newStage(t.TempDir(), seedDate)
		if err != nil {
			t.Fatal(err)
		}
		if comparing {
			st.stored = stored
		}
		w1, err1 := st.open("x.json")
		if err1 != nil {
			t.Fatal(err1)
		}
		w2, err2 := st.open("x.json")
		if err2 == nil {
			w1.Write([]byte(`{}`))
			w2.Write([]byte(`{}`))
			_, err1 = w1.commit()
			_, err2 = w2.commit()
		}
		if err1 == nil && err2 == nil {
			t.Errorf("comparing=%v: one path written twice at once, both accepted", comparing)
		}
		st.close()
	}
}

// TestComparingStageLargeFile: a file written whole, larger than the
// comparison's buffer, that differs past its first chunk is written out
// whole and exact; one that matches is not written.
func TestComparingStageLargeFile(t *testing.T) {
	stored := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320 KB, five chunks
	for _, name := range []string{"big.json", "same.json"} {
		if err := os.WriteFile(filepath.Join(stored, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := comparingStage(t, stored)
	changed := bytes.Clone(data)
	changed[250000] = 'X'
	if _, err := st.write("big.json", changed); err != nil {
		t.Fatal(err)
	}
	if _, err := st.write("same.json", data); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(st.path("big.json")); err != nil || !bytes.Equal(b, changed) {
		t.Errorf("big.json written out: %d bytes, %v; want the %d rebuilt", len(b), err, len(changed))
	}
	if _, err := os.Stat(st.path("same.json")); err == nil {
		t.Error("same.json, the stored bytes, was written out")
	}
}

// comparingStage returns a new comparing stage of the snapshot at stored.
func comparingStage(t *testing.T, stored string) *stage {
	t.Helper()
	st, err := newStage(t.TempDir(), seedDate)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.close)
	st.stored = stored
	return st
}
