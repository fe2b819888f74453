package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/mcpserver"
)

// Server timeouts.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 120 * time.Second
	// ShutdownTimeout bounds the wait for in-flight requests on shutdown.
	ShutdownTimeout = 10 * time.Second
)

// ServeOptions configure Serve.
type ServeOptions struct {
	// Snapshots is the folder holding the dated snapshots, unless Catalog
	// is set.
	Snapshots string
	// Catalog, when set, is the catalog served (catalog.NewStore: the
	// releases of a bucket), loaded and rescanned by Serve; Snapshots is
	// then not read.
	Catalog *catalog.Catalog
	// Addr is the address to listen on (host:port).
	Addr string
	// Rescan is how often to look for new dated folders; 0 never.
	Rescan time.Duration
	// Logger receives the access log, the catalog's messages and the
	// server's own errors.
	Logger *slog.Logger
	// AllowOrigins are the Host names and Origin values /mcp accepts
	// beside the loopback names and Addr's host (mcpserver.Allow).
	AllowOrigins []string
	// Version is the binary's, as `greentokens version` prints it: the MCP
	// server's serverInfo.version.
	Version string
	// Site, when set, makes the handler mounted at / (see Options.Site)
	// from the catalog the server answers from: the static website
	// (site/) serves the same snapshots, "/" for the latest and "/DATE/"
	// for a dated one.
	Site func(*catalog.Catalog) http.Handler
	// Listening, when set, is called with the address once the server
	// listens (port 0 picks one), before the snapshots are loaded.
	Listening func(addr string)
	// Loaded, when set, is called once the first scan of the snapshots
	// is done.
	Loaded func()
}

// Serve listens on opts.Addr first (a port in use fails at once), then
// loads the snapshots while /healthz already answers (/readyz is 503 until
// one is served), serves the API, the site and the MCP server (/mcp), and
// rescans for new snapshots, until ctx is done; then it stops accepting
// connections and lets in-flight requests finish (at most
// ShutdownTimeout). It holds at most MaxConnections connections (fewer
// under a low file limit: connCap).
func Serve(ctx context.Context, opts ServeOptions) error {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	limit := newConnLimiter(ln, connCap())
	cat := opts.Catalog
	if cat == nil {
		cat = catalog.New(opts.Snapshots, log)
	}
	allow, err := mcpserver.Allow(opts.Addr, opts.AllowOrigins)
	if err != nil {
		limit.Close()
		return fmt.Errorf("serve: %w", err)
	}
	o := Options{Logger: log, MCP: mcpserver.Handler(cat, allow, opts.Version)}
	if opts.Site != nil {
		o.Site = opts.Site(cat)
	}
	srv := NewServer(New(cat, o))
	srv.ConnState = limit.track
	setErrorLog(srv, log)
	log.Info("listening", "addr", ln.Addr().String(), "max_connections", limit.max)
	if opts.Listening != nil {
		opts.Listening(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(limit) }()

	if _, err := cat.Load(); err != nil {
		srv.Close()
		<-done
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("serving", "addr", ln.Addr().String(), "snapshots", cat.Dates())
	if opts.Loaded != nil {
		opts.Loaded()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go cat.Run(ctx, opts.Rescan)

	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", ShutdownTimeout)
	sctx, scancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// setErrorLog sends net/http's own error lines (a failed Accept, a
// panic) to log, in its format (text or JSON).
func setErrorLog(srv *http.Server, log *slog.Logger) {
	srv.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelError)
}

// bufioSlop is how far past http.Server.MaxHeaderBytes net/http reads a
// request's header before it answers 431: it reads at most MaxHeaderBytes
// + 4096 bytes of it (server.go's initialReadLimitSize, room for its
// bufio.Reader's read-ahead), so that a server given 16 KiB accepts a
// header of 20 KiB.
const bufioSlop = 4096

// NewServer is an http.Server for h with the API's timeouts and header cap:
// its MaxHeaderBytes is MaxHeaderBytes less net/http's bufioSlop, so that
// a request whose header, request line included, is over MaxHeaderBytes
// gets 431 and one of MaxHeaderBytes is read.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes - bufioSlop,
	}
}
