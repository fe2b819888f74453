package api

import (
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
)

// carbonParams are the carbon endpoint's query parameters: the catalog's
// names of a price request's, so that an error of the catalog names the
// parameter as the query spells it; numberParams are its numbers.
var (
	numberParams = []string{catalog.ParamNumGPUs, catalog.ParamBatch, catalog.ParamIntensity, catalog.ParamPUE}
	carbonParams = append([]string{"model", "grid", "gpu", catalog.ParamTask}, numberParams...)
)

// carbon prices a model: GET /v1/{date}/carbon?model=M&grid=G...[&task=T]
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
	for _, k := range []string{"model", "gpu", catalog.ParamTask, catalog.ParamNumGPUs, catalog.ParamBatch, catalog.ParamIntensity, catalog.ParamPUE} {
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
	req := catalog.PriceRequest{Task: q.Get(catalog.ParamTask), Model: q.Get("model"), Grids: q["grid"], GPU: q.Get("gpu")}
	for _, p := range []struct {
		name string
		dst  **float64
	}{{catalog.ParamBatch, &req.Batch}, {catalog.ParamIntensity, &req.Intensity}, {catalog.ParamPUE, &req.PUE}} {
		v, ok := q[p.name]
		if !ok {
			continue
		}
		f, err := catalog.ParseNumber(v[0])
		if err != nil {
			badNumber(w, r, p.name, err)
			return
		}
		*p.dst = &f
	}
	if v, ok := q[catalog.ParamNumGPUs]; ok {
		n, err := catalog.ParseGPUCount(v[0])
		if err != nil {
			badNumber(w, r, catalog.ParamNumGPUs, err)
			return
		}
		req.NumGPUs = &n
	}
	ans, err := s.PriceTask(req)
	if err != nil {
		// A number out of range is echoed as it was asked ("1e9", not "1e+09").
		var e *catalog.Error
		if errors.As(err, &e) && slices.Contains(numberParams, e.What) && len(q[e.What]) == 1 {
			e.Query = truncate(strings.TrimSpace(q[e.What][0]))
		}
		fail(w, r, err)
		return
	}
	writeJSON(w, r, ans)
}

// badNumber answers a number parameter that catalog.ParseNumber or
// ParseGPUCount refused, echoing it shortened.
func badNumber(w http.ResponseWriter, r *http.Request, name string, err error) {
	var ne *catalog.NumberError
	if !errors.As(err, &ne) {
		fail(w, r, err)
		return
	}
	badParam(w, r, name, truncate(ne.Text), "parameter "+name+" "+strconv.Quote(truncate(ne.Text))+" "+ne.Reason)
}

// truncate shortens a value echoed in a problem to 64 bytes.
func truncate(v string) string {
	if len(v) <= 64 {
		return v
	}
	return strings.ToValidUTF8(v[:64], "") + "..."
}
