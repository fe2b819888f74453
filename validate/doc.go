// Package validate is the second pair of eyes on a Green Tokens snapshot
// (snapshots/DATE/): it recomputes every published data file from the
// archived upstream files, and nothing is published unless Check finds no
// problem. It is boring on purpose: the standard library,
// santhosh-tekuri/jsonschema for the schemas, jsontext for keys given
// twice and the JSON files' key order (dupkeys.go, jsontree.go),
// encoding/csv for Ember's file, golang.org/x/text/message only to
// print the jsonschema library's messages (schema.go),
// golang.org/x/mod's semver and module, the reference parsers of Go's
// module versions and paths, for the manifest's generator (generator.go),
// and parquet-go's reader (github.com/parquet-go/parquet-go) for the
// exports' Parquet files (exports.go);
// one check after the other, every file read whole and checked whole
// against its schema, no caches or hooks into the build. It imports
// nothing of transform/, which writes the files
// (TestIndependentOfTransform); the one package it shares with it is
// internal/sourcetext, the reviewed fixed text both print, whose templates
// it fills itself (fill, model.go) and all of which it compares.
//
// Check reads the snapshot through an fs.FS (regfile.DirFS for a folder),
// refusing what is not a regular file, and runs six checks in turn,
// reporting every problem by file, row and field: manifest (manifest.go,
// generator.go), schemas (schema.go), leaderboard (leaderboard.go,
// upstream.go, stability.go, model.go), grid (grid.go, gridcsv.go),
// index (index.go) and exports (exports.go). It recomputes manifest.json's
// listing, selection, evidence, exclusions (which rows, not the wording of
// their reasons) and grid block, and every models/SLUG.json, index.json,
// grid.json and exported JSON file whole, and reads every exported CSV and
// Parquet table back cell by cell against the rows of the files it
// recomputes; the JSON files are compared byte for byte; where the bytes
// differ, one diff engine
// (compare.go) names each differing field with the upstream values it
// comes from, or else the first differing byte. The pages are held only to
// the manifest's size and SHA-256: verify's rebuild holds their words and
// figures to the data files. The few inputs only a snapshot records (its
// dates, the URLs, grid.json's pinned year and the Ember release name it
// was told) are taken from it and held to one another.
//
// The published rules are re-implemented here from their specification,
// deliberate mirrors of the builder's code listed in docs/architecture.md
// ("validate shares no code with transform"): a change to one side must be
// made on the other.
package validate
