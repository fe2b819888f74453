package exports

import (
	"encoding/csv"
	"fmt"
	"io"
	"reflect"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/leadgreen/greentokens/format"
)

// Creator is the Parquet files' CreatedBy: ours and fixed, where the
// library would write its own name, version and build, so that a file's
// bytes do not change with the library's version.
const Creator = "greentokens exports version 1"

// maxRowsPerGroup bounds a Parquet row group (a fixed count, so that the
// groups fall where they fell): the writer holds one group in memory.
const maxRowsPerGroup = 65536

// table is one exported table: its rows, as CSV and Parquet.
type table[T any] struct {
	// base is the table's path below exports/ without its extension:
	// "lm-arena-chat/configurations", "grid".
	base string
	rows []T
	// key names the columns that tell the rows apart.
	key []string
	// describe gives each column's description.
	describe map[string]string
}

// writeCSV writes the rows as CSV (RFC 4180, as encoding/csv writes it): a
// header row of the column names, then a record per row, each value as the
// JSON files print it. Records end with LF, encoding/csv's default: its
// CRLF mode drops a carriage return inside a field, which upstream text
// may hold.
func writeCSV[T any](w io.Writer, rows []T) error {
	cols := columnsOf[T]()
	cw := csv.NewWriter(w)
	if err := cw.Write(names(cols)); err != nil {
		return err
	}
	record := make([]string, len(cols))
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for j, c := range cols {
			s, err := cell(v.Field(c.field))
			if err != nil {
				return fmt.Errorf("row %d, %s: %w", i+1, c.name, err)
			}
			record[j] = s
		}
		if err := cw.Write(record); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// cell prints a value as the JSON files do.
func cell(v reflect.Value) (string, error) {
	switch v.Kind() {
	case reflect.String:
		return v.String(), nil
	case reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	}
	return format.FormatFloat(v.Float())
}

// createdBy pins a Parquet file's CreatedBy to Creator.
type createdBy struct{}

func (createdBy) ConfigureWriter(c *parquet.WriterConfig) { c.CreatedBy = Creator }

// writeParquet writes the rows as a Parquet file: a column per field of
// T, required, plain-encoded, in data pages of version 1 (the form every
// reader reads), uncompressed (no codec's output to change with its
// version), in row groups of at most maxRowsPerGroup rows.
func writeParquet[T any](w io.Writer, rows []T) error {
	pw := parquet.NewGenericWriter[T](w, createdBy{}, parquet.Compression(&parquet.Uncompressed),
		parquet.DataPageVersion(1), parquet.MaxRowsPerRowGroup(maxRowsPerGroup))
	if _, err := pw.Write(rows); err != nil {
		return err
	}
	return pw.Close()
}
