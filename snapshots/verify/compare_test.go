package verify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/internal/snaptest"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// writeTree writes the files, by slash path, into a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestComparingSink: verify's rebuild sink compares each file with the
// stored one as it is written, whole or piece by piece: a file with the
// stored bytes is never written, one that differs anywhere (in the middle,
// shorter, longer, or not stored at all) is written out whole; the build
// reads back what it wrote either way; the size and sha256 are those of
// the written bytes; and the differences are listed by kind.
func TestComparingSink(t *testing.T) {
	stored := writeTree(t, map[string]string{
		"same.json":       `{"a": 1.5, "b": [1, 2, 3]}`,
		"models/mid.json": `{"a": 1.5, "b": [1, 2, 3]}`,
		"short.md":        "line one\n",
		"long.md":         "line one\nline two\nline three\n",
		"extra.json":      `{}`,
	})
	out := t.TempDir()
	c := newComparingSink(regfile.DirFS(stored), out)
	rebuilt := map[string]string{
		"same.json":       `{"a": 1.5, "b": [1, 2, 3]}`,
		"models/mid.json": `{"a": 1.6, "b": [1, 2, 3]}`,
		"short.md":        "line one\nline two\n",
		"long.md":         "line one\nline two\n",
		"absent.json":     `{"new": true}`,
	}
	for name, data := range rebuilt {
		if name == "long.md" { // piece by piece, as index.json and the Ember CSV are written
			_, err := c.WriteStream(name, func(w io.Writer) error {
				for i := 0; i < len(data); i += 4 {
					if _, err := io.WriteString(w, data[i:min(i+4, len(data))]); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := c.WriteFile(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}

	for name, data := range rebuilt {
		b, err := fs.ReadFile(c.FS(), name)
		if err != nil || string(b) != data {
			t.Errorf("read back %s: %q, %v; want %q", name, b, err, data)
		}
		sum := sha256.Sum256([]byte(data))
		if f := c.files[name]; f.Size != int64(len(data)) || f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s recorded as %+v, want the size and sha256 of %q", name, f, data)
		}
	}
	written, err := store.ListFiles(os.DirFS(out))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"absent.json", "long.md", "models/mid.json", "short.md"}, written); diff != "" {
		t.Errorf("files written out (-want +got):\n%s", diff)
	}
	diffs, err := c.diffs()
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

// TestWrittenTwice: a path written twice, one after the other or inside
// its own stream, is refused by the comparing sink as by the store's
// stage: else verify's rebuild would pass a build that the real build
// fails.
func TestWrittenTwice(t *testing.T) {
	stored := writeTree(t, map[string]string{"x.json": `{}`})
	st, err := store.NewStage(context.Background(), t.TempDir(), snaptest.SeedDate, 0, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(true)
	for name, sink := range map[string]build.Sink{"stage": st, "comparing sink": newComparingSink(regfile.DirFS(stored), t.TempDir())} {
		if _, err := sink.WriteFile("x.json", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := sink.WriteFile("x.json", []byte(`{}`)); err == nil {
			t.Errorf("%s: a path written twice, both accepted", name)
		}
		_, err := sink.WriteStream("y.json", func(w io.Writer) error {
			_, err := sink.WriteFile("y.json", []byte(`{}`))
			return err
		})
		if err == nil {
			t.Errorf("%s: a path written inside its own stream, both accepted", name)
		}
	}
}

// TestComparingSinkLargeFile: a file written whole, larger than the
// comparison's buffer, that differs past its first chunk is written out
// whole and exact; one that matches is not written.
func TestComparingSinkLargeFile(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320 KB, five chunks
	stored := writeTree(t, map[string]string{"big.json": string(data), "same.json": string(data)})
	out := t.TempDir()
	c := newComparingSink(regfile.DirFS(stored), out)
	changed := bytes.Clone(data)
	changed[250000] = 'X'
	if _, err := c.WriteFile("big.json", changed); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteFile("same.json", data); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(c.path("big.json")); err != nil || !bytes.Equal(b, changed) {
		t.Errorf("big.json written out: %d bytes, %v; want the %d rebuilt", len(b), err, len(changed))
	}
	if _, err := os.Stat(c.path("same.json")); err == nil {
		t.Error("same.json, the stored bytes, was written out")
	}
}
