// Package layering has no code: its tests hold the serving packages to the
// layers docs/architecture.md draws. The API, the MCP server and the site
// read snapshots only through catalog, so none of them imports snapshots,
// fetch or validate. Of the project's packages, the API imports only
// catalog, schemas and mcpserver, the MCP server only catalog and schemas
// (the published model type, JSON encoder and wording of what the energy
// covers come through catalog, not transform), and the site only catalog,
// render and its own chart package.
package layering
