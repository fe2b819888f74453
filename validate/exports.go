package validate

// The exports check: each table under exports/ read back, the CSV with
// encoding/csv and the Parquet file with parquet-go's reader, and compared
// cell by cell with the checker's rows of the files it recomputes (the
// model files, grid.json); co2js-average-intensities.json and
// datapackage.json recomputed whole and compared as every JSON file is.

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/leadgreen/greentokens/schemas"
)

const (
	exportsDir     = "exports/"
	exportsPackage = exportsDir + "datapackage.json"
	exportsCo2js   = exportsDir + "co2js-average-intensities.json"
)

// exportTable is an exported table as recomputed: its path below exports/
// without an extension, its key column, its columns' values as the JSON
// files print them (a header, then a row per entry), each column's JSON
// kind, and the schema objects (JSON pointers into schema) whose
// properties describe its columns.
type exportTable struct {
	base, key, schema string
	describedAt       []string
	header            []string
	kinds             []jkind
	rows              [][]string
}

// exportWant is what the recomputed files give of exports/ (snap.exports):
// each task's two tables, in the order the tasks are checked, the primary
// task's first, and grid.json, recomputed.
type exportWant struct {
	tables []*exportTable
	grid   *jnode
}

// add adds a task's two tables; a task with no rows has none.
func (e *exportWant) add(configs, index *exportTable) {
	if len(configs.rows) > 0 {
		e.tables = append(e.tables, configs, index)
	}
}

// taskTables are a task's two tables, empty, their columns described by
// the schema's top-level keys (the model's) and those at def (a
// configuration's).
func taskTables(id, schema, def string) (configs, index *exportTable) {
	at := []string{"", def}
	return &exportTable{base: id + "/configurations", key: "row_id", schema: schema, describedAt: at},
		&exportTable{base: id + "/index-rows", key: "row_id", schema: schema, describedAt: at}
}

// add adds a row of head's members and obj's; the first sets the header.
func (t *exportTable) add(head, obj *jnode) {
	var row []string
	for _, n := range []*jnode{head, obj} {
		for i, v := range n.vals {
			if row = append(row, v.text); len(t.rows) == 0 {
				t.header, t.kinds = append(t.header, n.keys[i]), append(t.kinds, v.kind)
			}
		}
	}
	t.rows = append(t.rows, row)
}

// modelHeads are the keys of a model a row of its configuration starts
// with; a diffusion task's model files have all but architecture.
var modelHeads = []string{"slug", "name", "model_id", "params_b", "active_params_b", "architecture"}

// exportModel adds a recomputed model file's configurations and its index
// rows (its best configuration of each GPU, by GPU) to the tables, each
// under the model's heads ("" for one it lacks); a diffusion configuration
// whose precision upstream does not state has it "".
func exportModel(configs, index *exportTable, tree *jnode, heads []string) {
	head := jobj()
	for _, k := range heads {
		head.set(k, cmp.Or(tree.get(k), jstr("")))
	}
	row := func(c *jnode) *jnode {
		if i := slices.Index(c.keys, "ring_degree") + 1; i > 0 && c.get("precision") == nil {
			return &jnode{kind: jObj, keys: slices.Insert(slices.Clone(c.keys), i, "precision"), vals: slices.Insert(slices.Clone(c.vals), i, jstr(""))}
		}
		return c
	}
	for _, c := range tree.get("configurations").vals {
		configs.add(head, row(c))
	}
	for _, c := range tree.get("best").vals {
		index.add(head, row(c))
	}
}

// exportTask adds the tables of a task other than the primary one, of its
// recomputed model files; a task with none has no tables.
func (s *snap) exportTask(t *task, models []*taskModel) {
	configs, index := taskTables(t.id, "task-model.schema.json", "/$defs/"+cmp.Or(t.unit, "token")+"_configuration")
	heads := modelHeads
	if t.unit != "" { // a diffusion task's
		heads = modelHeads[:len(modelHeads)-1]
	}
	for _, m := range models {
		exportModel(configs, index, m.tree, heads)
	}
	s.exports.add(configs, index)
}

// checkExports reads back every export the recomputed files give and
// compares it; an export missing, or one they do not give, is named. A
// snapshot with no file under exports/, listed or present, has none to
// check (as one without index.json): verify's rebuild holds a snapshot to
// the exports its build writes.
func checkExports(s *snap) []Problem {
	inExports := func(p string) bool { return strings.HasPrefix(p, exportsDir) }
	if !slices.ContainsFunc(s.files, inExports) && !slices.ContainsFunc(s.manifest.Outputs, func(f ManifestFile) bool { return inExports(f.Path) }) {
		return nil
	}
	e, tables := s.exports, slices.Clone(s.exports.tables)
	co2js := jobj().set("$schema", jstr("https://leadgreen.ai/schemas/co2js-average-intensities.schema.json"))
	if e.grid != nil {
		grid := &exportTable{base: "grid", key: "name", schema: "grid.schema.json", describedAt: []string{"/$defs/area"}}
		// An area is keyed by its ISO 3 code, or by its name where it has
		// none or shares it with another area.
		codes := map[string]int{}
		for _, a := range e.grid.get("areas").vals {
			codes[a.str("iso3")]++
		}
		for _, a := range e.grid.get("areas").vals {
			grid.add(jobj(), a)
			key := a.str("name")
			if c := a.str("iso3"); c != "" && codes[c] == 1 {
				key = c
			}
			co2js.set(key, jobj().set("country_code", a.get("iso3")).set("country_or_region", a.get("name")).
				set("year", a.get("year")).set("emissions_intensity_gco2_per_kwh", a.get("g_co2e_per_kwh")))
		}
		tables = append(tables, grid)
	}
	if len(tables) == 0 {
		return nil // nothing recomputed: the checks above say why
	}
	var out []Problem
	want := map[string]bool{exportsPackage: true}
	l := s.text.Licence // the reviewed text, which the manifest's licence is held to too
	licences := jarr(jobj().set("name", jstr(l.ID)).set("path", jstr(l.URL)).set("title", jstr(l.Name)))
	resources := jarr()
	for _, t := range tables {
		b, _ := schemas.Read(t.schema) // embedded, and compiled by compiledSchemas
		doc, _ := parseTree(b)
		fields := jarr()
		for i, h := range t.header {
			kind := map[jkind]string{jStr: "string", jBool: "boolean", jNum: "integer"}[t.kinds[i]]
			if t.kinds[i] == jNum && strings.Contains(t.rows[0][i], ".") {
				kind = "number"
			}
			var desc string
			for _, at := range t.describedAt {
				obj := doc
				for _, k := range strings.Split(at, "/")[1:] {
					obj = obj.get(k)
				}
				desc = cmp.Or(desc, obj.get("properties").get(h).str("description"))
			}
			fields.vals = append(fields.vals, jobj().set("name", jstr(h)).set("type", jstr(kind)).set("description", jstr(desc)))
		}
		for _, ff := range []struct{ ext, mediatype string }{{"csv", "text/csv"}, {"parquet", "application/vnd.apache.parquet"}} {
			rel := t.base + "." + ff.ext
			want[exportsDir+rel] = true
			data, err := s.read(exportsDir + rel)
			if err != nil {
				out = append(out, Problem{File: exportsDir + rel, Msg: fmt.Sprintf("cannot be read (the recomputed files give its %d rows): %v", len(t.rows), err)})
				continue
			}
			ps := &problems{file: exportsDir + rel}
			compareRows(ps, t, ff.ext, data)
			out = append(out, ps.list...)
			sum := sha256.Sum256(data)
			r := jobj().set("name", jstr(strings.NewReplacer("/", "-", ".", "-").Replace(rel))).set("type", jstr("table")).
				set("path", jstr(rel)).set("format", jstr(ff.ext)).set("mediatype", jstr(ff.mediatype))
			if ff.ext == "csv" {
				r.set("encoding", jstr("utf-8"))
			}
			resources.vals = append(resources.vals, r.set("bytes", jint(len(data))).set("hash", jstr("sha256:"+hex.EncodeToString(sum[:]))).
				set("licenses", licences).set("schema", jobj().set("fields", fields).set("primaryKey", jarr(jstr(t.key)))))
		}
	}
	if e.grid != nil {
		want[exportsCo2js] = true
		out = append(out, compareExportJSON(s, exportsCo2js, co2js, " from grid.json's areas, recomputed")...)
	}
	pkg := jobj().set("$schema", jstr("https://datapackage.org/profiles/2.0/datapackage.json")).set("name", jstr("greentokens")).
		set("version", jstr(s.manifest.Date)).set("licenses", licences).set("resources", resources)
	out = append(out, compareExportJSON(s, exportsPackage, pkg, " (the exports as read back, manifest.json's date, the reviewed licence)")...)
	for _, p := range s.files {
		if inExports(p) && !want[p] {
			out = append(out, Problem{File: p, Msg: "is not an export of the recomputed files"})
		}
	}
	return out
}

// compareExportJSON compares the JSON file p with the recomputed want.
func compareExportJSON(s *snap, p string, want *jnode, note string) []Problem {
	data, err := s.read(p)
	if err != nil {
		return []Problem{{File: p, Msg: fmt.Sprintf("cannot be read (the recomputed files give it): %v", err)}}
	}
	return compareFile(p, data, want, note)
}

// compareRows reads the table's file back, CSV or Parquet, and compares
// its header and every cell with the recomputed table, naming the row (by
// its key) and the column.
func compareRows(ps *problems, t *exportTable, fileFormat string, data []byte) {
	next, err := csv.NewReader(bytes.NewReader(data)).Read, error(nil)
	if fileFormat == "parquet" { // else CSV
		next, err = parquetRows(data)
	}
	var header []string
	if err == nil {
		header, err = next()
	}
	switch {
	case err != nil:
		ps.add("", "", "cannot be read as %s: %v", fileFormat, err)
		return
	case !slices.Equal(header, t.header):
		ps.add("", "", "has the columns %q, recomputed %q", header, t.header)
		return
	}
	for i := 0; len(ps.list) < idxMaxProblems; i++ {
		got, err := next()
		switch {
		case err == io.EOF && i == len(t.rows):
			return
		case err == io.EOF:
			ps.add("", "", "has %d rows, recomputed %d", i, len(t.rows))
			return
		case err == nil && i == len(t.rows):
			ps.add("", "", "has more rows than the %d recomputed", len(t.rows))
			return
		case err != nil:
			ps.add(fmt.Sprintf("row %d", i+1), "", "cannot be read: %v", err)
			return
		}
		want := t.rows[i]
		for j, h := range t.header {
			if g := append(got, "")[min(j, len(got))]; g != want[j] {
				ps.add(fmt.Sprintf("row %d (%s)", i+1, want[slices.Index(t.header, t.key)]), h, "is %q, recomputed %q", g, want[j])
			}
		}
	}
}

// parquetRows reads a Parquet file's column names, then each row's values
// as the JSON files print them (a null as ""); the reader's panic on a
// malformed file is an error.
func parquetRows(data []byte) (func() ([]string, error), error) {
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var header []string
	for _, c := range f.Schema().Columns() {
		header = append(header, strings.Join(c, "."))
	}
	r, buf := parquet.NewReader(f), make([]parquet.Row, 1)
	return func() (rec []string, err error) {
		if rec, header = header, nil; rec != nil {
			return rec, nil
		}
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("the Parquet reader failed: %v", p)
			}
		}()
		if n, err := r.ReadRows(buf); n == 0 {
			return nil, cmp.Or(err, io.EOF)
		}
		for _, v := range buf[0] {
			switch {
			case v.IsNull():
				rec = append(rec, "")
			case v.Kind() == parquet.Boolean:
				rec = append(rec, strconv.FormatBool(v.Boolean()))
			case v.Kind() == parquet.Int64:
				rec = append(rec, strconv.FormatInt(v.Int64(), 10))
			case v.Kind() == parquet.Double:
				rec = append(rec, floatText(v.Double()))
			default:
				rec = append(rec, string(v.ByteArray()))
			}
		}
		return rec, nil
	}, nil
}
