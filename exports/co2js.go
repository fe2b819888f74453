package exports

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/leadgreen/greentokens/format"
)

// Co2jsSchema is the $schema of co2js-average-intensities.json, the first
// key of its object: schemas/co2js-average-intensities.schema.json.
const Co2jsSchema = "https://leadgreen.ai/schemas/co2js-average-intensities.schema.json"

// Co2jsIntensity is one area in co2.js's average-intensities.json shape
// (github.com/thegreenwebfoundation/co2.js, data/output/): its ISO 3 code
// ("" for a region), its name, the year of the value and the value, g
// CO2e per kWh, as grid.json publishes them.
type Co2jsIntensity struct {
	CountryCode     string       `json:"country_code"`
	CountryOrRegion string       `json:"country_or_region"`
	Year            int          `json:"year"`
	Intensity       format.Float `json:"emissions_intensity_gco2_per_kwh"`
	// sharedCode is set when another area of the grid has the same ISO 3
	// code: the code names neither, so the area is keyed by its name.
	sharedCode bool
}

// Co2js is co2js-average-intensities.json: an object keyed by each area's
// ISO 3 code, or by its name where it has none (a region) or shares it
// with another area (a code pricing refuses as ambiguous), in grid.json's
// order (by name, as co2.js's file is), after "$schema".
type Co2js struct {
	Areas []Co2jsIntensity
}

// co2js is grid.json's areas in co2.js's shape; two areas under one key
// are an error.
func co2js(g *format.Grid) (*Co2js, error) {
	codes := map[string]int{}
	for _, a := range g.Areas {
		codes[a.ISO3]++
	}
	seen := map[string]bool{"$schema": true}
	out := &Co2js{}
	for _, a := range g.Areas {
		c := Co2jsIntensity{CountryCode: a.ISO3, CountryOrRegion: a.Name, Year: a.Year, Intensity: a.GCO2ePerKWh,
			sharedCode: codes[a.ISO3] > 1}
		if seen[c.key()] {
			return nil, fmt.Errorf("%s: two areas under the key %q", Co2jsPath, c.key())
		}
		seen[c.key()] = true
		out.Areas = append(out.Areas, c)
	}
	return out, nil
}

// key is the area's key: its ISO 3 code, or its name.
func (c Co2jsIntensity) key() string {
	if c.CountryCode != "" && !c.sharedCode {
		return c.CountryCode
	}
	return c.CountryOrRegion
}

// MarshalJSON writes the object: "$schema", then each area under its key.
func (c *Co2js) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteString(`{"$schema":`)
	if err := enc.Encode(Co2jsSchema); err != nil {
		return nil, err
	}
	for _, a := range c.Areas {
		b.WriteByte(',')
		if err := enc.Encode(a.key()); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(a); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
