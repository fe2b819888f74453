package leaderboard

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"

	"github.com/leadgreen/greentokens/format"
)

// Upstream field names of a diffusion task file's rows (text-to-image,
// text-to-video), beside the fields every task file has (FieldModelID,
// FieldNickname, FieldGPU, FieldNumGPUs, FieldPrecision, FieldPower,
// FieldTotalParams, FieldActiveParams).
const (
	FieldBatchSize    = "batch_size"
	FieldBatchLatency = "batch_latency_s"
	FieldUlysses      = "ulysses_degree"
	FieldRing         = "ring_degree"
	FieldSteps        = "inference_steps"
	FieldImageWidth   = "image_width"
	FieldImageHeight  = "image_height"
	FieldImageEnergy  = "energy_per_image_joules"
	FieldImageRate    = "throughput_images_per_sec"
	FieldVideoWidth   = "video_width"
	FieldVideoHeight  = "video_height"
	FieldVideoEnergy  = "energy_per_video_joules"
	FieldVideoRate    = "throughput_videos_per_sec"
	FieldFrames       = "num_frames"
	FieldFPS          = "fps"
)

// DiffusionRow is one row of a diffusion task file, as published: a batch
// of images or videos generated on NumGPUs GPUs.
type DiffusionRow struct {
	Task  string // task id, e.g. "text-to-image"
	Index int    // position in the file's configurations array (0-based)
	Video bool   // a video task's row: Frames and FPS are set

	ModelID, Nickname, GPU string
	// Precision is "" where upstream lacks weight_precision (versions
	// before 2025-12-15).
	Precision                            string
	NumGPUs, Ulysses, Ring, BatchSize    int
	TotalParams, ActiveParams            float64
	Width, Height, Steps, Frames         int
	FPS, BatchLatency, Power, Throughput float64
	// Energy is the energy per image or video in joules; nil when upstream
	// has no value.
	Energy *float64

	content rowContent
}

// Label names the row in errors and logs:
// "leaderboard/tasks/TASK.json: configurations[I] (MODEL on N x GPU, batch_size B)".
func (r *DiffusionRow) Label() string {
	return format.LeaderboardTask(r.Task) + ": " + r.Where()
}

// Where names the row within its file, with as much of its identity as
// could be read.
func (r *DiffusionRow) Where() string {
	switch {
	case r.ModelID != "" && r.GPU != "" && r.NumGPUs > 0 && r.BatchSize > 0:
		return fmt.Sprintf("configurations[%d] (%s on %d x %s, batch_size %d)", r.Index, r.ModelID, r.NumGPUs, r.GPU, r.BatchSize)
	case r.ModelID != "":
		return fmt.Sprintf("configurations[%d] (%s)", r.Index, r.ModelID)
	}
	return fmt.Sprintf("configurations[%d]", r.Index)
}

// EnergyField is the row's upstream field of its energy per image or video.
func (r *DiffusionRow) EnergyField() string {
	if r.Video {
		return FieldVideoEnergy
	}
	return FieldImageEnergy
}

// Wh is a published row's unrounded energy per image or video in Wh.
func (r *DiffusionRow) Wh() float64 { return *r.Energy / JoulesPerWh }

// VideoSeconds is the length of each video of a video task's row, num_frames
// over fps.
func (r *DiffusionRow) VideoSeconds() float64 { return float64(r.Frames) / r.FPS }

// Plausibility bounds of the diffusion task files' figures, each with a
// wide margin around what the eight shared leaderboard versions hold
// (given with it). A row beyond one is left out and recorded, with its
// reason, like an unstable token row.
const (
	// MinJoulesPerImage and MaxJoulesPerImage bound a positive
	// energy_per_image_joules (real: 338 to 26,071 J).
	MinJoulesPerImage = 1.0
	MaxJoulesPerImage = 1e6
	// MinJoulesPerVideo and MaxJoulesPerVideo bound a positive
	// energy_per_video_joules (real: 26,360 to 1,486,300 J).
	MinJoulesPerVideo = 10.0
	MaxJoulesPerVideo = 1e9
	// MinBatchLatencyS and MaxBatchLatencyS bound batch_latency_s (real:
	// 0.64 to 6,288 s).
	MinBatchLatencyS = 0.001
	MaxBatchLatencyS = 1e6
	// MinPixels and MaxPixels bound a width or height (real: 480 to 1,360).
	MinPixels = 8
	MaxPixels = 65536
	// MaxSteps bounds inference_steps (real: 20 to 50).
	MaxSteps = 10000
	// MaxFrames bounds num_frames (real: 49 to 129); MinFPS and MaxFPS fps
	// (real: 8 to 15).
	MaxFrames = 1000000
	MinFPS    = 0.1
	MaxFPS    = 1000.0
	// MaxBatchSize bounds batch_size (real: 1 to 32).
	MaxBatchSize = 100000
)

// DiffusionExclusion is a diffusion row left out of the published figures.
type DiffusionExclusion struct {
	Row    *DiffusionRow
	Reason string
}

// ParseDiffusion reads a diffusion task file's rows (the task's Kind is
// Images or Videos). A row without a field the rules need, or with a field
// of the wrong type, is an error naming the file, the row and the field;
// fields upstream adds are ignored. The checks of the whole file are
// ParseTask's.
func ParseDiffusion(task string, data []byte) ([]DiffusionRow, error) {
	t, ok := format.LookupTask(task)
	if !ok || !t.Kind.Diffusion() {
		return nil, fmt.Errorf("%s: not a diffusion task the index publishes", format.LeaderboardTask(task))
	}
	var rows []DiffusionRow
	err := readTask(task, data, func(raws [][]byte) (int, error) {
		rows = make([]DiffusionRow, len(raws))
		for i, raw := range raws {
			if err := parseDiffusionRow(&rows[i], task, t.Kind == format.Videos, i, raw); err != nil {
				return 0, fmt.Errorf("%s: %w", rows[i].Label(), err)
			}
		}
		return len(rows), nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func parseDiffusionRow(r *DiffusionRow, task string, video bool, i int, raw json.RawMessage) error {
	r.Task, r.Index, r.Video = task, i, video
	m, ok := objectMembers(raw)
	if !ok {
		return fmt.Errorf("not a JSON object")
	}
	f := fields{m: m}
	r.ModelID = f.str(FieldModelID)
	r.Nickname = f.str(FieldNickname)
	r.GPU = f.gpu()
	if _, present := m[FieldPrecision]; present {
		r.Precision = f.str(FieldPrecision)
	}
	r.NumGPUs = f.count(FieldNumGPUs)
	r.Ulysses = f.count(FieldUlysses)
	r.Ring = f.count(FieldRing)
	r.BatchSize = f.count(FieldBatchSize)
	r.TotalParams = f.num(FieldTotalParams)
	r.ActiveParams = f.num(FieldActiveParams)
	r.Steps = f.count(FieldSteps)
	r.BatchLatency = f.num(FieldBatchLatency)
	r.Power = f.num(FieldPower)
	if video {
		r.Width, r.Height = f.count(FieldVideoWidth), f.count(FieldVideoHeight)
		r.Frames = f.count(FieldFrames)
		r.FPS = f.num(FieldFPS)
		r.Throughput = f.num(FieldVideoRate)
		r.Energy = f.optNum(FieldVideoEnergy)
	} else {
		r.Width, r.Height = f.count(FieldImageWidth), f.count(FieldImageHeight)
		r.Throughput = f.num(FieldImageRate)
		r.Energy = f.optNum(FieldImageEnergy)
	}
	if f.err != nil {
		return f.err
	}
	r.content = contentKey(m)
	return nil
}

// StableDiffusion returns a diffusion task's rows that are published, in
// upstream order, and the rows left out with their reasons: a row whose
// energy per image or video is missing, non-finite or not positive, a row
// with a figure beyond the plausibility bounds above (diffusionBounds), and
// an exact duplicate of an earlier row (DuplicateReason).
func StableDiffusion(rows []DiffusionRow) (kept []DiffusionRow, excluded []DiffusionExclusion) {
	first := map[rowContent]int{}
	for i := range rows {
		r := &rows[i]
		reason := ""
		if j, dup := first[r.content]; dup && r.content != (rowContent{}) {
			reason = DuplicateReason(j)
		} else {
			first[r.content] = i
			reason = diffusionBounds(r)
		}
		if reason != "" {
			excluded = append(excluded, DiffusionExclusion{Row: r, Reason: reason})
			continue
		}
		kept = append(kept, *r)
	}
	return kept, excluded
}

// diffusionBounds is the reason a diffusion row is left out, "" when it is
// published: its energy first, then each figure against its bound.
func diffusionBounds(r *DiffusionRow) string {
	key, lo, hi := FieldImageEnergy, MinJoulesPerImage, MaxJoulesPerImage
	if r.Video {
		key, lo, hi = FieldVideoEnergy, MinJoulesPerVideo, MaxJoulesPerVideo
	}
	switch e := r.Energy; {
	case e == nil:
		return key + " is missing"
	case math.IsNaN(*e) || math.IsInf(*e, 0):
		return fmt.Sprintf("%s %v is not finite", key, *e)
	case *e <= 0:
		return fmt.Sprintf("%s %v is not positive", key, *e)
	}
	checks := []struct {
		key    string
		v      float64
		unit   string
		lo, hi float64
	}{
		{key, *r.Energy, "J", lo, hi},
		{FieldBatchLatency, r.BatchLatency, "s", MinBatchLatencyS, MaxBatchLatencyS},
		{FieldPower, r.Power / float64(r.NumGPUs), "W per GPU", MinWattsPerGPU, MaxWattsPerGPU},
		{FieldTotalParams, r.TotalParams, "billion", MinParamsB, MaxParamsB},
		{FieldActiveParams, r.ActiveParams, "billion", MinParamsB, MaxParamsB},
		{"width", float64(r.Width), "px", MinPixels, MaxPixels},
		{"height", float64(r.Height), "px", MinPixels, MaxPixels},
		{FieldSteps, float64(r.Steps), "", 1, MaxSteps},
		{FieldBatchSize, float64(r.BatchSize), "", 1, MaxBatchSize},
	}
	if r.Video {
		checks = append(checks, struct {
			key    string
			v      float64
			unit   string
			lo, hi float64
		}{FieldFrames, float64(r.Frames), "", 1, MaxFrames}, struct {
			key    string
			v      float64
			unit   string
			lo, hi float64
		}{FieldFPS, r.FPS, "", MinFPS, MaxFPS})
	}
	for _, c := range checks {
		if err := within(c.key, c.v, c.unit, c.lo, c.hi); err != nil {
			return err.Error()
		}
	}
	if r.Ulysses*r.Ring != r.NumGPUs {
		return fmt.Sprintf("ulysses_degree %d times ring_degree %d is not num_gpus %d", r.Ulysses, r.Ring, r.NumGPUs)
	}
	return ""
}

// DiffusionTaskRows parses a diffusion task file, keeps its published rows
// (StableDiffusion) and returns them by published row id
// (DiffusionRowIDs), as TaskRows does a token task's: what a reader of a
// snapshot uses to find the unrounded row behind a published configuration.
func DiffusionTaskRows(task string, data []byte) (map[string]*DiffusionRow, error) {
	rows, err := ParseDiffusion(task, data)
	if err != nil {
		return nil, err
	}
	kept, _ := StableDiffusion(rows)
	return DiffusionRowIDs(task, kept)
}

// DiffusionRowIDs returns a diffusion task's published rows (as
// StableDiffusion returns them, in upstream order) by row id
// (format.DiffusionRowID; repeats numbered in upstream order). The map
// points into rows.
func DiffusionRowIDs(task string, rows []DiffusionRow) (map[string]*DiffusionRow, error) {
	type key struct {
		model, gpu              string
		n, batch, ulysses, ring int
	}
	seen := map[key]int{}
	out := make(map[string]*DiffusionRow, len(rows))
	for i := range rows {
		r := &rows[i]
		slug := Slug(r.Nickname)
		if slug == "" {
			return nil, fmt.Errorf("%s: field %q: %q gives an empty slug", r.Label(), FieldNickname, r.Nickname)
		}
		k := key{r.ModelID, r.GPU, r.NumGPUs, r.BatchSize, r.Ulysses, r.Ring}
		seen[k]++
		id := format.DiffusionRowID(task, slug, r.GPU, r.NumGPUs, r.BatchSize, r.Ulysses, r.Ring, seen[k])
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s: row id %s is taken by another model with the same slug", r.Label(), id)
		}
		out[id] = r
	}
	return out, nil
}

// BetterDiffusion reports whether row a beats row b as a GPU's index row
// in a diffusion task (among the rows under the batch latency ceiling):
// lower unrounded energy per image or video; ties go to the row first in
// DiffusionOrder (fewer GPUs, the smaller batch, the lower Ulysses degree,
// the lower ring degree), then the lower repeat (ra and rb, the rows'
// repeat numbers in their configuration, which follow upstream order).
func BetterDiffusion(a *DiffusionRow, ra int, b *DiffusionRow, rb int) bool {
	if *a.Energy != *b.Energy {
		return *a.Energy < *b.Energy
	}
	if c := DiffusionOrder(a, b); c != 0 {
		return c < 0
	}
	return ra < rb
}

// DiffusionOrder orders one GPU's rows of a model in a diffusion task, as
// its file lists them: by GPU count, batch size, Ulysses degree, then ring
// degree (-1 when a comes first, 0 for the same configuration).
func DiffusionOrder(a, b *DiffusionRow) int {
	return cmp.Or(cmp.Compare(a.NumGPUs, b.NumGPUs), cmp.Compare(a.BatchSize, b.BatchSize),
		cmp.Compare(a.Ulysses, b.Ulysses), cmp.Compare(a.Ring, b.Ring))
}
