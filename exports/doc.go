// Package exports writes a snapshot's exports/: its tables in the formats
// analysts load, from the published files of the snapshot alone (format's
// types, read back from the build's stage), so that an export says nothing
// the JSON files do not.
//
// Each table is written twice, as CSV (UTF-8, RFC 4180 through
// encoding/csv, a header row, numbers printed as the JSON files print them)
// and as Parquet (github.com/parquet-go/parquet-go, uncompressed, its
// CreatedBy pinned to Creator so that the bytes do not change with the
// library's version): for each task with model files, every configuration
// of every model (TASK/configurations) and the index row of each model and
// GPU (TASK/index-rows); and grid.json's areas (grid). Beside them,
// co2js-average-intensities.json holds the grid in the shape of co2.js's
// average-intensities.json, and datapackage.json describes every table as
// a Frictionless Data Package: each file's path, bytes, sha256, licence and
// Table Schema, whose field descriptions are those of the JSON Schemas in
// schemas/, the one reviewed home of what each field means.
//
// The package reads only the published format (format), the schemas and
// the reviewed licence text: it has no path to the builder's rules, and the
// checker (validate/) reads every export back with code of its own.
package exports
