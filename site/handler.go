package site

import (
	"bytes"
	"errors"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// ServeHTTP serves the site's files from memory: GET and HEAD, "/" and any
// path ending in "/" as its index.html, /favicon.ico as the site's icon,
// every response with the pages' CSP as a header too, and an ETag (a data
// file's sha256, as the API gives it). An unknown path is the HTML 404
// page. Mount it under a prefix with http.StripPrefix ("/2026-09-27/"):
// every link between pages is relative.
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
	f, err := s.file(name)
	switch {
	case errors.Is(err, ErrNotFound):
		NotFound(w, r)
		return
	case err != nil:
		// The error names the snapshot's files, never a server path; the
		// log has it.
		http.Error(w, "the page cannot be made", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", contentType(name))
	setSecurityHeaders(h)
	h.Set("ETag", f.etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.b))
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".json":
		return "application/json"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".xml":
		return "application/xml"
	case ".atom":
		return "application/atom+xml"
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// notFoundPage is the HTML 404 page, the same for every path.
var notFoundPage = func() []byte {
	b, err := execute("notfound.tmpl", nil)
	if err != nil {
		panic(err)
	}
	return b
}()

// NotFound answers 404 with the site's HTML page.
func NotFound(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(notFoundPage)))
	h.Set("Cache-Control", "no-store")
	setSecurityHeaders(h)
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(notFoundPage)
	}
}
