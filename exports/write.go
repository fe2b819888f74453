package exports

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// Sink is where Write writes the exports, each file once (the build's
// Sink): WriteStream writes a file as fn writes it, WriteFile one held
// whole; each returns the file's manifest entry.
type Sink interface {
	WriteFile(rel string, data []byte) (format.File, error)
	WriteStream(rel string, fn func(w io.Writer) error) (format.File, error)
}

// Snapshot is the snapshot the exports are written from.
type Snapshot struct {
	// FS reads the snapshot's files as written: the model files Index
	// lists, and grid.json when Grid is set.
	FS    fs.FS
	Index *format.IndexFile
	Grid  bool
	// Date is the snapshot's date, the data package's version.
	Date string
	// Licence is the index's licence (sourcetext's licence.json).
	Licence sourcetext.Licence
}

// Write writes exports/ into sink from the snapshot's published files,
// datapackage.json last, and returns the manifest entries of the files it
// wrote, by path.
func Write(sink Sink, s Snapshot) ([]format.File, error) {
	w := &writer{sink: sink, licenses: licenses(s.Licence)}
	for _, t := range format.Tasks() {
		if !t.Primary { // the tasks with model files of their own
			continue
		}
		configs, index, err := primaryTables(s, t)
		if err != nil {
			return nil, err
		}
		if err := writeTable(w, configs); err != nil {
			return nil, err
		}
		if err := writeTable(w, index); err != nil {
			return nil, err
		}
	}
	if s.Grid {
		if err := w.grid(s.FS); err != nil {
			return nil, err
		}
	}
	pkg := &DataPackage{Profile: DataPackageProfile, Name: "greentokens", Version: s.Date, Licenses: w.licenses, Resources: w.resources}
	data, err := format.Marshal(pkg)
	if err != nil {
		return nil, err
	}
	f, err := sink.WriteFile(DataPackagePath, data)
	if err != nil {
		return nil, err
	}
	files := append(w.files, f)
	slices.SortFunc(files, func(a, b format.File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// writer writes the exports and keeps their entries.
type writer struct {
	sink      Sink
	licenses  []License
	files     []format.File
	resources []Resource
}

// primaryTables are the configurations and index rows of the primary
// task, from the model files the index lists (by slug), each
// configuration in its file's order and each index row by GPU.
func primaryTables(s Snapshot, t format.Task) (configs, index *table[ConfigRow], err error) {
	describe, err := configDescriptions()
	if err != nil {
		return nil, nil, err
	}
	configs = &table[ConfigRow]{base: t.ID + "/configurations", key: []string{"row_id"}, describe: describe}
	index = &table[ConfigRow]{base: t.ID + "/index-rows", key: []string{"row_id"}, describe: describe}
	for _, e := range s.Index.Models {
		var m format.Model
		if err := readJSON(s.FS, e.File, &m); err != nil {
			return nil, nil, err
		}
		head := modelHead{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB, Architecture: m.Architecture}
		for i := range m.Configurations {
			configs.rows = append(configs.rows, configRow(head, &m.Configurations[i]))
		}
		for _, gpu := range slices.Sorted(maps.Keys(m.Best)) {
			c := m.Best[gpu]
			index.rows = append(index.rows, configRow(head, &c))
		}
	}
	return configs, index, nil
}

// configDescriptions are ConfigRow's columns' descriptions: the model
// file's keys' (schemas/model.schema.json).
func configDescriptions() (map[string]string, error) {
	out, err := describe("model.schema.json", "", modelColumns)
	if err != nil {
		return nil, err
	}
	cfg, err := describe("model.schema.json", "/$defs/configuration", names(columnsOf[ConfigRow]())[len(modelColumns):])
	if err != nil {
		return nil, err
	}
	maps.Copy(out, cfg)
	return out, nil
}

// grid writes grid.json's areas as the grid table, and in co2.js's shape.
func (w *writer) grid(fsys fs.FS) error {
	var g format.Grid
	if err := readJSON(fsys, format.GridPath, &g); err != nil {
		return err
	}
	describe, err := describe("grid.schema.json", "/$defs/area", names(columnsOf[AreaRow]()))
	if err != nil {
		return err
	}
	t := &table[AreaRow]{base: "grid", key: []string{"name"}, describe: describe}
	for i := range g.Areas {
		t.rows = append(t.rows, areaRow(&g.Areas[i]))
	}
	if err := writeTable(w, t); err != nil {
		return err
	}
	c, err := co2js(&g)
	if err != nil {
		return err
	}
	data, err := format.Marshal(c)
	if err != nil {
		return err
	}
	f, err := w.sink.WriteFile(Co2jsPath, data)
	if err != nil {
		return err
	}
	w.files = append(w.files, f)
	return nil
}

// writeTable writes the table as CSV and as Parquet, each a resource of
// the data package.
func writeTable[T any](w *writer, t *table[T]) error {
	cols := columnsOf[T]()
	schema := TableSchema{PrimaryKey: t.key}
	for _, c := range cols {
		schema.Fields = append(schema.Fields, Field{Name: c.name, Type: c.kind, Description: t.describe[c.name]})
	}
	for _, ff := range fileFormats {
		rel := t.base + ff.ext
		write := writeCSV[T]
		if ff.format == "parquet" {
			write = writeParquet[T]
		}
		f, err := w.sink.WriteStream(Dir+rel, func(out io.Writer) error { return write(out, t.rows) })
		if err != nil {
			return fmt.Errorf("%s%s: %w", Dir, rel, err)
		}
		w.files = append(w.files, f)
		w.resources = append(w.resources, Resource{
			Name: resourceName(rel), Type: "table", Path: rel, Format: ff.format, Mediatype: ff.mediatype,
			Encoding: ff.encoding, Bytes: f.Size, Hash: "sha256:" + f.SHA256, Licenses: w.licenses, Schema: schema,
		})
	}
	return nil
}

// readJSON decodes the snapshot's file at the slash path p into v.
func readJSON(fsys fs.FS, p string, v any) error {
	f, err := regfile.OpenFS(fsys, p)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := regfile.ReadAll(f)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}
