package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// ServeHTTP serves the site's files: GET and HEAD, "/" and any path ending
// in "/" as its index.html, /favicon.ico as the site's icon, every response with the pages' CSP as a header
// too, and an ETag of its bytes. Mount it under a prefix with
// http.StripPrefix ("/2026-09-27/"): every link between pages is relative.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	p = path.Clean(p)
	if strings.HasSuffix(r.URL.Path, "/") || p == "/" {
		p = strings.TrimSuffix(p, "/") + "/index.html"
	}
	name := strings.TrimPrefix(p, "/")
	if name == "favicon.ico" {
		// Browsers ask for it whatever the page's icon link says.
		name = "favicon.svg"
	}
	b, err := s.Page(name)
	switch {
	case errors.Is(err, ErrNotFound):
		http.NotFound(w, r)
		return
	case err != nil:
		http.Error(w, "the snapshot cannot be served: "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	ct := mime.TypeByExtension(path.Ext(name))
	switch path.Ext(name) {
	case ".html":
		ct = "text/html; charset=utf-8"
	case ".md":
		ct = "text/markdown; charset=utf-8"
	case ".json":
		ct = "application/json"
	case ".js":
		ct = "text/javascript; charset=utf-8"
	case ".css":
		ct = "text/css; charset=utf-8"
	case ".svg":
		ct = "image/svg+xml"
	case ".txt":
		ct = "text/plain; charset=utf-8"
	case ".xml":
		ct = "application/xml"
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	sum := sha256.Sum256(b)
	h.Set("ETag", `"`+hex.EncodeToString(sum[:16])+`"`)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}
