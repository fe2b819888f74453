// Package layering has no code: its tests hold the packages to the layers
// docs/architecture.md draws.
//
// The API, the MCP server and the site read snapshots only through
// catalog, so none of them imports snapshots/..., fetch or validate; each
// imports only the project's packages its row of servingImports lists (the
// published format among them: the model file's type, the JSON encoder,
// the wording of what the energy covers).
//
// The builder (transform/...) is imported, outside itself, only by
// snapshots/build, which holds the build (verify rebuilds through it, and
// the command's grid hint reads an archived Ember CSV with its parser).
// The readers of a snapshot depend on the published format (format), the
// leaderboard's rows (leaderboard) and pricing, never on the builder:
// format, leaderboard, pricing and render have no path to it or to the
// store, and catalog, the serving packages, snapshots/diff,
// snapshots/store and snapshots/bucket none to the builder. The packages
// of snapshots/ import one another in one direction (store, diff, build,
// verify; the bucket on the store alone), and only the build, verify and
// the bucket's publish reach the test hooks (internal/crashtest). No package
// but the command sets a memory limit: it is the command's policy.
package layering
