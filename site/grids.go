package site

import (
	"fmt"
	"strconv"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/render"
)

// calcData is the calculator's data, embedded in grids.html as JSON: every
// model's index rows with their unrounded Wh/M, and every grid.
type calcData struct {
	Models []calcModel `json:"models"`
	Grids  []calcGrid  `json:"grids"`
}

type calcModel struct {
	Slug string    `json:"slug"`
	Name string    `json:"name"`
	Rows []calcRow `json:"rows"`
}

// calcRow is a model's index row on one GPU, and the configurations a
// running batch is priced among there.
type calcRow struct {
	Label string `json:"label"` // "1 × B200"
	GPU   string `json:"gpu"`
	N     int    `json:"n"`
	// Wh is the unrounded Wh/M of the archived row, as Go computes it; a
	// JSON number parses to the same float64 in JavaScript.
	Wh float64 `json:"wh"`
	// Config names the index row's configuration.
	Config string `json:"config"`
	// Batches are the configurations a running batch is priced among on
	// the GPU, as the command line's carbon --batch and the API's batch
	// price it (pricing.Choice): those with the index row's GPU count, in
	// the model file's order.
	Batches []calcConfig `json:"batches"`
}

// calcConfig is a configuration the calculator may price at a running
// batch: its unrounded average running batch and Wh/M, which the page's
// script picks the nearest by and prices (pricing.NearestBatch's rule),
// and its name.
type calcConfig struct {
	Batch float64 `json:"batch"`
	Wh    float64 `json:"wh"`
	Label string  `json:"label"` // "cap 32, running batch 30"
}

type calcGrid struct {
	Name  string `json:"name"`
	Label string `json:"-"`
	// G is the published value; GText prints it as the tables do.
	G     float64 `json:"g"`
	GText string  `json:"g_text"`
	Year  int     `json:"year"`
}

type gridsData struct {
	frame
	// HasGrid says whether the snapshot has grid.json.
	HasGrid bool
	Intro   []string
	Calc    calcData
	Table   *render.Table
}

// areaYear is the year of an area's value (year) when it is not grid.json's
// reference year (ref); "" when it is.
func areaYear(ref, year int) string {
	if year != 0 && year != ref {
		return strconv.Itoa(year)
	}
	return ""
}

func (s *Site) gridsPage() ([]byte, error) {
	g := s.pages.Grid
	d := gridsData{frame: s.frame("Carbon on every grid", "grids.html", "grids"), HasGrid: g != nil}
	d.Script = d.HasGrid
	if g == nil {
		d.Description = fmt.Sprintf("The Green Tokens snapshot of %s has no grid intensities, so no carbon figures.", d.Date)
		return execute("grids.tmpl", d)
	}
	earlier := 0
	for _, a := range g.Areas {
		if areaYear(g.Year, a.Year) != "" {
			earlier++
		}
	}
	values := fmt.Sprintf("every value is of %d, the reference year", g.Year)
	if earlier > 0 {
		values = fmt.Sprintf("%d values are of %d, the reference year, and %d of an earlier year, shown next to the value", len(g.Areas)-earlier, g.Year, earlier)
	}
	release := g.Source.Release + " release"
	if g.Source.Release == "not stated" {
		release = "release not stated"
	}
	d.Intro = []string{
		fmt.Sprintf("%s's %s (%s): the lifecycle CO2 intensity of electricity generation, in %s, for %d areas; %s.", g.Source.Name, g.Source.Title, release, g.Unit, len(g.Areas), values),
		g.Source.Definition,
		"Carbon in kg CO2e per billion output tokens = Wh/M × g CO2e per kWh ÷ 1,000, from the unrounded Wh/M of the index row: the GPU energy as measured, with no data-centre overhead (a PUE of 1; the API, the MCP server and the command line take another).",
		pricing.SCI().Embodied,
	}
	d.Description = fmt.Sprintf("The lifecycle CO2 intensity of electricity generation of %d areas, %s %d, and a calculator of kg CO2e per billion output tokens of %d open language models on any grid.",
		len(g.Areas), g.Source.Name, g.Year, len(s.pages.Index.Models))
	for _, e := range s.pages.Index.Models {
		cm, err := s.calcModel(&e)
		if err != nil {
			return nil, err
		}
		if len(cm.Rows) > 0 {
			d.Calc.Models = append(d.Calc.Models, cm)
		}
	}
	d.Table = &render.Table{Caption: fmt.Sprintf("Every area of grid.json (reference year %d)", g.Year),
		Head: []string{"Area", "ISO 3", "Type", "g CO2e per kWh", "Year"}}
	for _, a := range g.Areas {
		// The published intensity as grid.json holds it, without ".0".
		gText := render.Short(a.GCO2ePerKWh)
		value := gText
		label := a.Name + " (" + value + ")"
		if y := areaYear(g.Year, a.Year); y != "" {
			value += " (" + y + ")"
			label = a.Name + " (" + gText + ", " + y + ")"
		}
		year := a.Year
		if year == 0 {
			year = g.Year
		}
		d.Calc.Grids = append(d.Calc.Grids, calcGrid{Name: a.Name, Label: label, G: float64(a.GCO2ePerKWh), GText: gText, Year: year})
		d.Table.Rows = append(d.Table.Rows, render.TableRow{Cells: []string{a.Name, a.ISO3, a.AreaType, value, strconv.Itoa(year)}})
	}
	return execute("grids.tmpl", d)
}

// calcModel is the calculator's data of an index entry: each index row,
// and the configurations a running batch is priced among on its GPU.
func (s *Site) calcModel(e *format.IndexEntry) (calcModel, error) {
	cm := calcModel{Slug: e.Slug, Name: e.Name}
	m, ok := s.snap.Published[e.Slug]
	if !ok {
		return cm, fmt.Errorf("%s lists %s, which the snapshot has no model file of", format.IndexPath, e.Slug)
	}
	rows := s.pages.Rows[format.PrimaryTask().ID]
	for _, gpu := range s.indexGPUs() {
		c, ok := e.Best[gpu]
		if !ok {
			continue
		}
		r, err := s.pages.IndexRow(e, gpu)
		if err != nil {
			return cm, err
		}
		row := calcRow{Label: render.On(c.NumGPUs, gpu), GPU: gpu, N: c.NumGPUs, Wh: r.WhPerMillion(),
			Config: configLabel(c.MaxNumSeqs, r.AvgBatch), Batches: []calcConfig{}}
		n := pricing.BatchGPUs(m, gpu)
		for _, mc := range m.Configurations {
			if mc.GPU != gpu || n != 0 && mc.NumGPUs != n {
				continue
			}
			br := rows[mc.RowID]
			if br == nil {
				return cm, fmt.Errorf("%s: row %s is not among the archived stable rows", format.ModelPath(m.Slug), mc.RowID)
			}
			row.Batches = append(row.Batches, calcConfig{Batch: br.AvgBatch, Wh: br.WhPerMillion(), Label: configLabel(mc.MaxNumSeqs, br.AvgBatch)})
		}
		cm.Rows = append(cm.Rows, row)
	}
	return cm, nil
}

// configLabel names a configuration by its cap and its running batch, as
// the model pages' tables print them: "cap 32, running batch 30".
func configLabel(maxNumSeqs int, avgBatch float64) string {
	return fmt.Sprintf("cap %d, running batch %s", maxNumSeqs, render.Whole(avgBatch))
}
