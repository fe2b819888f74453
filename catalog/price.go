package catalog

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/plural"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
)

// Limits of a price request.
const (
	// MaxGrids is the most grids one request may name.
	MaxGrids = 50
	// MaxBatch bounds a requested running batch (upstream caps are in the
	// hundreds).
	MaxBatch = 100000
	// MinNumber is the smallest batch or intensity other than 0 a request
	// may give: no figure here has that precision, and a smaller one would
	// be echoed with hundreds of digits.
	MinNumber = 1e-6
	// MaxNumGPUs bounds a requested GPU count (upstream measures up to 8).
	MaxNumGPUs = 1024
	// MinPUE and MaxPUE bound a requested power usage effectiveness: 1 is
	// no overhead at all, and data centres report from about 1.1 to 2.5.
	MinPUE = 1
	MaxPUE = 3
)

// PriceRequest asks for the carbon of a model's output tokens.
type PriceRequest struct {
	// Task names the task whose rows are priced (FindTask: an id, key or
	// name); "" is the primary task (Text Conversation).
	Task string
	// Model is a slug, name or model id.
	Model string
	// Grids name areas of grid.json, as pricing.Lookup finds them: ISO
	// 3166 codes (alpha-2, alpha-3, UN M.49), Ember's names and earlier
	// names, English and common names (case-insensitive).
	// With neither Grids nor Intensity, every area of grid.json is priced.
	Grids []string
	// Intensity, when set, prices a grid the caller states, in g CO2e per
	// kWh (0 to format.MaxGCO2PerKWh).
	Intensity *float64
	// GPU restricts the answer to one GPU ("B200"); "" means each GPU.
	GPU string
	// Batch, when set, selects on each GPU the measured configuration whose
	// average running batch is nearest to it (ties to the smaller) instead
	// of the index row.
	Batch *float64
	// NumGPUs, when set, prices only the configurations with that many
	// GPUs: the index row rule among them, or with Batch the nearest batch
	// among them. Unset, it is each GPU's index row's count.
	NumGPUs *int
	// PUE, when set, is the data centre's power usage effectiveness
	// (MinPUE to MaxPUE) the measured GPU energy is multiplied by; unset,
	// pricing.DefaultPUE (1).
	PUE *float64
}

// Carbon is the answer to a PriceRequest.
type Carbon struct {
	Snapshot string `json:"snapshot"`
	// Task and Unit name the task priced and its unit; absent for the
	// primary task's answer when the request named no task.
	Task    string `json:"task,omitempty"`
	Unit    string `json:"unit,omitempty"`
	Model   string `json:"model"`
	Name    string `json:"name"`
	ModelID string `json:"model_id"`
	// Selection says which row each GPU's figures come from.
	Selection string `json:"selection"`
	// RunningBatch is the running batch asked for; null for index rows.
	RunningBatch *format.Float `json:"running_batch"`
	// NumGPUs is the GPU count asked for; null for each GPU's index row's.
	NumGPUs *int   `json:"num_gpus"`
	Formula string `json:"formula"`
	// PUE is the power usage effectiveness the energy was multiplied by;
	// PUEDefault is true when the request gave none (pricing.DefaultPUE).
	PUE        format.Float `json:"pue"`
	PUEDefault bool         `json:"pue_default"`
	// Units are the functional units each row is priced per, in the order
	// of the row's prices, each with its formula.
	Units []Unit `json:"functional_units"`
	// SCI says what the energy priced includes and that embodied emissions
	// are not included.
	SCI pricing.Accounting `json:"sci"`
	// Rows holds one row per GPU and grid: GPUs in order, then grids in the
	// order asked, the stated intensity last.
	Rows []CarbonRow `json:"rows"`
	// Files are the snapshot's files the answer was read from.
	Files []FileRef `json:"files"`
}

// CarbonRow prices one configuration on one grid.
type CarbonRow struct {
	// Task and Unit are the answer's (absent with it).
	Task       string `json:"task,omitempty"`
	Unit       string `json:"unit,omitempty"`
	GPU        string `json:"gpu"`
	NumGPUs    int    `json:"num_gpus"`
	MaxNumSeqs int    `json:"max_num_seqs"`
	RowID      string `json:"row_id"`
	// IndexRow is true when the row is the GPU's index row (best).
	IndexRow         bool         `json:"index_row"`
	UnderITLDeadline bool         `json:"under_itl_deadline"`
	AvgRunningBatch  format.Float `json:"avg_running_batch"`
	// WhPerMillion is as published (2 decimals); WhPerMillionUnrounded is
	// the archived row's energy per token x 1e6 / 3600, which is priced.
	WhPerMillion          format.Float `json:"wh_per_million_output_tokens"`
	WhPerMillionUnrounded float64      `json:"wh_per_million_output_tokens_unrounded"`
	// Grid is the area's name, or "stated" for a stated intensity.
	Grid string `json:"grid"`
	ISO3 string `json:"iso3"`
	// GridYear is the year of this area's value (its own "year" in
	// grid.json); null for a stated intensity.
	GridYear *int `json:"grid_year"`
	// Fallback is the area's own "fallback" in grid.json: true when
	// GridYear is earlier than grid.json's reference year (the area has no
	// usable value for it), so a reader shows the year beside the value;
	// false for a stated intensity.
	Fallback    bool         `json:"fallback"`
	GCO2ePerKWh format.Float `json:"g_co2e_per_kwh"`
	// GridSource is "ember" (grid.json) or "stated" (the request's
	// intensity).
	GridSource   string       `json:"grid_source"`
	KgPerBillion format.Float `json:"kg_co2e_per_billion_output_tokens"`
	// WhPerRequestUnrounded is the archived row's energy per request /
	// 3600, which the per-request prices are priced from; it and they are
	// null where upstream has no plausible energy per request
	// (pricing.RequestEnergy).
	WhPerRequestUnrounded *float64      `json:"wh_per_request_unrounded"`
	GPerRequest           *format.Float `json:"g_co2e_per_request"`
	GPerThousandRequests  *format.Float `json:"g_co2e_per_thousand_requests"`
}

// Unit is a functional unit an answer's rows are priced per: the key of
// its price in each row, what it is per, and its formula.
type Unit struct {
	Key     string `json:"key"`
	Per     string `json:"per"`
	Formula string `json:"formula"`
}

// price fills r's prices of energy whM (Wh per million output tokens)
// and row's energy per request on a grid of g g CO2e per kWh at pue.
func (r *CarbonRow) price(whM, pue, g float64, row *leaderboard.Row) {
	r.KgPerBillion = pricing.PerBillionOutputTokens.Price(whM, pue, g)
	if whReq, ok := pricing.RequestEnergy.Energy(row); ok {
		one, thousand := pricing.PerRequest.Price(whReq, pue, g), pricing.PerThousandRequests.Price(whReq, pue, g)
		r.WhPerRequestUnrounded, r.GPerRequest, r.GPerThousandRequests = &whReq, &one, &thousand
	}
}

// PriceTask answers a price request of any task from s: a *Carbon for a
// task of output tokens (Price), a *DiffusionCarbon for images or videos
// (PriceDiffusion).
func (s *Snapshot) PriceTask(req PriceRequest) (any, error) {
	t, err := s.FindTask(req.Task)
	if err != nil {
		return nil, err
	}
	if t.Kind.Diffusion() {
		return s.PriceDiffusion(req)
	}
	return s.Price(req)
}

// checkPrice checks a request's numbers and returns the PUE it prices at.
func checkPrice(req *PriceRequest) (float64, error) {
	if len(req.Grids) > MaxGrids {
		return 0, invalid("grid", "", "%d grids asked for; at most %d per request", len(req.Grids), MaxGrids)
	}
	if b := req.Batch; b != nil && (math.IsNaN(*b) || *b < MinNumber || *b > MaxBatch) {
		return 0, outOfRange(ParamBatch, fmt.Sprint(*b), "must be a number from %g to %d", MinNumber, MaxBatch)
	}
	if x := req.Intensity; x != nil && (math.IsNaN(*x) || *x < 0 || *x != 0 && *x < MinNumber || *x > format.MaxGCO2PerKWh) {
		return 0, outOfRange(ParamIntensity, fmt.Sprint(*x), "must be 0 or a number of g CO2e per kWh from %g to %d", MinNumber, format.MaxGCO2PerKWh)
	} else if x != nil && *x == 0 {
		req.Intensity = new(float64) // 0, not -0
	}
	if n := req.NumGPUs; n != nil && (*n < 1 || *n > MaxNumGPUs) {
		return 0, outOfRange(ParamNumGPUs, strconv.Itoa(*n), "must be a whole number from 1 to %d", MaxNumGPUs)
	}
	pue := pricing.DefaultPUE
	if p := req.PUE; p != nil {
		if !(*p >= MinPUE && *p <= MaxPUE) { // NaN too
			return 0, outOfRange(ParamPUE, fmt.Sprint(*p), "must be a number from %d to %d (a data centre's power usage effectiveness)", MinPUE, MaxPUE)
		}
		pue = *p
	}
	return pue, nil
}

// Price answers a price request of a task of output tokens from s. A
// diffusion task's is refused: PriceTask answers it.
func (s *Snapshot) Price(req PriceRequest) (*Carbon, error) {
	pue, err := checkPrice(&req)
	if err != nil {
		return nil, err
	}
	t, err := s.FindTask(req.Task)
	if err != nil {
		return nil, err
	}
	if t.Kind.Diffusion() {
		return nil, invalid(ParamTask, req.Task, "task %s is priced per %s: PriceTask answers it", t.ID, strings.TrimPrefix(t.Unit, "Wh per "))
	}
	var m *format.Model
	var rows []*leaderboard.Row
	modelFile, taskFile := format.ModelPath, format.PrimaryTask().ArchivedPath()
	if t.Primary {
		m, err = s.FindModel(req.Model)
	} else {
		td := s.tasks[t.ID]
		m, err = s.findTaskModel(td, req.Model)
		modelFile = func(slug string) string { return format.TaskModelPath(t.ID, slug) }
		taskFile = t.ArchivedPath()
	}
	if err != nil {
		return nil, err
	}
	areas, err := s.areas(req)
	if err != nil {
		return nil, err
	}
	if t.Primary {
		rows = s.rows[m.Slug]
	} else {
		rows = s.tasks[t.ID].tokenRows[m.Slug]
	}
	picks, err := configsOf(m, rows, req)
	if err != nil {
		return nil, err
	}
	ans := &Carbon{Snapshot: s.Date, Model: m.Slug, Name: m.Name, ModelID: m.ModelID, Formula: pricing.Formula, Rows: []CarbonRow{},
		Selection: selection(req), NumGPUs: req.NumGPUs, PUE: format.Float(pue), PUEDefault: req.PUE == nil, SCI: pricing.SCI()}
	if req.Task != "" {
		ans.Task, ans.Unit = t.ID, t.Unit
	}
	for _, u := range pricing.TokenUnits() {
		ans.Units = append(ans.Units, Unit{Key: u.Key, Per: u.Name, Formula: u.Formula})
	}
	if req.Batch != nil {
		b := format.Float(*req.Batch)
		ans.RunningBatch = &b
	}
	for _, i := range picks {
		c := m.Configurations[i]
		wh := rows[i].WhPerMillion()
		base := CarbonRow{GPU: c.GPU, NumGPUs: c.NumGPUs, MaxNumSeqs: c.MaxNumSeqs, RowID: c.RowID,
			IndexRow: m.Best[c.GPU].RowID == c.RowID, UnderITLDeadline: c.UnderITLDeadline, AvgRunningBatch: c.AvgRunningBatch,
			WhPerMillion: c.WhPerMillion, WhPerMillionUnrounded: wh, Task: ans.Task, Unit: ans.Unit}
		for _, a := range areas {
			row := base
			row.Grid, row.ISO3, row.GCO2ePerKWh, row.GridSource = a.Name, a.ISO3, a.GCO2ePerKWh, "ember"
			year := a.Year
			row.GridYear, row.Fallback = &year, a.Fallback
			row.price(wh, pue, float64(a.GCO2ePerKWh), rows[i])
			ans.Rows = append(ans.Rows, row)
		}
		if req.Intensity != nil {
			row := base
			row.Grid, row.GCO2ePerKWh, row.GridSource = "stated", format.Float(*req.Intensity), "stated"
			row.price(wh, pue, *req.Intensity, rows[i])
			ans.Rows = append(ans.Rows, row)
		}
	}
	ans.Files = append(ans.Files, FileRef{format.ManifestPath, s.files[format.ManifestPath].SHA256},
		FileRef{modelFile(m.Slug), s.files[modelFile(m.Slug)].SHA256})
	if len(areas) > 0 {
		ans.Files = append(ans.Files, FileRef{format.GridPath, s.files[format.GridPath].SHA256})
	}
	ans.Files = append(ans.Files, s.sourcesOf(taskFile)...)
	return ans, nil
}

// selection says in words how configsOf chose each GPU's configuration.
func selection(req PriceRequest) string {
	among := "among the configurations with its index row's GPU count (every count on a GPU without an index row)"
	if req.NumGPUs != nil {
		among = "among its configurations with " + plural.Count(*req.NumGPUs, "GPU")
	}
	switch {
	case req.Batch != nil:
		return "on each GPU, " + among + ", the measured configuration whose average running batch is nearest to " +
			strconv.FormatFloat(*req.Batch, 'g', -1, 64) + " (ties to the smaller batch), whether or not it meets the ITL deadline"
	case req.NumGPUs != nil:
		return fmt.Sprintf("on each GPU, %s, the lowest energy per token with a median ITL at most %d ms", among, format.ITLDeadlineMS)
	}
	return fmt.Sprintf("each GPU's index row: the lowest energy per token with a median ITL at most %d ms", format.ITLDeadlineMS)
}

// areas resolves the request's grids; every area when it names neither
// grids nor an intensity.
func (s *Snapshot) areas(req PriceRequest) ([]format.Area, error) {
	if len(req.Grids) == 0 {
		if req.Intensity != nil {
			return nil, nil
		}
		if s.Grid == nil {
			return nil, s.noGrid()
		}
		return s.Grid.Areas, nil
	}
	if s.Grid == nil {
		return nil, s.noGrid()
	}
	var out []format.Area
	seen := map[string]bool{}
	for _, q := range req.Grids {
		if err := checkName("grid", q); err != nil {
			return nil, err
		}
		a, err := pricing.Lookup(s.Grid, q)
		if err != nil {
			return nil, gridError(err)
		}
		if !seen[a.Name] {
			seen[a.Name] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// gridError is pricing.Lookup's error for a grid as an Error: NotFound
// for a name of no area of grid.json (with the nearest names, for a name
// that is no code or name of a place), Invalid for a blank one or one that
// matches several areas. Its Detail is the pricing's message for the
// parameter "grid"; Named words it for another.
func gridError(err error) error {
	var ge *pricing.GridError
	if !errors.As(err, &ge) {
		return err
	}
	kind := Invalid
	if ge.NotFound() {
		kind = NotFound
	}
	e := &Error{Kind: kind, What: "grid", Query: ge.Query, Nearest: ge.Nearest, Rule: fmt.Sprintf("%q: %s", ge.Query, ge.Reason()), Cause: err}
	e.Detail = e.What + " " + e.Rule
	return e
}

// configsOf returns the configuration to price on each GPU asked for (each
// GPU of the model, in order, when none is), as indexes in
// m.Configurations, by pricing.Choice's rule: the index row; with NumGPUs
// the index row rule among the configurations with that many GPUs; with
// Batch the configuration whose average running batch is nearest, among
// those with NumGPUs GPUs or else the index row's count. A GPU with no
// such configuration is left out; none at all is an error saying what was
// measured.
func configsOf(m *format.Model, rows []*leaderboard.Row, req PriceRequest) ([]int, error) {
	gpus, scope := m.GPUs, m.Slug // m.GPUs is in order
	if req.GPU != "" {
		g, err := gpuOf(m, req.GPU)
		if err != nil {
			return nil, err
		}
		gpus, scope = []string{g}, m.Slug+" on "+g
	}
	var out []int
	var counts []int // the GPU counts measured on gpus
	measured := false
	choice := pricing.Choice{Batch: req.Batch}
	if req.NumGPUs != nil {
		choice.NumGPUs = *req.NumGPUs
	}
	for _, g := range gpus {
		have := gpuCounts(m, g)
		counts = append(counts, have...)
		if n := choice.GPUs(m, g); n != 0 && !slices.Contains(have, n) {
			continue
		}
		measured = true
		if i, ok := choice.Pick(m, rows, g); ok {
			out = append(out, i)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	deadline := fmt.Sprintf("a median ITL at most %d ms", format.ITLDeadlineMS)
	if req.NumGPUs == nil {
		return nil, &Error{Kind: NotFound, What: "gpu", Query: req.GPU, Detail: fmt.Sprintf("%s has no index row (no configuration with %s); ask for a batch", scope, deadline)}
	}
	n := *req.NumGPUs
	e := &Error{Kind: NotFound, What: ParamNumGPUs, Query: strconv.Itoa(n)}
	if !measured {
		slices.Sort(counts)
		for _, c := range slices.Compact(counts) {
			e.Nearest = append(e.Nearest, strconv.Itoa(c))
		}
		e.Detail = fmt.Sprintf("%s was measured on %s, not with %s", scope, setups(m, gpus), plural.Count(n, "GPU"))
	} else {
		e.Detail = fmt.Sprintf("%s has no configuration with %s and %s; ask for a batch", scope, plural.Count(n, "GPU"), deadline)
	}
	return nil, e
}

// gpuOf returns the GPU of m that q names, ignoring case.
func gpuOf(m *format.Model, q string) (string, error) {
	if err := checkName("gpu", q); err != nil {
		return "", err
	}
	q = strings.TrimSpace(q)
	for _, g := range m.GPUs {
		if strings.EqualFold(g, q) {
			return g, nil
		}
	}
	e := notFound("gpu", q, nearest(q, m.GPUs))
	e.Detail = fmt.Sprintf("%s was not measured on GPU %q", m.Slug, q)
	return "", e
}

// gpuCounts returns the GPU counts m was measured with on gpu, ascending.
func gpuCounts(m *format.Model, gpu string) []int {
	var out []int
	for _, c := range m.Configurations {
		if c.GPU == gpu && !slices.Contains(out, c.NumGPUs) {
			out = append(out, c.NumGPUs)
		}
	}
	slices.Sort(out)
	return out
}

// setups lists the GPU counts measured on gpus: "1 x B200, 1 x H100 and 2 x
// H100".
func setups(m *format.Model, gpus []string) string {
	var s []string
	for _, g := range gpus {
		for _, n := range gpuCounts(m, g) {
			s = append(s, fmt.Sprintf("%d x %s", n, g))
		}
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
