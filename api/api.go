// Package api is the Green Tokens HTTP API: read-only JSON answers from a
// catalog of verified snapshots (see catalog), documented by the OpenAPI 3.1
// document schemas/openapi.json, served at /v1/openapi.json.
//
//	GET /v1/snapshots                          the served snapshots
//	GET /v1/{date|latest}/tasks                each task with its unit, latency ceiling and models
//	GET /v1/{date|latest}/models[?task=T]      each model with its index rows (of task T)
//	GET /v1/{date|latest}/models/{model}[?task=T]  the published model file, byte for byte (slug, name or model id)
//	GET /v1/{date|latest}/index                index.json, byte for byte
//	GET /v1/{date|latest}/grid                 grid.json, byte for byte
//	GET /v1/{date|latest}/manifest             manifest.json, byte for byte
//	GET /v1/{date|latest}/carbon?model=M&grid=G[&grid=G2...][&task=T][&gpu=B200][&num_gpus=N][&batch=B][&intensity=X][&pue=P]
//	GET /v1/{date|latest}/history/{model}[?gpu=B200][&task=gpqa]  the model's index rows across the releases served up to date, each change with why
//	GET /v1/feed.atom                          the releases served, as an Atom feed
//	GET /healthz, /readyz
//	/mcp                                       the MCP server (streamable HTTP), when mounted
//
// A published file carries an ETag (its sha256 in the manifest) and is
// answered 304 for a matching If-None-Match; a dated answer is cached as
// immutable (a served date never changes until restart: see catalog), a
// "latest" one for a minute. Errors are RFC 9457 problem+json (400, 404,
// 405, 414), and an unknown model, grid, GPU or date names the nearest ones
// when some are near. Dates, slugs and grids are looked up in the snapshot
// held in memory, never joined into a file path. Every request's work is
// bounded (the limits below, catalog.MaxNameBytes, the connection cap).
// Every request gets one access-log line; GET answers allow any origin
// (CORS).
package api

import (
	"log/slog"
	"net/http"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/history"
	"github.com/leadgreen/greentokens/schemas"
)

// Limits on a request.
const (
	// MaxPathBytes bounds a request's path (escaped): a longer one is
	// answered 414 before it is routed.
	MaxPathBytes = 1 << 10
	// MaxQueryBytes bounds a request's query string (50 grids of the
	// longest area names take about 2 KiB).
	MaxQueryBytes = 8 << 10
	// MaxHeaderBytes bounds a request's header, request line and the
	// blank line that ends it included (NewServer): net/http answers 431
	// and closes the connection past it, having read no more.
	MaxHeaderBytes = 16 << 10
)

// Cache-Control values.
const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cacheShort     = "public, max-age=60"
	cacheNone      = "no-store"
)

// Options configure the handler.
type Options struct {
	// Logger receives one access-log line per request; nil discards them.
	Logger *slog.Logger
	// MCP, when set, is mounted at /mcp (mcpserver.Handler).
	MCP http.Handler
	// Site, when set, serves every path outside /v1/, /mcp, /healthz and
	// /readyz: the static website (site/), "/" for the latest snapshot
	// and "/DATE/" for a dated one. Without it those paths are 404.
	Site http.Handler
}

// New returns the API over cat.
func New(cat *catalog.Catalog, opts Options) http.Handler {
	a := &api{cat: cat, hist: history.NewIndex(cat)}
	mux := http.NewServeMux()
	get := func(pattern string, h http.HandlerFunc) { mux.Handle(pattern, getOnly(cors(h))) }
	get("/v1/snapshots", a.snapshots)
	get("/v1/openapi.json", a.openapi)
	get("/v1/{date}/models", a.models)
	get("/v1/{date}/tasks", a.tasks)
	get("/v1/{date}/models/{slug}", a.model)
	get("/v1/{date}/index", a.file(format.IndexPath))
	get("/v1/{date}/grid", a.file(format.GridPath))
	get("/v1/{date}/manifest", a.file(format.ManifestPath))
	get("/v1/{date}/carbon", a.carbon)
	get("/v1/{date}/history/{model}", a.history)
	get("/v1/feed.atom", a.feed)
	get("/v1/", notFoundRoute)
	get("/healthz", a.healthz)
	get("/readyz", a.readyz)
	if opts.MCP != nil {
		mux.Handle("/mcp", opts.MCP)
	}
	if opts.Site != nil {
		mux.Handle("/", opts.Site)
	} else {
		get("/", notFoundRoute)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return accessLog(log, limitRequest(mux))
}

type api struct {
	cat  *catalog.Catalog
	hist *history.Index
}

// openAPI is the OpenAPI document, as shipped in schemas/.
var openAPI = schemas.OpenAPI()

func (a *api) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeBytes(w, r, openAPI, "application/json", "")
}

func (a *api) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", cacheNone)
	writeBytes(w, r, []byte(`{"status":"ok"}`), "application/json", "")
}

// readyz is 200 once a snapshot is served, 503 before.
func (a *api) readyz(w http.ResponseWriter, r *http.Request) {
	if !a.cat.Ready() {
		problem(w, r, http.StatusServiceUnavailable, "not-ready", "no snapshot is served yet", nil)
		return
	}
	w.Header().Set("Cache-Control", cacheNone)
	writeBytes(w, r, []byte(`{"status":"ready"}`), "application/json", "")
}

func notFoundRoute(w http.ResponseWriter, r *http.Request) {
	problem(w, r, http.StatusNotFound, catalog.NotFound, "no such endpoint; see /v1/openapi.json", nil)
}
