// Package validate is the second pair of eyes on a Green Tokens snapshot
// (snapshots/DATE/): an independent recomputation of every published byte
// from the archived upstream files. Nothing is published unless Snapshot
// finds no problem. It is boring on purpose: the standard library,
// santhosh-tekuri/jsonschema for every schema check, jsontext for keys
// given twice, encoding/csv for Ember's file, and no speed tricks, caches
// or hooks into the build.
//
// Snapshot runs five checks at once and reports every problem, each
// naming the file, the row and the field:
//
//   - manifest (manifest.go): manifest.json decodes strictly and lists
//     every file of the folder once, under sources (archived upstream
//     bytes) or outputs, with the size and SHA-256 of its bytes on disk;
//   - schemas (schema.go): manifest.json, models/*.json, grid.json and
//     index.json against the JSON Schemas that ship with the data (a large
//     file one list entry at a time, for memory);
//   - leaderboard (leaderboard.go, upstream.go, stability.go, model.go,
//     compare.go): the archived leaderboard files parsed (no key twice in
//     one object, no row of a model index.json does not list), the
//     stability filter, the manifest's selection, exclusions and evidence,
//     and every model file recomputed and compared byte for byte;
//   - grid (grid.go): grid.json recomputed from the archived Ember CSV;
//   - index (index.go): index.json recomputed from the task files.
//
// A recomputed file is compared byte for byte, so number formatting and
// key order are checked too; when the bytes differ, each differing figure
// is named with the upstream values it comes from.
//
// The package imports nothing of transform/, which writes the files, but
// transform/sourcetext, the reviewed fixed text both sides print
// (TestIndependentOfTransform). It re-implements the published rules from
// their specification; these are deliberate mirrors of transform's code,
// alike because the rule is one, and a change to one side must be made on
// the other:
//
//   - the stability filter and its cascade (stability.go, filterStable;
//     transform/stability.go);
//   - the order of a model's configurations, their repeats and the best
//     row of each GPU (model.go, sortRuns and beats; transform/model.go);
//   - the typed reading of an upstream row's fields (upstream.go,
//     rowParser; transform/leaderboard.go);
//   - the manifest's shape (manifest.go, Manifest; snapshots.Manifest,
//     transform/grid's Summary, and in form transform/index.go's tagged
//     structs), which TestManifestMirrorsSnapshots holds field for field;
//   - the rounding and printing of figures (number.go; transform's
//     encoder): once, half to even, from the unrounded upstream value.
//
// A mismatch means one of the two is wrong, and the snapshot is not
// published until a person has looked.
package validate
