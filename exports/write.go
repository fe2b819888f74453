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
	// Tasks are the selection's tasks (the manifest's selection.tasks), in
	// its order: each but the primary one has its tasks/TASK/index.json
	// and the model files it lists in FS.
	Tasks []string
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
	if err := writePrimary(w, s, format.PrimaryTask()); err != nil {
		return nil, err
	}
	for _, id := range s.Tasks {
		t, ok := format.LookupTask(id)
		var err error
		switch {
		case !ok:
			err = fmt.Errorf("%s: the selection names the task %q, which no registered task is", Dir, id)
		case !t.HasFiles():
		case t.Kind == format.Images:
			err = writeTask(w, s, t, "image_configuration", imageRow)
		case t.Kind == format.Videos:
			err = writeTask(w, s, t, "video_configuration", videoRow)
		default:
			err = writeTask(w, s, t, "token_configuration", configRow)
		}
		if err != nil {
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

// writePrimary writes the configurations and index rows of the primary
// task, from the model files the index lists (by slug).
func writePrimary(w *writer, s Snapshot, t format.Task) error {
	configs, index, err := newTables[ConfigRow](t, "model.schema.json", "/$defs/configuration")
	if err != nil {
		return err
	}
	for _, e := range s.Index.Models {
		var m format.Model
		if err := readJSON(s.FS, e.File, &m); err != nil {
			return err
		}
		head := modelHead{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB, Architecture: m.Architecture}
		addModel(configs, index, head, m.Configurations, m.Best, configRow)
	}
	return writeTables(w, configs, index)
}

// writeTask writes the configurations and index rows of a task with files
// of its own, from the model files its tasks/TASK/index.json lists (by
// slug), each configuration C made a row by row; their columns are
// described by schemas/task-model.schema.json, a configuration's at
// $defs/def. A task without a model file has no tables.
func writeTask[C, R any](w *writer, s Snapshot, t format.Task, def string, row func(modelHead, *C) R) error {
	var idx format.TaskIndex[C]
	if err := readJSON(s.FS, format.TaskIndexPath(t.ID), &idx); err != nil {
		return err
	}
	if len(idx.Models) == 0 {
		return nil
	}
	configs, index, err := newTables[R](t, "task-model.schema.json", "/$defs/"+def)
	if err != nil {
		return err
	}
	for _, e := range idx.Models {
		var m format.TaskModel[C]
		if err := readJSON(s.FS, e.File, &m); err != nil {
			return err
		}
		head := modelHead{Slug: m.Slug, Name: m.Name, ModelID: m.ModelID, ParamsB: m.ParamsB, ActiveParamsB: m.ActiveParamsB, Architecture: m.Architecture}
		addModel(configs, index, head, m.Configurations, m.Best, row)
	}
	return writeTables(w, configs, index)
}

// newTables are a task's two tables of rows R, empty: TASK/configurations
// and TASK/index-rows, keyed by row_id, their columns described by the
// JSON Schema's descriptions, the model's columns (those before "gpu") of
// its top level's keys and the configuration's of the object at the JSON
// pointer def.
func newTables[R any](t format.Task, schema, def string) (configs, index *table[R], err error) {
	cols := names(columnsOf[R]())
	head := slices.Index(cols, "gpu")
	descs, err := describe(schema, "", cols[:head])
	if err != nil {
		return nil, nil, err
	}
	cfg, err := describe(schema, def, cols[head:])
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(descs, cfg)
	configs = &table[R]{base: t.ID + "/configurations", key: []string{"row_id"}, describe: descs}
	index = &table[R]{base: t.ID + "/index-rows", key: []string{"row_id"}, describe: descs}
	return configs, index, nil
}

// addModel adds a model's rows to its task's tables: each configuration in
// its file's order, and each index row by GPU.
func addModel[C, R any](configs, index *table[R], head modelHead, cs []C, best map[string]C, row func(modelHead, *C) R) {
	for i := range cs {
		configs.rows = append(configs.rows, row(head, &cs[i]))
	}
	for _, gpu := range slices.Sorted(maps.Keys(best)) {
		c := best[gpu]
		index.rows = append(index.rows, row(head, &c))
	}
}

// writeTables writes each table.
func writeTables[T any](w *writer, tables ...*table[T]) error {
	for _, t := range tables {
		if err := writeTable(w, t); err != nil {
			return err
		}
	}
	return nil
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
