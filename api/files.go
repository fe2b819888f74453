package api

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
)

// snapshot resolves the {date} of the request's path and sets the
// answer's Cache-Control: immutable for a date, short for "latest".
func (a *api) snapshot(w http.ResponseWriter, r *http.Request) (*catalog.Snapshot, bool) {
	date := r.PathValue("date")
	s, err := a.cat.Snapshot(date)
	if err != nil {
		fail(w, r, err)
		return nil, false
	}
	if date == catalog.Latest {
		w.Header().Set("Cache-Control", cacheShort)
	} else {
		w.Header().Set("Cache-Control", cacheImmutable)
	}
	return s, true
}

// file serves a published file of the snapshot, byte for byte.
func (a *api) file(path string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, ok := a.snapshot(w, r)
		if !ok {
			return
		}
		f, ok := s.File(path)
		if !ok {
			fail(w, r, &catalog.Error{Kind: catalog.NotFound, What: "file", Query: path,
				Detail: "snapshot " + s.Date + " has no " + path})
			return
		}
		writeBytes(w, r, f.Bytes, "application/json", f.SHA256)
	}
}

// model serves a published model file by its slug, or by the model's name
// or model id as the command line resolves them (catalog.FindModel:
// "Qwen 3 32B", "Qwen/Qwen3-32B" escaped as Qwen%2FQwen3-32B); such an
// answer names the slug's URL in Content-Location. With ?task=T it serves
// the model's file of that task, tasks/T/models/SLUG.json.
func (a *api) model(w http.ResponseWriter, r *http.Request) {
	s, ok := a.snapshot(w, r)
	if !ok {
		return
	}
	task, ok := taskParam(w, r, s)
	if !ok {
		return
	}
	slug := r.PathValue("slug")
	if !task.Primary {
		m, err := s.FindTaskModel(task.ID, slug)
		if err != nil {
			fail(w, r, err)
			return
		}
		f, _ := s.File(format.TaskModelPath(task.ID, m.Slug))
		if m.Slug != slug {
			w.Header().Set("Content-Location", "/v1/"+r.PathValue("date")+"/models/"+m.Slug+"?task="+task.ID)
		}
		writeBytes(w, r, f.Bytes, "application/json", f.SHA256)
		return
	}
	f, ok := s.File(format.ModelPath(slug))
	if !ok {
		m, err := s.FindModel(slug)
		if err != nil {
			fail(w, r, err)
			return
		}
		f, _ = s.File(format.ModelPath(m.Slug))
		w.Header().Set("Content-Location", "/v1/"+r.PathValue("date")+"/models/"+m.Slug)
	}
	writeBytes(w, r, f.Bytes, "application/json", f.SHA256)
}

func (a *api) snapshots(w http.ResponseWriter, r *http.Request) {
	type list struct {
		Latest    string                 `json:"latest"`
		Snapshots []catalog.SnapshotInfo `json:"snapshots"`
	}
	l := list{Snapshots: []catalog.SnapshotInfo{}}
	for _, s := range a.cat.Snapshots() {
		l.Snapshots = append(l.Snapshots, s.Info())
		l.Latest = s.Date
	}
	w.Header().Set("Cache-Control", cacheShort)
	writeJSON(w, r, l)
}

func (a *api) models(w http.ResponseWriter, r *http.Request) {
	s, ok := a.snapshot(w, r)
	if !ok {
		return
	}
	task, ok := taskParam(w, r, s)
	if !ok {
		return
	}
	l, err := s.ListTaskModels(task.ID)
	if err != nil {
		fail(w, r, err)
		return
	}
	writeJSON(w, r, l)
}

// tasks lists a snapshot's tasks: GET /v1/{date}/tasks.
func (a *api) tasks(w http.ResponseWriter, r *http.Request) {
	s, ok := a.snapshot(w, r)
	if !ok {
		return
	}
	writeJSON(w, r, s.ListTasks())
}

// taskParam reads the request's task parameter (catalog.FindTask; the
// primary task when there is none), answering a bad one.
func taskParam(w http.ResponseWriter, r *http.Request, s *catalog.Snapshot) (format.Task, bool) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		badParam(w, r, "query", "", "the query string is malformed: "+err.Error())
		return format.Task{}, false
	}
	if len(q[catalog.ParamTask]) > 1 {
		badParam(w, r, catalog.ParamTask, "", "parameter task is given more than once")
		return format.Task{}, false
	}
	t, err := s.FindTask(q.Get(catalog.ParamTask))
	if err != nil {
		fail(w, r, err)
		return format.Task{}, false
	}
	return t, true
}

// writeJSON writes v as the published files print JSON.
func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	b, err := format.Marshal(v)
	if err != nil {
		problem(w, r, http.StatusInternalServerError, "internal", "internal error", nil)
		return
	}
	writeBytes(w, r, b, "application/json", "")
}

// writeBytes writes b. With a sha256, the answer carries it as a strong
// ETag and a matching If-None-Match is answered 304.
func writeBytes(w http.ResponseWriter, r *http.Request, b []byte, contentType, sha string) {
	h := w.Header()
	if sha != "" {
		etag := `"` + sha + `"`
		h.Set("ETag", etag)
		if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b)
}

// etagMatch applies If-None-Match's weak comparison (RFC 9110 13.1.2): "*"
// or any listed tag equal to etag, W/ prefixes ignored.
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
