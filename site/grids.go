package site

import (
	"fmt"
	"strconv"

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

type calcRow struct {
	Label string `json:"label"` // "1 × B200"
	GPU   string `json:"gpu"`
	N     int    `json:"n"`
	// Wh is the unrounded Wh/M of the archived row, as Go computes it; a
	// JSON number parses to the same float64 in JavaScript.
	Wh float64 `json:"wh"`
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
	d := gridsData{frame: s.frame("Carbon on every grid", "", "grids"), HasGrid: g != nil}
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
		"Carbon in kg CO2e per billion output tokens = Wh/M × g CO2e per kWh ÷ 1,000, from the unrounded Wh/M of the index row.",
	}
	d.Description = fmt.Sprintf("The lifecycle CO2 intensity of electricity generation of %d areas, %s %d, and a calculator of kg CO2e per billion output tokens of %d open language models on any grid.",
		len(g.Areas), g.Source.Name, g.Year, len(s.pages.Index.Models))
	for _, e := range s.pages.Index.Models {
		m := calcModel{Slug: e.Slug, Name: e.Name}
		for _, gpu := range s.indexGPUs() {
			c, ok := e.Best[gpu]
			if !ok {
				continue
			}
			r, err := s.pages.IndexRow(&e, gpu)
			if err != nil {
				return nil, err
			}
			m.Rows = append(m.Rows, calcRow{Label: render.On(c.NumGPUs, gpu), GPU: gpu, N: c.NumGPUs, Wh: r.WhPerMillion()})
		}
		if len(m.Rows) > 0 {
			d.Calc.Models = append(d.Calc.Models, m)
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
