// Package leaderboard reads the ML.ENERGY Leaderboard's published files as
// a snapshot archives them: index.json (ParseIndex), GitHub's list of the
// newest commit to the task files (ParseCommits), and a task file's
// configuration rows (ParseTask, Row), each refused with an error naming
// the file, the row and the field when it cannot be read safely (a key
// given twice, bytes that are not UTF-8, a value beyond its plausibility
// bound). It applies the stability filter of the leaderboard's own toolkit
// (Stable), and finds the stable row behind a published configuration by
// its row id (TaskRows, RowIDs), with the unrounded figures every
// published one is rounded from (Row.WhPerMillion).
//
// The builder (transform/) derives the published files from these rows;
// the readers of a snapshot (the page renderer, the catalog, the diff) read
// the rows behind its figures through this package, without the builder.
// It reads bytes and returns values; it never touches the network or the
// disk.
package leaderboard
