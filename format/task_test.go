package format

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestTasks: the registry holds the two published tasks, the primary one
// first, with their published names, keys and files; what Tasks returns is
// the caller's to change.
func TestTasks(t *testing.T) {
	got := Tasks()
	type entry struct{ ID, Name, Key, File, Archived, Upstream, Unit string }
	var entries []entry
	for _, task := range got {
		entries = append(entries, entry{task.ID, task.Name, task.Key, task.File(), task.ArchivedPath(), task.UpstreamPath(), task.Unit})
	}
	want := []entry{
		{"lm-arena-chat", "Text Conversation", "text_conversation", "leaderboard/tasks/lm-arena-chat.json",
			"sources/leaderboard/tasks/lm-arena-chat.json", "tasks/lm-arena-chat.json", "Wh per million output tokens"},
		{"gpqa", "Problem Solving", "problem_solving", "leaderboard/tasks/gpqa.json",
			"sources/leaderboard/tasks/gpqa.json", "tasks/gpqa.json", "Wh per million output tokens"},
	}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("Tasks (-want +got):\n%s", diff)
	}
	if p := PrimaryTask(); p.ID != "lm-arena-chat" || !got[0].Primary || got[1].Primary {
		t.Errorf("the primary task is %q; want lm-arena-chat, first", p.ID)
	}
	for _, task := range got {
		if task.Ceiling != (Ceiling{Field: "median_itl_ms", Max: 500, Unit: "ms"}) || task.EnergyField != "energy_per_token_joules" {
			t.Errorf("%s: ceiling %+v, energy field %q", task.ID, task.Ceiling, task.EnergyField)
		}
	}
	got[0].Name = "changed"
	if again, _ := LookupTask("lm-arena-chat"); again.Name != "Text Conversation" {
		t.Errorf("changing what Tasks returned changed the registry: %q", again.Name)
	}
	if _, ok := LookupTask("image-chat"); ok {
		t.Error("LookupTask found a task that is not registered")
	}
}

func TestRowID(t *testing.T) {
	for _, tc := range []struct {
		task           string
		n, cap, repeat int
		want           string
	}{
		{"lm-arena-chat", 1, 64, 1, "qwen-3-32b/H100/1/64"},
		{"lm-arena-chat", 2, 256, 2, "qwen-3-32b/H100/2/256/r2"},
		{"gpqa", 1, 96, 1, "qwen-3-32b/gpqa/H100/1/96"},
		{"gpqa", 1, 96, 2, "qwen-3-32b/gpqa/H100/1/96/r2"},
	} {
		if got := RowID(tc.task, "qwen-3-32b", "H100", tc.n, tc.cap, tc.repeat); got != tc.want {
			t.Errorf("RowID(%s, %d, %d, %d) = %q, want %q", tc.task, tc.n, tc.cap, tc.repeat, got, tc.want)
		}
	}
}

// TestTaskTextRegistered: sourcetext's tasks.json names exactly the
// registered tasks, so no task's text is left unused.
func TestTaskTextRegistered(t *testing.T) {
	var ids []string
	for id := range mustText().Tasks {
		ids = append(ids, id)
	}
	var registeredIDs []string
	for _, task := range Tasks() {
		registeredIDs = append(registeredIDs, task.ID)
	}
	if diff := cmp.Diff(registeredIDs, ids, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("tasks.json's tasks (-registered +tasks.json):\n%s", diff)
	}
	if got := EnergyScope(); got != mustText().Pages.EnergyScope || got == "" {
		t.Errorf("EnergyScope() = %q", got)
	}
}
