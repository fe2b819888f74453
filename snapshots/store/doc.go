// Package store keeps the dated snapshots of the Green Tokens index, each
// a release: a folder OUT/DATE/ holding the raw upstream bytes it was built
// from (sources/), the published files (models/, index.json, grid.json, the
// model pages under pages/), and manifest.json, which gives the origin,
// size and sha256 of every one of them (format.Manifest).
//
// It writes a release and reads one back, and decides nothing about what a
// release holds (the build does, snapshots/build):
//
//   - the stage (stage.go): a snapshot being built in a temporary folder
//     beside its target, each file written in one write or as a stream,
//     its size and sha256 counted as it goes; the build's write sink on
//     disk; an archived source that an earlier snapshot of the folder
//     holds with the same bytes is shared with it, by a reflink or a hard
//     link (link.go);
//   - the output folder's lock (lock.go), which makes the builds into one
//     folder take turns;
//   - the atomic publish (publish.go): the stage synced once and renamed
//     into place, so that a release appears whole or not at all, and an
//     existing one is never changed unless the caller asks to replace it;
//   - a release read back (release.go) through an fs.FS, its manifest
//     decoded once (Open) and every listed file checked against it (Load);
//   - the releases of a store (folder.go): a folder of dated folders
//     (Folder) behind the Store interface, and the latest release before a
//     date (LatestBefore).
//
// A release read from a folder goes through regfile.DirFS: a FIFO, a
// device or a symbolic link where a file should be is refused, never
// opened for reading or followed.
package store
