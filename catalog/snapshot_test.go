package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// republish rewrites the model file of slug in the snapshot folder dir
// with edit applied, and the manifest so that it lists the new bytes: the
// snapshot then loads (store.Load), and only the agreement of the
// model file with the archived rows can refuse it.
func republish(t *testing.T, dir, slug string, edit func(*format.Model)) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(format.ModelPath(slug)))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m format.Model
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(&m)
	if b, err = format.Marshal(&m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	mb, err := os.ReadFile(filepath.Join(dir, format.ManifestPath))
	if err != nil {
		t.Fatal(err)
	}
	var man format.Manifest
	if err := json.Unmarshal(mb, &man); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	for i := range man.Outputs {
		if man.Outputs[i].Path == format.ModelPath(slug) {
			man.Outputs[i].Size, man.Outputs[i].SHA256 = int64(len(b)), hex.EncodeToString(sum[:])
		}
	}
	if mb, err = format.Marshal(&man); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, format.ManifestPath), mb, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPublishedAgreesWithArchivedRows: a snapshot is served only when each
// configuration of its model files is the rounding of the archived row its
// row id names, every archived stable row is published, and each index
// row is the index row rule's on those rows; a model file that disagrees,
// with a manifest that lists it, is refused, naming the file and what
// differs.
func TestPublishedAgreesWithArchivedRows(t *testing.T) {
	const slug = "qwen-3-32b"
	for _, tc := range []struct {
		name string
		edit func(*format.Model)
		want string
	}{
		{"a Wh/M that is not the row's", func(m *format.Model) { m.Configurations[0].WhPerMillion += 0.01 },
			"models/qwen-3-32b.json: configurations[0] (qwen-3-32b/B200/1/8) differs from the archived sources"},
		{"a row id of no archived row", func(m *format.Model) { m.Configurations[1].RowID = slug + "/B200/1/17" },
			"models/qwen-3-32b.json: configurations[1] (qwen-3-32b/B200/1/17) differs from the archived sources"},
		{"an archived row left out", func(m *format.Model) { m.Configurations = m.Configurations[1:] },
			"models/qwen-3-32b.json: 21 configurations, the archived sources give 22"},
		{"another index row", func(m *format.Model) { m.Best["B200"] = m.Configurations[0] },
			`models/qwen-3-32b.json: best[B200] is "qwen-3-32b/B200/1/8", the archived sources give "qwen-3-32b/B200/1/384"`},
		{"an index row on a GPU without one", func(m *format.Model) { m.Best["A100"] = m.Configurations[0] },
			"models/qwen-3-32b.json: best differs from the archived sources"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := catalogtest.Copy(t, filepath.Join(catalogtest.Shared(t), catalogtest.Date), t.TempDir())
			republish(t, dir, slug, tc.edit)
			ls, err := store.LoadDir(context.Background(), dir)
			if err != nil {
				t.Fatalf("the republished snapshot does not load: %v", err)
			}
			if _, err := FromLoaded(ls); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("FromLoaded: %v; want an error with %q", err, tc.want)
			}
		})
	}
	ls, err := store.LoadDir(context.Background(), filepath.Join(catalogtest.Shared(t), catalogtest.Date))
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromLoaded(ls)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.rows[slug]); n != len(s.Published[slug].Configurations) || s.rows[slug][0].WhPerMillion() <= 0 {
		t.Errorf("%s: %d rows paired with its %d configurations", slug, n, len(s.Published[slug].Configurations))
	}
}
