package catalog

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/transform"
	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
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
)

// Formula is how every price is computed.
const Formula = "kg CO2e per billion output tokens = Wh per million output tokens x g CO2e per kWh / 1000, from the unrounded Wh/M of the archived upstream row, rounded once to 1 decimal"

// PriceRequest asks for the carbon of a model's output tokens.
type PriceRequest struct {
	// Model is a slug, name or model id.
	Model string
	// Grids are ISO 3 codes or area names of grid.json (case-insensitive).
	// With neither Grids nor Intensity, every area of grid.json is priced.
	Grids []string
	// Intensity, when set, prices a grid the caller states, in g CO2e per
	// kWh (0 to grid.MaxGCO2PerKWh).
	Intensity *float64
	// GPU restricts the answer to one GPU ("B200"); "" means each GPU.
	GPU string
	// Batch, when set, selects on each GPU the measured configuration whose
	// average running batch is nearest to it (ties to the smaller) instead
	// of the index row.
	Batch *float64
}

// Carbon is the answer to a PriceRequest.
type Carbon struct {
	Snapshot string `json:"snapshot"`
	Model    string `json:"model"`
	Name     string `json:"name"`
	ModelID  string `json:"model_id"`
	// Selection says which row each GPU's figures come from.
	Selection string `json:"selection"`
	// RunningBatch is the running batch asked for; null for index rows.
	RunningBatch *jsonnum.Float `json:"running_batch"`
	Formula      string         `json:"formula"`
	// Rows holds one row per GPU and grid: GPUs in order, then grids in the
	// order asked, the stated intensity last.
	Rows []CarbonRow `json:"rows"`
	// Files are the snapshot's files the answer was read from.
	Files []FileRef `json:"files"`
}

// CarbonRow prices one configuration on one grid.
type CarbonRow struct {
	GPU        string `json:"gpu"`
	NumGPUs    int    `json:"num_gpus"`
	MaxNumSeqs int    `json:"max_num_seqs"`
	RowID      string `json:"row_id"`
	// IndexRow is true when the row is the GPU's index row (best).
	IndexRow         bool          `json:"index_row"`
	UnderITLDeadline bool          `json:"under_itl_deadline"`
	AvgRunningBatch  jsonnum.Float `json:"avg_running_batch"`
	// WhPerMillion is as published (2 decimals); WhPerMillionUnrounded is
	// the archived row's energy per token x 1e6 / 3600, which is priced.
	WhPerMillion          jsonnum.Float `json:"wh_per_million_output_tokens"`
	WhPerMillionUnrounded float64       `json:"wh_per_million_output_tokens_unrounded"`
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
	Fallback    bool          `json:"fallback"`
	GCO2ePerKWh jsonnum.Float `json:"g_co2e_per_kwh"`
	// GridSource is "ember" (grid.json) or "stated" (the request's
	// intensity).
	GridSource   string        `json:"grid_source"`
	KgPerBillion jsonnum.Float `json:"kg_co2e_per_billion_output_tokens"`
}

// Price answers a price request from s.
func (s *Snapshot) Price(req PriceRequest) (*Carbon, error) {
	if len(req.Grids) > MaxGrids {
		return nil, invalid("grid", "", "%d grids asked for; at most %d per request", len(req.Grids), MaxGrids)
	}
	if b := req.Batch; b != nil && (math.IsNaN(*b) || *b < MinNumber || *b > MaxBatch) {
		return nil, invalid("batch", fmt.Sprint(*b), "batch must be a number from %g to %d", MinNumber, MaxBatch)
	}
	if x := req.Intensity; x != nil && (math.IsNaN(*x) || *x < 0 || *x != 0 && *x < MinNumber || *x > grid.MaxGCO2PerKWh) {
		return nil, invalid("intensity", fmt.Sprint(*x), "intensity must be 0 or a number of g CO2e per kWh from %g to %d", MinNumber, grid.MaxGCO2PerKWh)
	} else if x != nil && *x == 0 {
		req.Intensity = new(float64) // 0, not -0
	}
	m, err := s.FindModel(req.Model)
	if err != nil {
		return nil, err
	}
	areas, err := s.areas(req)
	if err != nil {
		return nil, err
	}
	gpus, err := gpusOf(m, req)
	if err != nil {
		return nil, err
	}
	ans := &Carbon{Snapshot: s.Date, Model: m.Slug, Name: m.Name, ModelID: m.ModelID, Formula: Formula, Rows: []CarbonRow{},
		Selection: fmt.Sprintf("each GPU's index row: the lowest energy per token with a median ITL at most %d ms", transform.ITLDeadlineMS)}
	if req.Batch != nil {
		b := jsonnum.Float(*req.Batch)
		ans.RunningBatch = &b
		ans.Selection = "on each GPU, the measured configuration whose average running batch is nearest to " +
			strconv.FormatFloat(*req.Batch, 'g', -1, 64) + " (ties to the smaller batch), whether or not it meets the ITL deadline"
	}
	rows := m.Rows()
	for _, gpu := range gpus {
		i := configIndex(m, gpu, req.Batch)
		c, r := m.Configurations[i], rows[i]
		wh := transform.WhPerMillion(*r.EnergyPerToken)
		base := CarbonRow{GPU: gpu, NumGPUs: c.NumGPUs, MaxNumSeqs: c.MaxNumSeqs, RowID: c.RowID,
			IndexRow: m.Best[gpu].RowID == c.RowID, UnderITLDeadline: c.UnderITLDeadline, AvgRunningBatch: c.AvgRunningBatch,
			WhPerMillion: c.WhPerMillion, WhPerMillionUnrounded: wh}
		for _, a := range areas {
			row := base
			row.Grid, row.ISO3, row.GCO2ePerKWh, row.GridSource = a.Name, a.ISO3, a.GCO2ePerKWh, "ember"
			year := a.Year
			row.GridYear, row.Fallback = &year, a.Fallback
			row.KgPerBillion = grid.KgPerBillionTokens(wh, float64(a.GCO2ePerKWh))
			ans.Rows = append(ans.Rows, row)
		}
		if req.Intensity != nil {
			row := base
			row.Grid, row.GCO2ePerKWh, row.GridSource = "stated", jsonnum.Float(*req.Intensity), "stated"
			row.KgPerBillion = grid.KgPerBillionTokens(wh, *req.Intensity)
			ans.Rows = append(ans.Rows, row)
		}
	}
	ans.Files = append(ans.Files, FileRef{ManifestPath, s.files[ManifestPath].SHA256},
		FileRef{ModelPath(m.Slug), s.files[ModelPath(m.Slug)].SHA256})
	if len(areas) > 0 {
		ans.Files = append(ans.Files, FileRef{GridPath, s.files[GridPath].SHA256})
	}
	ans.Files = append(ans.Files, s.sources...)
	return ans, nil
}

// areas resolves the request's grids; every area when it names neither
// grids nor an intensity.
func (s *Snapshot) areas(req PriceRequest) ([]grid.Area, error) {
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
	var out []grid.Area
	seen := map[string]bool{}
	for _, q := range req.Grids {
		if err := checkName("grid", q); err != nil {
			return nil, err
		}
		a, err := grid.Lookup(s.Grid, q)
		if err != nil {
			return nil, s.gridError(q, err)
		}
		if !seen[a.Name] {
			seen[a.Name] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// gridError turns grid.Lookup's error for q into an Error: NotFound with
// the nearest names, or Invalid for a name matching several areas.
func (s *Snapshot) gridError(q string, err error) *Error {
	q = strings.TrimSpace(q)
	cands := make([][]string, len(s.Grid.Areas))
	for i, a := range s.Grid.Areas {
		cands[i] = []string{a.Name, a.ISO3}
		if strings.EqualFold(a.Name, q) || (a.ISO3 != "" && strings.EqualFold(a.ISO3, q)) {
			return &Error{Kind: Invalid, What: "grid", Query: q, Detail: err.Error()}
		}
	}
	if q == "" {
		return &Error{Kind: Invalid, What: "grid", Query: q, Detail: "empty grid name"}
	}
	return &Error{Kind: NotFound, What: "grid", Query: q, Nearest: nearestOf(q, cands),
		Detail: fmt.Sprintf("no grid %q in snapshot %s's grid.json (%d)", q, s.Date, s.Grid.Year)}
}

// gpusOf returns the GPUs to price: the one asked for, or each GPU of the
// model (with an index row, unless a batch is asked for).
func gpusOf(m *transform.Model, req PriceRequest) ([]string, error) {
	if req.GPU == "" {
		var gpus []string
		for _, g := range m.GPUs {
			if _, ok := m.Best[g]; ok || req.Batch != nil {
				gpus = append(gpus, g)
			}
		}
		sort.Strings(gpus)
		if len(gpus) == 0 {
			return nil, &Error{Kind: NotFound, What: "gpu", Query: "", Detail: fmt.Sprintf("%s has no index row (no configuration with a median ITL at most %d ms); ask for a batch", m.Slug, transform.ITLDeadlineMS)}
		}
		return gpus, nil
	}
	if err := checkName("gpu", req.GPU); err != nil {
		return nil, err
	}
	q := strings.TrimSpace(req.GPU)
	for _, g := range m.GPUs {
		if strings.EqualFold(g, q) {
			if _, ok := m.Best[g]; !ok && req.Batch == nil {
				return nil, &Error{Kind: NotFound, What: "gpu", Query: q, Detail: fmt.Sprintf("%s has no index row on %s (no configuration with a median ITL at most %d ms); ask for a batch", m.Slug, g, transform.ITLDeadlineMS)}
			}
			return []string{g}, nil
		}
	}
	e := notFound("gpu", q, nearest(q, m.GPUs))
	e.Detail = fmt.Sprintf("%s was not measured on GPU %q", m.Slug, q)
	return nil, e
}

// configIndex returns the configuration to price on gpu: its index row, or
// with a batch the configuration whose unrounded average running batch is
// nearest to it, ties to the smaller batch, then to the first in file order
// (fewer GPUs, lower cap, lower repeat).
func configIndex(m *transform.Model, gpu string, batch *float64) int {
	if batch == nil {
		id := m.Best[gpu].RowID
		for i, c := range m.Configurations {
			if c.RowID == id {
				return i
			}
		}
	}
	best := -1
	var bestD, bestB float64
	for i, r := range m.Rows() {
		if r.GPU != gpu {
			continue
		}
		d := math.Abs(r.AvgBatch - *batch)
		if best < 0 || d < bestD || (d == bestD && r.AvgBatch < bestB) {
			best, bestD, bestB = i, d, r.AvgBatch
		}
	}
	return best
}
