// Package validate is the second pair of eyes on a Green Tokens snapshot
// (snapshots/DATE/): it recomputes every published data file from the
// archived upstream files, and nothing is published unless Check finds no
// problem. It is boring on purpose: the standard library,
// santhosh-tekuri/jsonschema for the schemas, jsontext for keys given
// twice, encoding/csv for Ember's file, one check after the other, every
// file read whole and checked whole against its schema, and no caches or
// hooks into the build. It imports golang.org/x/text/message and /language
// only to print the jsonschema library's messages, whose ErrorKind prints
// through a message.Printer (schema.go), and golang.org/x/mod/semver and
// /module, the reference parsers of Go's module versions and paths, for
// the manifest's generator (generator.go); TestIndependentOfTransform
// allows both.
//
// Check reads the snapshot through an fs.FS (regfile.DirFS for a folder)
// and refuses what is not a regular file, whatever the fs.FS serves. It
// runs five checks in turn and reports every problem, naming the file, the
// row and the field: manifest (manifest.go: every file listed once, with
// its size and SHA-256, and each archived file's producer and licence;
// generator.go: the generator in the shapes Go writes),
// schemas (schema.go), leaderboard (leaderboard.go, upstream.go,
// stability.go, model.go: the archived task files parsed, filtered and
// every model file recomputed; the manifest's selection, evidence and
// exclusions), grid (grid.go, emberwide.go: grid.json and the manifest's
// grid block from the archived Ember CSV) and index (index.go: index.json
// from the task files).
//
// What the recomputation covers: manifest.json's listing, selection,
// evidence (its conflict sentence included), exclusions (which rows, not
// the wording of their reasons) and grid block; every models/SLUG.json,
// index.json and grid.json, each recomputed whole and compared byte for
// byte. When the bytes differ, one diff engine (compare.go) names each
// differing field with the upstream values it comes from, or else the
// first differing byte. The pages (pages/SLUG.md) are not recomputed here:
// the manifest holds their size and SHA-256, and only verify's rebuild,
// which runs the build again and compares every file byte for byte, holds
// their words and figures to the data files. The few inputs only a
// snapshot records (its date and retrieval dates, the URLs, grid.json's
// pinned year and the Ember release name it was told) are taken from it
// and held to one another.
//
// The package imports nothing of transform/, which writes the files
// (TestIndependentOfTransform). It shares one package with it:
// internal/sourcetext, the reviewed fixed text both sides print (the
// source blocks, Ember's definition and licence, the tasks' names and
// units, index.json's details sentence, the evidence conflict template,
// the reference-year rule), read by the one loader both call (Load, once
// per Check); the checker fills the text's templates itself (fill,
// model.go) and compares every fixed text it can see. It re-implements the
// published rules from their specification; these are deliberate mirrors
// of the builder's code, and a change to one side must be made on the
// other:
//
//   - the published tasks (tasks.go, tasks: id, archived task file, ITL
//     ceiling; format's task registry), one row each;
//   - the stability filter and its cascade (stability.go;
//     leaderboard/stability.go);
//   - the order of a model's configurations, their repeats and the best
//     row of each GPU (model.go, sortRuns and beats; transform/model.go
//     and leaderboard.Better);
//   - the typed reading of an upstream row (upstream.go, rowParser;
//     leaderboard/parse.go);
//   - the layout of Ember's CSV told by its header: the long one when it
//     holds a larger share of Category, Variable, Unit and Value than of
//     the July 2026 layout's two columns (emberwide.go, gridLayoutOf;
//     transform/grid/layout.go, detect);
//   - the manifest's shape (manifest.go; format.Manifest and its
//     GridSummary), held field for field by TestManifestMirrorsSnapshots;
//   - the rounding and printing of figures (number.go): once, half to
//     even, from the unrounded upstream value;
//   - the bounds on an input (manifest.json's size and its generator's
//     strings, a line of Ember's CSV), held to the readers' and the
//     builder's constants by TestBoundsMirrored.
package validate
