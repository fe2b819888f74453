package format

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestTasks: the registry holds the seven published tasks, the primary one
// first, with their published names, keys, files, kinds, energy keys and
// latency ceilings; what Tasks returns is the caller's to change.
func TestTasks(t *testing.T) {
	got := Tasks()
	type entry struct {
		ID, Name, Key, File, Archived, Upstream, Unit string
		Kind                                          Kind
		InIndex, HasFiles                             bool
		EnergyField, EnergyKey, JoulesKey             string
		Ceiling                                       Ceiling
	}
	var entries []entry
	for _, task := range got {
		entries = append(entries, entry{task.ID, task.Name, task.Key, task.File(), task.ArchivedPath(), task.UpstreamPath(), task.Unit,
			task.Kind, task.InIndex, task.HasFiles(), task.EnergyField, task.EnergyKey(), task.JoulesKey(), task.Ceiling})
	}
	itl := Ceiling{Field: "median_itl_ms", Max: 500, Unit: "ms"}
	token := func(id, name, key string, inIndex, files bool) entry {
		return entry{id, name, key, "leaderboard/tasks/" + id + ".json", "sources/leaderboard/tasks/" + id + ".json", "tasks/" + id + ".json",
			"Wh per million output tokens", Tokens, inIndex, files, "energy_per_token_joules", "wh_per_million_output_tokens", "joules_per_output_token", itl}
	}
	want := []entry{
		token("lm-arena-chat", "Text Conversation", "text_conversation", true, false),
		token("gpqa", "Problem Solving", "problem_solving", true, true),
		token("sourcegraph-fim", "Code Completion", "code_completion", false, true),
		token("image-chat", "Image Chat", "image_chat", false, true),
		token("video-chat", "Video Chat", "video_chat", false, true),
		{"text-to-image", "Text to Image", "text_to_image", "leaderboard/tasks/text-to-image.json", "sources/leaderboard/tasks/text-to-image.json",
			"tasks/text-to-image.json", "Wh per image", Images, false, true, "energy_per_image_joules", "wh_per_image", "joules_per_image",
			Ceiling{Field: "batch_latency_s", Max: 30, Unit: "s"}},
		{"text-to-video", "Text to Video", "text_to_video", "leaderboard/tasks/text-to-video.json", "sources/leaderboard/tasks/text-to-video.json",
			"tasks/text-to-video.json", "Wh per video", Videos, false, true, "energy_per_video_joules", "wh_per_video", "joules_per_video",
			Ceiling{Field: "batch_latency_s", Max: 300, Unit: "s"}},
	}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("Tasks (-want +got):\n%s", diff)
	}
	if p := PrimaryTask(); p.ID != "lm-arena-chat" || !got[0].Primary || got[1].Primary {
		t.Errorf("the primary task is %q; want lm-arena-chat, first", p.ID)
	}
	got[0].Name = "changed"
	if again, _ := LookupTask("lm-arena-chat"); again.Name != "Text Conversation" {
		t.Errorf("changing what Tasks returned changed the registry: %q", again.Name)
	}
	if _, ok := LookupTask("audio-chat"); ok {
		t.Error("LookupTask found a task that is not registered")
	}
	if !Images.Diffusion() || !Videos.Diffusion() || Tokens.Diffusion() {
		t.Error("Diffusion: only images and videos are a diffusion model's")
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
	if got, want := DiffusionRowID("text-to-image", "flux-1-dev", "B200", 4, 8, 2, 2, 1), "flux-1-dev/text-to-image/B200/4/8/ulysses-2-ring-2"; got != want {
		t.Errorf("DiffusionRowID = %q, want %q", got, want)
	}
	if got, want := DiffusionRowID("text-to-video", "hunyuanvideo", "H100", 8, 1, 8, 1, 2), "hunyuanvideo/text-to-video/H100/8/1/ulysses-8-ring-1/r2"; got != want {
		t.Errorf("DiffusionRowID = %q, want %q", got, want)
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
