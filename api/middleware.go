package api

import (
	"log/slog"

	"github.com/leadgreen/greentokens/catalog"
	"net/http"
	"strconv"
	"time"
)

// getOnly lets GET and HEAD through, answers a CORS preflight (OPTIONS), and
// refuses other methods with 405.
func getOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			h.ServeHTTP(w, r)
		case http.MethodOptions:
			hd := w.Header()
			hd.Set("Access-Control-Allow-Origin", "*")
			hd.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			hd.Set("Access-Control-Allow-Headers", "If-None-Match")
			hd.Set("Access-Control-Max-Age", "86400")
			hd.Set("Allow", "GET, HEAD, OPTIONS")
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Allow", "GET, HEAD, OPTIONS")
			problem(w, r, http.StatusMethodNotAllowed, "method-not-allowed", r.Method+" is not allowed; the API is read-only (GET)", nil)
		}
	})
}

// cors lets any origin read a GET answer, and its ETag.
func cors(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Expose-Headers", "ETag")
		h(w, r)
	})
}

// limitRequest refuses a path over MaxPathBytes with 414 and a query
// string over MaxQueryBytes with 400, before any routing.
func limitRequest(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.URL.Path) > MaxPathBytes || len(r.URL.RawPath) > MaxPathBytes {
			r.URL.RawQuery, r.URL.RawPath, r.URL.Path = "", "", truncate(r.URL.Path) // not echoed in full
			problem(w, r, http.StatusRequestURITooLong, catalog.Invalid, "the path is over "+strconv.Itoa(MaxPathBytes)+" bytes", nil)
			return
		}
		if len(r.URL.RawQuery) > MaxQueryBytes {
			r.URL.RawQuery = r.URL.RawQuery[:64] // not echoed in full
			badParam(w, r, "query", "", "the query string is over "+strconv.Itoa(MaxQueryBytes)+" bytes")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// accessLog writes one log line per request.
func accessLog(log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		path := r.URL.Path
		if len(path) > 256 {
			path = path[:256] + "..."
		}
		log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", path), slog.Int("query_bytes", len(r.URL.RawQuery)),
			slog.Int("status", rec.status), slog.Int64("bytes", rec.bytes),
			slog.Duration("duration", time.Since(start)), slog.String("remote", r.RemoteAddr))
	})
}

// recorder notes a response's status and size. Unwrap gives
// http.ResponseController (and the MCP handler's flushes) the writer
// beneath.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
