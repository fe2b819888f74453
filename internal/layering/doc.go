// Package layering has no code: its tests hold the packages to the layers
// docs/architecture.md draws.
//
// The API, the MCP server and the site read snapshots only through
// catalog, so none of them imports snapshots, fetch or validate; each
// imports only the project's packages its row of servingImports lists (the
// published format among them: the model file's type, the JSON encoder,
// the wording of what the energy covers).
//
// The builder (transform/...) is imported, outside itself, only by
// snapshots, which holds the build, and by the command's grid hint, which
// reads an archived Ember CSV with the build's own parser. The readers of
// a snapshot depend on the published format (format), the leaderboard's
// rows (leaderboard) and pricing, never on the builder: format, leaderboard,
// pricing and render have no path to it at all, and catalog and the
// serving packages reach it only through snapshots (the store's Load lives
// beside the build there).
package layering
