// Package layering has no code: its test holds the serving packages to the
// layers docs/architecture.md draws. The API, the MCP server and the site
// read snapshots only through catalog, so none of them imports snapshots,
// fetch or validate; the site, besides, imports only catalog, render and its
// own chart package of the project's.
package layering
