package catalog

import (
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/transform"
)

// What the serving packages print of the published files, named here so
// that the API and the MCP server read the index through catalog alone, as
// the site reads it through render: the model file's type, the files' JSON
// encoder and the index's wording of what the energy covers. Each is the
// builder's own (transform's), not a copy, so a served answer prints what
// the build wrote.

// Model is a published model file (models/SLUG.json,
// schemas/model.schema.json), as Snapshot.Models, Snapshot.Published and
// FindModel hold it.
type Model = transform.Model

// Marshal returns v's JSON as the published files print it: two-space
// indentation, keys in the structs' order (sorted for maps), no HTML
// escaping, no trailing newline, numbers as jsonnum prints them (27.0, not
// 27). The API's answers and problems and the MCP server's text content
// are encoded with it.
func Marshal(v any) ([]byte, error) { return format.Marshal(v) }
