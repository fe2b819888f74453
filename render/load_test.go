package render

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/leadgreen/greentokens/format"
)

// TestReadJSONStrictly: a published file is decoded only when it holds one
// JSON object of the known keys; otherwise the error names the file.
func TestReadJSONStrictly(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       string // "" for no error, else a part of the error
	}{
		{"known keys", `{"slug": "a-b", "name": "A B", "params_b": 8.0}`, ""},
		{"an unknown key", `{"slug": "a-b", "nmae": "A B"}`, "nmae"},
		{"a key in other case", `{"Slug": "a-b"}`, "Slug"},
		{"a repeated key", `{"slug": "a-b", "slug": "c"}`, "slug"},
		{"data after the object", `{"slug": "a-b"} {}`, "after"},
		{"a figure as a string", `{"params_b": "8.0"}`, "params_b"},
		{"cut short", `{"slug": "a-`, "EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"models/a-b.json": {Data: []byte(tc.data)}}
			var m format.Model
			err := readJSON(fsys, "models/a-b.json", &m)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.want == "":
				if m.Slug != "a-b" || m.Name != "A B" || float64(m.ParamsB) != 8 {
					t.Errorf("decoded %+v", m)
				}
			case err == nil:
				t.Fatalf("no error")
			case !strings.HasPrefix(err.Error(), "models/a-b.json: ") || !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q: want the file named and %q", err, tc.want)
			}
		})
	}
}

// TestReadJSONErrorsAsReadFile: a file that cannot be read gives the error
// fs.ReadFile gives.
func TestReadJSONErrorsAsReadFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "models", "a-dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(dir)
	for _, name := range []string{"models/a-dir.json", "models/missing.json"} {
		_, want := fs.ReadFile(fsys, name)
		err := readJSON(fsys, name, &format.Model{})
		if want == nil || err == nil || err.Error() != want.Error() {
			t.Errorf("%s: error %v; want %v", name, err, want)
		}
	}
}
