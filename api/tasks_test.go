package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/catalog/catalogtest"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/validate"
)

// TestTaskEndpoints: /tasks, and the task parameter of /models,
// /models/{slug} and /carbon: each answer passes its schema, a task's
// model file is served byte for byte, and an unknown task is a 400 naming
// the parameter.
func TestTaskEndpoints(t *testing.T) {
	cat, err := catalog.Open(catalogtest.Shared(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := New(cat, Options{})
	s, _ := cat.Snapshot(catalog.Latest)
	get := func(path string) *httptest.ResponseRecorder {
		t.Helper()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		return w
	}
	for _, tc := range []struct{ path, schema string }{
		{"/v1/latest/tasks", "list-tasks.schema.json"},
		{"/v1/latest/models?task=text-to-image", "list-task-models.schema.json"},
		{"/v1/latest/models?task=Code+Completion", "list-task-models.schema.json"},
		{"/v1/latest/models?task=lm-arena-chat", "list-models.schema.json"},
		{"/v1/latest/carbon?task=text-to-video&model=wan-2-1-14b&grid=NOR&pue=1.1", "carbon-diffusion.schema.json"},
		{"/v1/latest/carbon?task=text-to-image&model=FLUX.1+dev&intensity=300", "carbon-diffusion.schema.json"},
		{"/v1/latest/carbon?task=gpqa&model=qwen-3-32b&grid=NOR", "carbon.schema.json"},
	} {
		w := get(tc.path)
		if w.Code != http.StatusOK {
			t.Errorf("%s: %d %.300s", tc.path, w.Code, w.Body)
			continue
		}
		if probs := validate.CheckSchema(tc.schema, tc.path, w.Body.Bytes()); len(probs) != 0 {
			t.Errorf("%s does not pass %s: %v", tc.path, tc.schema, probs)
		}
	}
	// Without a task, /models is Text Conversation's list.
	want, _ := format.Marshal(s.ListModels())
	if w := get("/v1/latest/models"); !bytes.Equal(w.Body.Bytes(), want) {
		t.Errorf("/models without a task is not ListModels")
	}
	w := get("/v1/latest/models/FLUX.1%20dev?task=text-to-image")
	f, _ := s.File(format.TaskModelPath("text-to-image", "flux-1-dev"))
	if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), f.Bytes) || w.Header().Get("ETag") != `"`+f.SHA256+`"` ||
		w.Header().Get("Content-Location") != "/v1/latest/models/flux-1-dev?task=text-to-image" {
		t.Errorf("a task's model file: %d, ETag %s, Content-Location %s", w.Code, w.Header().Get("ETag"), w.Header().Get("Content-Location"))
	}
	for _, path := range []string{"/v1/latest/models?task=text-to-audio", "/v1/latest/carbon?task=text-to-audio&model=x&grid=NOR",
		"/v1/latest/carbon?task=text-to-image&model=flux-1-dev&grid=NOR&batch=4", "/v1/latest/models?task=gpqa&task=gpqa"} {
		w := get(path)
		var p Problem
		json.Unmarshal(w.Body.Bytes(), &p)
		if w.Code != http.StatusBadRequest || p.Parameter == "" {
			t.Errorf("%s: %d %.300s; want 400 naming the parameter", path, w.Code, w.Body)
		}
	}
}
