package api

import (
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
)

// carbonParams are the carbon endpoint's query parameters.
var carbonParams = []string{"model", "grid", "gpu", "num_gpus", "batch", "intensity"}

// carbon prices a model: GET /v1/{date}/carbon?model=M&grid=G...
func (a *api) carbon(w http.ResponseWriter, r *http.Request) {
	s, ok := a.snapshot(w, r)
	if !ok {
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		badParam(w, r, "query", "", "the query string is malformed: "+err.Error())
		return
	}
	// The first unknown parameter in sorted order is named: the same
	// answer for the same query.
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(carbonParams, k) {
			badParam(w, r, k, "", "unknown parameter "+strconv.Quote(truncate(k))+"; the parameters are "+strings.Join(carbonParams, ", "))
			return
		}
	}
	for _, k := range []string{"model", "gpu", "num_gpus", "batch", "intensity"} {
		if len(q[k]) > 1 {
			badParam(w, r, k, "", "parameter "+k+" is given more than once")
			return
		}
	}
	if strings.TrimSpace(q.Get("model")) == "" {
		badParam(w, r, "model", "", "parameter model is required: a slug, name or model id")
		return
	}
	if n := len(q["grid"]); n > catalog.MaxGrids {
		badParam(w, r, "grid", "", strconv.Itoa(n)+" grids asked for; at most "+strconv.Itoa(catalog.MaxGrids)+" per request")
		return
	}
	req := catalog.PriceRequest{Model: q.Get("model"), Grids: q["grid"], GPU: q.Get("gpu")}
	for _, p := range []struct {
		name string
		dst  **float64
	}{{"batch", &req.Batch}, {"intensity", &req.Intensity}} {
		v, ok := q[p.name]
		if !ok {
			continue
		}
		f, msg := parseNumber(v[0])
		if msg != "" {
			badParam(w, r, p.name, truncate(v[0]), "parameter "+p.name+" "+strconv.Quote(truncate(v[0]))+" "+msg)
			return
		}
		*p.dst = &f
	}
	if v, ok := q["num_gpus"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v[0]))
		if err != nil {
			badParam(w, r, "num_gpus", truncate(v[0]), "parameter num_gpus "+strconv.Quote(truncate(v[0]))+" is not a whole number")
			return
		}
		req.NumGPUs = &n
	}
	ans, err := s.Price(req)
	if err != nil {
		// A number out of range is echoed as it was asked ("1e9", not "1e+09").
		if e, ok := err.(*catalog.Error); ok && (e.What == "batch" || e.What == "num_gpus" || e.What == "intensity") && len(q[e.What]) == 1 {
			e.Query = truncate(strings.TrimSpace(q[e.What][0]))
		}
		fail(w, r, err)
		return
	}
	writeJSON(w, r, ans)
}

// MaxNumberBytes is the longest number a query parameter may give.
const MaxNumberBytes = 32

// number is the decimal syntax of a number parameter: digits with an
// optional sign, fraction and exponent ("0x10", "1_000", "Inf" and "NaN"
// are not numbers here, whatever strconv.ParseFloat accepts).
var number = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// parseNumber parses a number parameter; msg says why it is refused. A
// negative zero is zero.
func parseNumber(v string) (f float64, msg string) {
	v = strings.TrimSpace(v)
	switch {
	case len(v) > MaxNumberBytes:
		return 0, "is over " + strconv.Itoa(MaxNumberBytes) + " characters"
	case !number.MatchString(v):
		return 0, "is not a decimal number"
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, "is out of range"
	}
	if f == 0 {
		f = 0 // -0 is 0
	}
	return f, ""
}

// truncate shortens a value echoed in a problem to 64 bytes.
func truncate(v string) string {
	if len(v) <= 64 {
		return v
	}
	return strings.ToValidUTF8(v[:64], "") + "..."
}
