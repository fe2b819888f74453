package api

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/history"
)

// historyParams are the history endpoint's query parameters.
var historyParams = []string{"gpu", "task"}

// history answers a model's index rows across the releases served up to
// and including {date}: GET /v1/{date}/history/{model}?gpu=G&task=T. A
// release served later with an earlier date changes it, so it is cached
// as latest is, dated or not.
func (a *api) history(w http.ResponseWriter, r *http.Request) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		badParam(w, r, "query", "", "the query string is malformed: "+err.Error())
		return
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(historyParams, k) {
			badParam(w, r, k, "", "unknown parameter "+strconv.Quote(truncate(k))+"; the parameters are "+strings.Join(historyParams, ", "))
			return
		}
		if len(q[k]) > 1 {
			badParam(w, r, k, "", "parameter "+k+" is given more than once")
			return
		}
	}
	model := r.PathValue("model")
	if strings.TrimSpace(model) == "" {
		badParam(w, r, "model", "", "a model is required: a slug, name or model id")
		return
	}
	h, err := a.hist.History(r.Context(), history.Request{Model: model, Task: q.Get("task"), GPU: q.Get("gpu")}, r.PathValue("date"))
	if err != nil {
		fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", cacheShort)
	writeJSON(w, r, h)
}

// feed answers the releases served as an Atom feed: GET /v1/feed.atom,
// each entry linked to its manifest under /v1/DATE/.
func (a *api) feed(w http.ResponseWriter, r *http.Request) {
	if r.URL.RawQuery != "" {
		badParam(w, r, "query", "", "the feed takes no parameters")
		return
	}
	b, err := a.hist.Feed(r.Context(), "", history.FeedOptions{})
	if err != nil {
		fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", cacheShort)
	writeBytes(w, r, b, "application/atom+xml", "")
}
