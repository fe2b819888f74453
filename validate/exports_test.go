package validate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/leadgreen/greentokens/exports"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// vtSink writes the exports into a fixture's folder.
type vtSink struct {
	t   *testing.T
	dir string
}

func (k vtSink) WriteFile(rel string, data []byte) (format.File, error) {
	p := filepath.Join(k.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return format.File{}, err
	}
	sum := sha256.Sum256(data)
	return format.File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}, os.WriteFile(p, data, 0o644)
}

func (k vtSink) WriteStream(rel string, fn func(w io.Writer) error) (format.File, error) {
	var b bytes.Buffer
	if err := fn(&b); err != nil {
		return format.File{}, err
	}
	return k.WriteFile(rel, b.Bytes())
}

// vtExports writes exports/ into the fixture's folder dir with the
// exports package, from its model files (models) and grid.json when
// grid is set, and returns the manifest's entries of the files.
func vtExports(t *testing.T, dir string, models map[string]*format.Model, grid bool) []ManifestFile {
	t.Helper()
	idx := &format.IndexFile{}
	for _, slug := range slices.Sorted(maps.Keys(models)) {
		idx.Models = append(idx.Models, models[slug].Entry())
	}
	files, err := exports.Write(vtSink{t, dir}, exports.Snapshot{FS: regfile.DirFS(dir), Index: idx, Grid: grid, Date: vtDate, Licence: vtLoadText(t).Licence})
	if err != nil {
		t.Fatal(err)
	}
	var out []ManifestFile
	for _, f := range files {
		out = append(out, ManifestFile{Path: f.Path, Size: f.Size, SHA256: f.SHA256})
	}
	return out
}

const (
	vtConfigsCSV     = "exports/lm-arena-chat/configurations.csv"
	vtConfigsParquet = "exports/lm-arena-chat/configurations.parquet"
	vtPackage        = "exports/datapackage.json"
)

// TestExportsReadBack: the exports of a good snapshot, CSV and Parquet
// alike, read back equal to the checker's recomputation.
func TestExportsReadBack(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed, grid: true, exports: true})
	if got := vtReport(t, dir); got != nil {
		t.Fatalf("a good snapshot with exports has problems:\n%s", (&Report{Dir: dir, Problems: got}).Error())
	}
}

// tamperExports alters one export each: a CSV cell, a Parquet value, a
// hash in datapackage.json, an export removed.
func tamperExports(seed, _ vtFixture) []tamperCase {
	fix := seed
	fix.grid, fix.exports = true, true
	const row1 = "row 1 (deepseek-v3-1/B200/8/8)"
	return []tamperCase{
		{
			name: "an export's CSV cell changed, sha fixed",
			fix:  fix,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtConfigsCSV, true, vtReplace(t, ",2379.32,", ",2379.33,"))
			},
			want: []vtAt{{vtConfigsCSV, row1, "wh_per_million_output_tokens"}, {vtPackage, "resources[0] (lm-arena-chat-configurations-csv)", "hash"}},
			msg:  `is "2379.33", recomputed "2379.32"`,
		},
		{
			name: "an export's Parquet value changed, sha fixed",
			fix:  fix,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtConfigsParquet, true, func(b []byte) []byte {
					rows, err := parquet.Read[exports.ConfigRow](bytes.NewReader(b), int64(len(b)))
					if err != nil {
						t.Fatal(err)
					}
					rows[0].WhPerMillion = 2379.5
					var out bytes.Buffer
					if err := parquet.Write(&out, rows); err != nil {
						t.Fatal(err)
					}
					return out.Bytes()
				})
			},
			want: []vtAt{
				{vtConfigsParquet, row1, "wh_per_million_output_tokens"},
				{vtPackage, "resources[1] (lm-arena-chat-configurations-parquet)", "bytes"},
				{vtPackage, "resources[1] (lm-arena-chat-configurations-parquet)", "hash"},
			},
			msg: `is "2379.5", recomputed "2379.32"`,
		},
		{
			name: "a wrong hash in datapackage.json, sha fixed",
			fix:  fix,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtPackage, true, func(b []byte) []byte {
					i := bytes.Index(b, []byte(`"hash": "sha256:`)) + len(`"hash": "sha256:`)
					b[i] ^= 1 // a hex digit made another
					return b
				})
			},
			want: []vtAt{{vtPackage, "resources[0] (lm-arena-chat-configurations-csv)", "hash"}},
			msg:  "recomputed",
		},
		{
			name: "an export missing, and from the manifest",
			fix:  fix,
			edit: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "exports", "grid.parquet")); err != nil {
					t.Fatal(err)
				}
				manifest(func(m *Manifest) {
					m.Outputs = slices.DeleteFunc(m.Outputs, func(f ManifestFile) bool { return f.Path == "exports/grid.parquet" })
				})(t, dir)
			},
			want: []vtAt{{"exports/grid.parquet", "", ""}, {vtPackage, "", "resources"}, {vtPackage, "resources[5] (grid-parquet)", ""}},
			msg:  "cannot be read (the recomputed files give its 226 rows)",
		},
	}
}
