package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
)

// Problem is an RFC 9457 problem detail, with the extension members
// "parameter", "query" and "nearest". Field order is the key order.
type Problem struct {
	// Type is "urn:greentokens:problem:" + a kind: not-found, invalid,
	// method-not-allowed, not-ready.
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail"`
	Instance string `json:"instance"`
	// Parameter names what was asked for: snapshot, model, grid, gpu,
	// batch, intensity, or a query parameter.
	Parameter string `json:"parameter,omitempty"`
	// Query is the value asked for.
	Query string `json:"query,omitempty"`
	// Nearest lists up to three existing names closest to Query.
	Nearest []string `json:"nearest,omitempty"`
}

// ProblemType prefixes every problem's type.
const ProblemType = "urn:greentokens:problem:"

// problem writes a problem+json answer. e, when set, fills in the
// parameter, query and nearest names.
func problem(w http.ResponseWriter, r *http.Request, status int, kind, detail string, e *catalog.Error) {
	p := Problem{Type: ProblemType + kind, Title: http.StatusText(status), Status: status, Detail: detail, Instance: r.URL.RequestURI()}
	if len(p.Instance) > 512 {
		p.Instance = p.Instance[:512] + "..."
	}
	if e != nil {
		p.Parameter, p.Query, p.Nearest = e.What, e.Query, e.Nearest
	}
	b, err := format.Marshal(p)
	if err != nil {
		b = []byte(`{"type":"about:blank","status":` + strconv.Itoa(status) + `}`)
	}
	h := w.Header()
	h.Del("ETag")
	h.Set("Cache-Control", cacheNone)
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}

// fail answers a catalog error: 404 for an unknown name, 400 otherwise.
func fail(w http.ResponseWriter, r *http.Request, err error) {
	var e *catalog.Error
	if !errors.As(err, &e) {
		problem(w, r, http.StatusInternalServerError, "internal", "internal error", nil)
		return
	}
	status := http.StatusBadRequest
	if e.Kind == catalog.NotFound {
		status = http.StatusNotFound
	}
	problem(w, r, status, e.Kind, e.Error(), e)
}

// badParam answers 400 for a query parameter.
func badParam(w http.ResponseWriter, r *http.Request, param, value, detail string) {
	problem(w, r, http.StatusBadRequest, catalog.Invalid, detail, &catalog.Error{What: param, Query: value})
}
