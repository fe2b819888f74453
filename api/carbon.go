package api

import (
	"net/http"
	"net/url"
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
	for k := range q {
		if !slices.Contains(carbonParams, k) {
			badParam(w, r, k, "", "unknown parameter "+strconv.Quote(k)+"; the parameters are "+strings.Join(carbonParams, ", "))
			return
		}
	}
	for _, k := range []string{"model", "gpu", "num_gpus", "batch", "intensity"} {
		if len(q[k]) > 1 {
			badParam(w, r, k, "", "parameter "+k+" is given more than once")
			return
		}
	}
	if q.Get("model") == "" {
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
		f, err := strconv.ParseFloat(strings.TrimSpace(v[0]), 64)
		if err != nil {
			badParam(w, r, p.name, v[0], "parameter "+p.name+" "+strconv.Quote(v[0])+" is not a number")
			return
		}
		*p.dst = &f
	}
	if v, ok := q["num_gpus"]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v[0]))
		if err != nil {
			badParam(w, r, "num_gpus", v[0], "parameter num_gpus "+strconv.Quote(v[0])+" is not a whole number")
			return
		}
		req.NumGPUs = &n
	}
	ans, err := s.Price(req)
	if err != nil {
		// A number out of range is echoed as it was asked ("Inf", not "+Inf").
		if e, ok := err.(*catalog.Error); ok && (e.What == "batch" || e.What == "num_gpus" || e.What == "intensity") && len(q[e.What]) == 1 {
			e.Query = q[e.What][0]
		}
		fail(w, r, err)
		return
	}
	writeJSON(w, r, ans)
}
