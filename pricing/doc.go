// Package pricing prices a model's energy on a grid and finds what a person
// names among a snapshot's models and grids: the carbon of a billion output
// tokens from a row's unrounded Wh/M and a grid's intensity
// (KgPerBillionTokens), an area of grid.json by its ISO 3 code, its name or
// a name Ember gave it before (Lookup, KnownNames), names compared with
// case, spaces and punctuation aside (NameKey, MatchNames), and the
// nearest names for one that matches nothing (Nearest, EditDistance).
//
// It reads the published format (format.Grid) and the leaderboard's rows;
// the serving packages, the page renderer and the command price through it,
// never through the builder.
package pricing
