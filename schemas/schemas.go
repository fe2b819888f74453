// Package schemas holds the JSON Schemas (draft 2020-12) of the files Green
// Tokens publishes: model.schema.json for models/SLUG.json and
// manifest.schema.json for a snapshot's manifest.json (and any other
// *.schema.json placed beside them). They ship as plain files in this folder
// for downstream users, and are embedded here so that validate/ checks every
// snapshot against exactly the schemas that ship. Each schema is strict (no
// unknown keys, every key required unless documented otherwise), and each
// field's description states the rule that produces it, rounding included.
package schemas

import (
	"bytes"
	"embed"
	"io/fs"
	"sort"
)

// FS holds the schema files, by file name ("model.schema.json").
//
//go:embed *.schema.json
var FS embed.FS

// Names returns the file names of the embedded schemas, sorted.
func Names() []string {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil { // cannot happen for an embed.FS root
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// Read returns the bytes of the named schema ("model.schema.json").
func Read(name string) ([]byte, error) { return FS.ReadFile(name) }

// Has reports whether the named schema exists.
func Has(name string) bool {
	_, err := fs.Stat(FS, name)
	return err == nil
}

// OpenAPI returns the HTTP API's OpenAPI 3.1 document (openapi.json),
// served at /v1/openapi.json. Each call returns a new copy.
func OpenAPI() []byte { return bytes.Clone(openAPI) }

//go:embed openapi.json
var openAPI []byte
