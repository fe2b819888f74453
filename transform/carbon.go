package transform

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/transform/grid"
	"github.com/leadgreen/greentokens/transform/jsonnum"
	"github.com/leadgreen/greentokens/transform/names"
)

// CarbonRow is a model's index row priced on one grid.
type CarbonRow struct {
	Model        string        `json:"model"`
	GPU          string        `json:"gpu"`
	NumGPUs      int           `json:"num_gpus"`
	RowID        string        `json:"row_id"`
	WhPerMillion jsonnum.Float `json:"wh_per_million_output_tokens"`
	Grid         string        `json:"grid"`
	ISO3         string        `json:"iso3"`
	Year         int           `json:"year"` // the grid value's year
	// Fallback is grid.json's: Year is earlier than the reference year.
	Fallback    bool          `json:"fallback"`
	GCO2ePerKWh jsonnum.Float `json:"g_co2e_per_kwh"`
	// KgPerBillion is kg CO2e per billion output tokens: the unrounded
	// Wh/M x g CO2e per kWh / 1000, rounded once to 1 decimal.
	KgPerBillion jsonnum.Float `json:"kg_co2e_per_billion_output_tokens"`
}

// Carbon prices a model's index rows (its best row per GPU) on the grids
// named by queries (ISO 3 code or name), or on every grid when there are
// none. Rows are in GPU order, then in the order of the grids.
func Carbon(m *Model, g *grid.Grid, queries []string) ([]CarbonRow, error) {
	areas := g.Areas
	if len(queries) > 0 {
		areas = nil
		for _, q := range queries {
			a, err := grid.Lookup(g, q)
			if err != nil {
				return nil, err
			}
			areas = append(areas, a)
		}
	}
	var rows []CarbonRow
	for _, gpu := range sortedKeys(m.Best) {
		best := m.Best[gpu]
		row := m.rowOf(best.RowID)
		wh := WhPerMillion(*row.EnergyPerToken)
		for _, a := range areas {
			rows = append(rows, CarbonRow{
				Model: m.Slug, GPU: gpu, NumGPUs: best.NumGPUs, RowID: best.RowID,
				WhPerMillion: best.WhPerMillion, Grid: a.Name, ISO3: a.ISO3, Year: a.Year, Fallback: a.Fallback,
				GCO2ePerKWh: a.GCO2ePerKWh, KgPerBillion: grid.KgPerBillionTokens(wh, float64(a.GCO2ePerKWh)),
			})
		}
	}
	return rows, nil
}

// rowOf returns the upstream row of the configuration with this row_id.
func (m *Model) rowOf(rowID string) *Row {
	for i, c := range m.Configurations {
		if c.RowID == rowID {
			return m.rows[i]
		}
	}
	panic("transform: no configuration " + rowID + " in " + m.Slug)
}

// FindModel finds a model by slug, name or model id, ignoring case, spaces
// and punctuation: "qwen3 32b", "Qwen/Qwen3-32B" and "qwen-3-32b" find the
// same model. An unknown query is an error naming the nearest models.
func FindModel(models []*Model, query string) (*Model, error) {
	names := make([][]string, len(models))
	for i, m := range models {
		names[i] = []string{m.Slug, m.Name, m.ModelID}
	}
	i, err := FindName(query, names)
	if err != nil {
		return nil, err
	}
	return models[i], nil
}

// FindName finds a model among candidates, each the spellings of one
// model (slug first, then name and model id), as FindModel does, and
// returns its index.
func FindName(query string, candidates [][]string) (int, error) {
	q := strings.TrimSpace(query)
	for i, spellings := range candidates {
		for _, s := range spellings {
			if s != "" && strings.EqualFold(s, q) {
				return i, nil
			}
		}
	}
	switch found := names.Match(q, candidates); len(found) {
	case 1:
		return found[0], nil
	case 0:
		if near := grid.Nearest(q, candidates, 3); len(near) > 0 {
			return -1, fmt.Errorf("no model %q; did you mean %s?", q, strings.Join(near, " or "))
		}
		return -1, fmt.Errorf("no model %q", q)
	default:
		var slugs []string
		for _, i := range found {
			slugs = append(slugs, strconv.Quote(candidates[i][0]))
		}
		return -1, fmt.Errorf("%q matches %d models: %s", q, len(found), strings.Join(slugs, ", "))
	}
}
