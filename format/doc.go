// Package format is the published format of a Green Tokens snapshot: the
// types of every file a snapshot publishes (a model file, index.json,
// grid.json, manifest.json and the generator it records), with their JSON
// keys in the published order; the encoder that writes them (Marshal, and
// IndexFile.Encode for a large index.json); the numbers as the files print
// them (Float, Round, RoundInt, Sig3); the paths of the files in a
// snapshot; the identity of a release (Release); and the registry of the
// leaderboard tasks the index publishes (Task, Tasks, LookupTask).
//
// It is what a reader of a snapshot needs and nothing of how the figures
// are derived: the builder (transform/) fills these types, and the serving
// packages, the page renderer and the store read them, without importing
// the builder. The package does no I/O and holds no rule beyond encoding;
// every exported value is a constant, a type, or a function that returns a
// fresh copy, so no caller can change what another reads.
package format
