package exports

import (
	"strings"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// Paths of the exports in a snapshot.
const (
	// Dir holds the exports.
	Dir = "exports/"
	// DataPackagePath is the Frictionless descriptor of every table.
	DataPackagePath = Dir + "datapackage.json"
	// Co2jsPath is the grid in co2.js's shape.
	Co2jsPath = Dir + "co2js-average-intensities.json"
)

// DataPackageProfile is the profile datapackage.json follows, its
// $schema: the Frictionless Data Package, version 2.
const DataPackageProfile = "https://datapackage.org/profiles/2.0/datapackage.json"

// DataPackage is exports/datapackage.json: a Frictionless Data Package
// (v2) of every exported table, each file a resource with its bytes,
// hash, licence and Table Schema (schemas/datapackage.schema.json holds
// ours to its shape). Field order is the published key order.
type DataPackage struct {
	Profile string `json:"$schema"`
	// Name is the package's name, "greentokens"; Version the snapshot's
	// date.
	Name      string     `json:"name"`
	Version   string     `json:"version"`
	Licenses  []License  `json:"licenses"`
	Resources []Resource `json:"resources"`
}

// License is a licence as a Data Package names it: the SPDX id, the
// deed and the licence's name (the reviewed text of the manifest's).
type License struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Title string `json:"title"`
}

// Resource is one exported file.
type Resource struct {
	Name string `json:"name"`
	Type string `json:"type"` // "table"
	// Path is the file's, relative to datapackage.json.
	Path      string `json:"path"`
	Format    string `json:"format"` // "csv" or "parquet"
	Mediatype string `json:"mediatype"`
	// Encoding is the CSV's, "utf-8"; absent for Parquet.
	Encoding string `json:"encoding,omitempty"`
	Bytes    int64  `json:"bytes"`
	// Hash is "sha256:" and the file's sha256 in lower-case hex.
	Hash     string      `json:"hash"`
	Licenses []License   `json:"licenses"`
	Schema   TableSchema `json:"schema"`
}

// TableSchema is a Frictionless Table Schema: the columns in order, and
// the ones that tell the rows apart.
type TableSchema struct {
	Fields     []Field  `json:"fields"`
	PrimaryKey []string `json:"primaryKey"`
}

// Field is one column: its name (the JSON key it holds), its Table Schema
// type (string, integer, number, boolean) and the JSON Schema's
// description of the key, which states its unit and rounding.
type Field struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// The two files of a table.
var fileFormats = []struct{ ext, format, mediatype, encoding string }{
	{".csv", "csv", "text/csv", "utf-8"},
	{".parquet", "parquet", "application/vnd.apache.parquet", ""},
}

// licenses is the index's licence, as the manifest records it.
func licenses(l sourcetext.Licence) []License {
	return []License{{Name: l.ID, Path: l.URL, Title: l.Name}}
}

// resourceName is a file's resource name: its path below exports/ with
// "/" and "." made "-" ("lm-arena-chat-configurations-csv").
func resourceName(rel string) string {
	return strings.NewReplacer("/", "-", ".", "-").Replace(rel)
}
