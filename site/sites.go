package site

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/history"
)

// Sites serves the website of every snapshot a catalog serves, from the
// same code as `greentokens site`: "/" and the pages under it are the
// latest snapshot's site, "/DATE/" and the pages under it a dated one's
// ("/DATE" redirects there). A snapshot's site is made from the catalog's
// copy in memory the first time it is asked for, and kept while the catalog
// serves that snapshot: the site and the API answer from the same bytes.
func Sites(cat *catalog.Catalog, opts Options) http.Handler {
	if opts.History == nil {
		opts.History = history.NewIndex(cat)
	}
	return &sites{cat: cat, opts: opts, open: map[*catalog.Snapshot]*Site{}}
}

type sites struct {
	cat  *catalog.Catalog
	opts Options
	mu   sync.Mutex
	open map[*catalog.Snapshot]*Site
}

func (h *sites) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	first, _, slash := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	date := catalog.Latest
	if isDate(first) {
		date = first
		if !slash {
			http.Redirect(w, r, "/"+first+"/", http.StatusMovedPermanently)
			return
		}
	}
	snap, err := h.cat.Snapshot(date)
	if err != nil {
		var ce *catalog.Error
		if errors.As(err, &ce) && ce.Query == catalog.Latest {
			http.Error(w, "no snapshot is served yet", http.StatusServiceUnavailable)
			return
		}
		NotFound(w, r)
		return
	}
	s, err := h.site(snap)
	if err != nil {
		h.opts.log().Error("site not made", "date", snap.Date, "err", err)
		http.Error(w, "the snapshot's site cannot be made", http.StatusInternalServerError)
		return
	}
	if date == catalog.Latest {
		s.ServeHTTP(w, r)
		return
	}
	http.StripPrefix("/"+first, s).ServeHTTP(w, r)
}

// site returns the opened site of a served snapshot.
func (h *sites) site(snap *catalog.Snapshot) (*Site, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.open[snap]; ok {
		return s, nil
	}
	s, err := New(snap, h.opts)
	if err != nil {
		return nil, err
	}
	// Let go of the sites of snapshots the catalog no longer serves.
	served := map[*catalog.Snapshot]bool{}
	for _, c := range h.cat.Snapshots() {
		served[c] = true
	}
	for k := range h.open {
		if !served[k] {
			delete(h.open, k)
		}
	}
	h.open[snap] = s
	return s, nil
}

// isDate says whether a path segment is a snapshot date, YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range s {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
