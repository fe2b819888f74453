package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/validate"
)

// TestTaskSurfaces: list tasks, list models --task and carbon --task, for
// every task of the sample, each --json answer passing its schema; a
// carbon row names the task and the unit, and carries the energy per unit
// as published and unrounded under the keys named for the unit.
func TestTaskSurfaces(t *testing.T) {
	endToEnd(t)
	snap := buildSevenGrids(t)
	code, stdout, stderr := runCLI(t, "list", "tasks", "--json", "--snapshot", snap)
	if code != exitOK {
		t.Fatalf("list tasks: exit %d: %s", code, stderr)
	}
	if probs := validate.CheckSchema("list-tasks.schema.json", "list tasks --json", []byte(stdout)); len(probs) != 0 {
		t.Errorf("list tasks --json: %v", probs)
	}
	var tasks struct {
		Tasks []struct {
			ID     string `json:"id"`
			Models int    `json:"models"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(stdout), &tasks); err != nil {
		t.Fatal(err)
	}
	if len(tasks.Tasks) != len(format.Tasks()) {
		t.Fatalf("list tasks lists %d tasks, want %d", len(tasks.Tasks), len(format.Tasks()))
	}
	for _, tk := range format.Tasks()[1:] {
		t.Run(tk.ID, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "list", "models", "--task", tk.Name, "--json", "--snapshot", snap)
			if code != exitOK {
				t.Fatalf("list models --task: exit %d: %s", code, stderr)
			}
			if probs := validate.CheckSchema("list-task-models.schema.json", "list models --task --json", []byte(stdout)); len(probs) != 0 {
				t.Errorf("list models --task %s --json: %v", tk.ID, probs)
			}
			var l struct {
				Task   string `json:"task"`
				Models []struct {
					Slug string `json:"slug"`
				} `json:"models"`
			}
			if err := json.Unmarshal([]byte(stdout), &l); err != nil || l.Task != tk.ID || len(l.Models) == 0 {
				t.Fatalf("list models --task %s: task %q, %d models, %v", tk.ID, l.Task, len(l.Models), err)
			}
			code, stdout, stderr = runCLI(t, "carbon", "--task", tk.ID, "--json", "--snapshot", snap, l.Models[0].Slug, "World", "--intensity", "100")
			if code != exitOK {
				t.Fatalf("carbon --task: exit %d: %s", code, stderr)
			}
			schema := "carbon.schema.json"
			if tk.Kind.Diffusion() {
				schema = "carbon-diffusion.schema.json"
			}
			if probs := validate.CheckSchema(schema, "carbon --task --json", []byte(stdout)); len(probs) != 0 {
				t.Errorf("carbon --task %s --json does not pass %s: %v", tk.ID, schema, probs)
			}
			var ans struct {
				Rows []map[string]any `json:"rows"`
			}
			if err := json.Unmarshal([]byte(stdout), &ans); err != nil || len(ans.Rows) == 0 {
				t.Fatalf("carbon --task %s: %d rows, %v", tk.ID, len(ans.Rows), err)
			}
			for _, r := range ans.Rows {
				pub, ok1 := r[tk.EnergyKey()].(float64)
				raw, ok2 := r[tk.EnergyKey()+"_unrounded"].(float64)
				if r["task"] != tk.ID || r["unit"] != tk.Unit || r["index_row"] != true || !ok1 || !ok2 || format.Round(raw, int(decimalsOf(tk))) != format.Float(pub) {
					t.Errorf("carbon --task %s: row %v lacks the task, the unit, index_row or its %s published and unrounded", tk.ID, r, tk.EnergyKey())
				}
			}
			code, stdout, _ = runCLI(t, "carbon", "--task", tk.ID, "--snapshot", snap, l.Models[0].Slug, "World")
			if code != exitOK || !strings.Contains(stdout, "Task "+tk.ID+", "+tk.Unit) {
				t.Errorf("carbon --task %s: exit %d, table does not name the task:\n%s", tk.ID, code, stdout)
			}
		})
	}
	if code, _, stderr := runCLI(t, "carbon", "--task", "text-to-audio", "--snapshot", snap, "x", "World"); code != exitUsage || !strings.Contains(stderr, "no task") {
		t.Errorf("an unknown task: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "carbon", "--task", "text-to-image", "--batch", "4", "--snapshot", snap, "flux-1-dev", "World"); code != exitUsage {
		t.Errorf("a running batch of a diffusion task: exit %d: %s", code, stderr)
	}
}

// decimalsOf is the decimals a task's energy per unit is published to.
func decimalsOf(t format.Task) float64 {
	if t.Kind.Diffusion() {
		return 4
	}
	return 2
}
