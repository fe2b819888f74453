// Package validate is the second pair of eyes on a Green Tokens snapshot
// (snapshots/DATE/): it recomputes every published byte from the archived
// upstream files, and nothing is published unless Check finds no problem.
// It is boring on purpose: the standard library,
// santhosh-tekuri/jsonschema for the schemas, jsontext for keys given
// twice, encoding/csv for Ember's file, one check after the other, every
// file read whole and checked whole against its schema, and no caches or
// hooks into the build. It imports golang.org/x/text/message and /language
// only to print the jsonschema library's messages, whose ErrorKind prints
// through a message.Printer (schema.go; allowed by
// TestIndependentOfTransform).
//
// Check reads the snapshot through an fs.FS (regfile.DirFS for a folder)
// and refuses what is not a regular file, whatever the fs.FS serves. It
// runs five checks in turn and reports every problem, naming the file, the
// row and the field: manifest (manifest.go: every file listed once, with
// its size and SHA-256), schemas (schema.go), leaderboard (leaderboard.go,
// upstream.go, stability.go, model.go, compare.go: the archived task files
// parsed, filtered and every model file recomputed), grid (grid.go,
// emberwide.go: grid.json from the archived Ember CSV) and index (index.go:
// index.json from the task files). A recomputed file is compared byte for
// byte, and when the bytes differ, each differing figure is named with the
// upstream values it comes from.
//
// The package imports nothing of transform/, which writes the files
// (TestIndependentOfTransform). It shares one package with it:
// internal/sourcetext, the reviewed fixed text both sides print, read by
// the one loader both call (LoadLeaderboard); the checker fills the text's
// templates itself (fill, model.go). It re-implements the published rules
// from their specification; these are deliberate mirrors of transform's
// code, and a change to one side must be made on the other:
//
//   - the published tasks (tasks.go, tasks: id, display name, archived task
//     file, unit, ITL ceiling; the builder's task registry), one row each;
//   - the stability filter and its cascade (stability.go; transform/stability.go);
//   - the order of a model's configurations, their repeats and the best
//     row of each GPU (model.go, sortRuns and beats; transform/model.go);
//   - the typed reading of an upstream row (upstream.go, rowParser;
//     transform/leaderboard.go);
//   - the layout of Ember's CSV told by its header: the long one when it
//     holds a larger share of Category, Variable, Unit and Value than of
//     the July 2026 layout's two columns (emberwide.go, gridLayoutOf;
//     transform/grid/layout.go, detect);
//   - the manifest's shape (manifest.go; snapshots.Manifest and
//     transform/grid's Summary), held field for field by
//     TestManifestMirrorsSnapshots;
//   - the rounding and printing of figures (number.go): once, half to
//     even, from the unrounded upstream value.
package validate
