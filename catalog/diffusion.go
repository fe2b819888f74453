package catalog

import (
	"fmt"
	"strconv"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
)

// DiffusionCarbon is the answer to a PriceRequest of a diffusion task
// (text-to-image, text-to-video): each GPU's index row priced per image
// and per 1,000 images, or per video and per minute of video.
type DiffusionCarbon struct {
	Snapshot string `json:"snapshot"`
	Task     string `json:"task"`
	Unit     string `json:"unit"`
	Model    string `json:"model"`
	Name     string `json:"name"`
	ModelID  string `json:"model_id"`
	// Selection says which row each GPU's figures come from.
	Selection string `json:"selection"`
	// NumGPUs is the GPU count asked for; null for each GPU's index row's.
	NumGPUs    *int               `json:"num_gpus"`
	PUE        format.Float       `json:"pue"`
	PUEDefault bool               `json:"pue_default"`
	Units      []Unit             `json:"functional_units"`
	SCI        pricing.Accounting `json:"sci"`
	// Rows holds one row per GPU and grid: GPUs in order, then grids in the
	// order asked, the stated intensity last.
	Rows  []DiffusionCarbonRow `json:"rows"`
	Files []FileRef            `json:"files"`
}

// DiffusionCarbonRow prices one configuration of a diffusion task on one
// grid. The energy and price keys are named for the task's unit: an image
// task's rows carry the image keys, a video task's the video keys.
type DiffusionCarbonRow struct {
	Task      string `json:"task"`
	Unit      string `json:"unit"`
	GPU       string `json:"gpu"`
	NumGPUs   int    `json:"num_gpus"`
	BatchSize int    `json:"batch_size"`
	RowID     string `json:"row_id"`
	// IndexRow is true when the row is the GPU's index row (best).
	IndexRow            bool         `json:"index_row"`
	UnderLatencyCeiling bool         `json:"under_latency_ceiling"`
	BatchLatencyS       format.Float `json:"batch_latency_s"`
	// What each generation made.
	Width          int           `json:"width"`
	Height         int           `json:"height"`
	InferenceSteps int           `json:"inference_steps"`
	NumFrames      int           `json:"num_frames,omitempty"`
	FPS            *format.Float `json:"fps,omitempty"`
	VideoSeconds   *format.Float `json:"video_seconds,omitempty"`
	// The energy per image or video as published (4 decimals), and
	// unrounded (the archived row's joules / 3600), which is priced.
	WhPerImage          *format.Float `json:"wh_per_image,omitempty"`
	WhPerImageUnrounded *float64      `json:"wh_per_image_unrounded,omitempty"`
	WhPerVideo          *format.Float `json:"wh_per_video,omitempty"`
	WhPerVideoUnrounded *float64      `json:"wh_per_video_unrounded,omitempty"`
	// The grid, as a CarbonRow's.
	Grid        string       `json:"grid"`
	ISO3        string       `json:"iso3"`
	GridYear    *int         `json:"grid_year"`
	Fallback    bool         `json:"fallback"`
	GCO2ePerKWh format.Float `json:"g_co2e_per_kwh"`
	GridSource  string       `json:"grid_source"`
	// The prices, in the units of pricing.UnitsOf(task).
	GPerImage         *format.Float `json:"g_co2e_per_image,omitempty"`
	KgPerThousandImgs *format.Float `json:"kg_co2e_per_thousand_images,omitempty"`
	GPerVideo         *format.Float `json:"g_co2e_per_video,omitempty"`
	GPerVideoMinute   *format.Float `json:"g_co2e_per_minute_of_video,omitempty"`
}

// price fills r's prices of the archived row on a grid of g g CO2e per
// kWh at pue, in the units of the task (a video's or an image's).
func (r *DiffusionCarbonRow) price(row *leaderboard.DiffusionRow, pue, g float64) {
	wh, _ := pricing.GenerationEnergy.DiffusionEnergy(row)
	if !row.Video {
		one, thousand := pricing.PerImage.Price(wh, pue, g), pricing.PerThousandImages.Price(wh, pue, g)
		r.GPerImage, r.KgPerThousandImgs = &one, &thousand
		return
	}
	one := pricing.PerVideo.Price(wh, pue, g)
	r.GPerVideo = &one
	if whMin, ok := pricing.VideoMinuteEnergy.DiffusionEnergy(row); ok {
		minute := pricing.PerVideoMinute.Price(whMin, pue, g)
		r.GPerVideoMinute = &minute
	}
}

// PriceDiffusion answers a price request of a diffusion task: each GPU's
// index row (the lowest energy per image or video whose batch latency
// meets the task's ceiling), or with NumGPUs the same rule among the
// configurations with that many GPUs. A running batch is a token task's:
// a request with Batch is refused.
func (s *Snapshot) PriceDiffusion(req PriceRequest) (*DiffusionCarbon, error) {
	pue, err := checkPrice(&req)
	if err != nil {
		return nil, err
	}
	t, err := s.FindTask(req.Task)
	if err != nil {
		return nil, err
	}
	if !t.Kind.Diffusion() {
		return nil, invalid(ParamTask, req.Task, "task %s is a task of output tokens: Price answers it", t.ID)
	}
	if req.Batch != nil {
		return nil, outOfRange(ParamBatch, fmt.Sprint(*req.Batch), "is a running batch of a task of output tokens; task %s's rows are priced at their index rows (num_gpus selects a GPU count)", t.ID)
	}
	td := s.tasks[t.ID]
	pm, err := s.findTaskModel(td, req.Model)
	if err != nil {
		return nil, err
	}
	areas, err := s.areas(req)
	if err != nil {
		return nil, err
	}
	m, rows := td.diffusion[pm.Slug], td.diffRows[pm.Slug]
	gpus := m.GPUs
	if req.GPU != "" {
		g, err := gpuOf(pm, req.GPU)
		if err != nil {
			return nil, err
		}
		gpus = []string{g}
	}
	n := 0
	if req.NumGPUs != nil {
		n = *req.NumGPUs
	}
	var picks []int
	for _, g := range gpus {
		if i, ok := pricing.BestDiffusion(m, rows, g, n); ok {
			picks = append(picks, i)
		}
	}
	ceiling := fmt.Sprintf("a batch latency at most %s %s", strconv.FormatFloat(t.Ceiling.Max, 'g', -1, 64), t.Ceiling.Unit)
	if len(picks) == 0 {
		what, q, detail := "gpu", req.GPU, fmt.Sprintf("%s has no index row in %s (no configuration with %s)", m.Slug, t.ID, ceiling)
		if n != 0 {
			what, q, detail = ParamNumGPUs, strconv.Itoa(n), fmt.Sprintf("%s has no configuration in %s with %s and %s", m.Slug, t.ID, plural.Count(n, "GPU"), ceiling)
		}
		return nil, &Error{Kind: NotFound, What: what, Query: q, Detail: detail}
	}
	sel := "each GPU's index row: the lowest energy per " + noun(t) + " with " + ceiling
	if n != 0 {
		sel = "on each GPU, among its configurations with " + plural.Count(n, "GPU") + ", the lowest energy per " + noun(t) + " with " + ceiling
	}
	ans := &DiffusionCarbon{Snapshot: s.Date, Task: t.ID, Unit: t.Unit, Model: m.Slug, Name: m.Name, ModelID: m.ModelID,
		Selection: sel, NumGPUs: req.NumGPUs, PUE: format.Float(pue), PUEDefault: req.PUE == nil, SCI: pricing.SCI(), Rows: []DiffusionCarbonRow{}}
	for _, u := range pricing.UnitsOf(t) {
		ans.Units = append(ans.Units, Unit{Key: u.Key, Per: u.Name, Formula: u.Formula})
	}
	for _, i := range picks {
		c, r := m.Configurations[i], rows[i]
		wh := r.Wh()
		base := DiffusionCarbonRow{Task: t.ID, Unit: t.Unit, GPU: c.GPU, NumGPUs: c.NumGPUs, BatchSize: c.BatchSize, RowID: c.RowID,
			IndexRow: m.Best[c.GPU].RowID == c.RowID, UnderLatencyCeiling: c.UnderLatencyCeiling, BatchLatencyS: c.BatchLatencyS,
			Width: c.Width, Height: c.Height, InferenceSteps: c.InferenceSteps, NumFrames: c.NumFrames, FPS: c.FPS, VideoSeconds: c.VideoSeconds}
		if r.Video {
			base.WhPerVideo, base.WhPerVideoUnrounded = c.WhPerVideo, &wh
		} else {
			base.WhPerImage, base.WhPerImageUnrounded = c.WhPerImage, &wh
		}
		for _, a := range areas {
			row := base
			row.Grid, row.ISO3, row.GCO2ePerKWh, row.GridSource = a.Name, a.ISO3, a.GCO2ePerKWh, "ember"
			year := a.Year
			row.GridYear, row.Fallback = &year, a.Fallback
			row.price(r, pue, float64(a.GCO2ePerKWh))
			ans.Rows = append(ans.Rows, row)
		}
		if req.Intensity != nil {
			row := base
			row.Grid, row.GCO2ePerKWh, row.GridSource = "stated", format.Float(*req.Intensity), "stated"
			row.price(r, pue, *req.Intensity)
			ans.Rows = append(ans.Rows, row)
		}
	}
	mf := format.TaskModelPath(t.ID, m.Slug)
	ans.Files = append(ans.Files, FileRef{format.ManifestPath, s.files[format.ManifestPath].SHA256}, FileRef{mf, s.files[mf].SHA256})
	if len(areas) > 0 {
		ans.Files = append(ans.Files, FileRef{format.GridPath, s.files[format.GridPath].SHA256})
	}
	ans.Files = append(ans.Files, s.sourcesOf(t.ArchivedPath())...)
	return ans, nil
}

// noun is what one unit of a diffusion task is: "image" or "video".
func noun(t format.Task) string {
	if t.Kind == format.Videos {
		return "video"
	}
	return "image"
}
