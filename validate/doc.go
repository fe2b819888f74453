// Package validate is the second pair of eyes on a Green Tokens snapshot
// (snapshots/DATE/). Nothing is published unless Snapshot finds no problem.
//
// It checks three things, and reports every problem it finds, each naming
// the file, the row and the field:
//
//   - the manifest: every file in the folder but manifest.json is listed
//     exactly once, under sources (archived upstream bytes) or outputs, with
//     the size and SHA-256 of its bytes on disk, and nothing listed is missing;
//   - the schemas: manifest.json, models/*.json and every other output that
//     has a schema in schemas/ (grid.json, index.json) against the JSON
//     Schemas that ship with the data (a value the snapshot repeats is
//     checked once: checkonce.go);
//   - the figures: every model file, grid.json, index.json, the manifest's
//     exclusions and its evidence are recomputed from the archived raw
//     sources alone (which must themselves hold no key twice in one object,
//     and no task row of a model index.json does not list) and compared
//     with what the snapshot holds, byte for byte, so number formatting and
//     key order are checked too.
//
// The recomputation is independent of transform/, which writes the files:
// this package re-implements the published rules (the stability filter, the
// rounding, the sort order, the best-row selection) from their
// specification, and imports only transform/sourcetext, the reviewed fixed
// text both sides print. A mismatch means one of the two is wrong, and the
// snapshot is not published until a person has looked.
//
// The checks of grid.json and index.json plug in through Register, as
// more checks can. A build may start the grid check's read of the archived
// Ember CSV while it writes it (Early), and check the snapshot with
// Early.Snapshot; what Early read is used only where the file on disk,
// hashed when the snapshot is checked, still holds those bytes.
package validate
