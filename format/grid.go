package format

// World is the area grid.json always lists with a value for its reference
// year: the world average.
const World = "World"

// MaxGCO2PerKWh bounds a published carbon intensity, in g CO2e per kWh:
// all-coal grids are near 1,100 and no generation technology's lifecycle
// factor exceeds about 1,000 by much. The build refuses a larger value
// upstream, and a stated intensity above it is no grid.
const MaxGCO2PerKWh = 2000

// Grid is grid.json (schemas/grid.schema.json): the lifecycle carbon
// intensity of every area's electricity for one reference year, from
// Ember's yearly data. Field order is the published key order.
type Grid struct {
	Version     string `json:"version"`      // format version, "1"
	DataVersion string `json:"data_version"` // the snapshot's data version
	// Year is the reference year: World and every area not marked as a
	// fallback have a value for it.
	Year int `json:"year"`
	// YearPinned is false when Year is the latest complete year (the rule
	// the manifest's grid.year_rule states), true when the build was told
	// the year.
	YearPinned bool       `json:"year_pinned"`
	Unit       string     `json:"unit"` // "g CO2e per kWh"
	Source     GridSource `json:"source"`
	// Areas holds every area with a value for Year or an earlier year,
	// sorted by name (byte order of the UTF-8 names, which are unique).
	Areas []Area `json:"areas"`
}

// GridSource is grid.json's source block.
type GridSource struct {
	Name       string `json:"name"`    // "Ember"
	Title      string `json:"title"`   // "Yearly electricity data"
	URL        string `json:"url"`     // where the CSV was fetched
	Release    string `json:"release"` // Ember's release name, or "not stated"
	Year       int    `json:"year"`    // the reference year, Grid.Year
	Retrieved  string `json:"retrieved"`
	Licence    string `json:"licence"`    // "CC BY 4.0"
	Definition string `json:"definition"` // what the figure is
}

// Area is one area's carbon intensity.
type Area struct {
	Name     string `json:"name"`      // Ember's Area
	ISO3     string `json:"iso3"`      // ISO 3166-1 alpha-3; "" for regions
	AreaType string `json:"area_type"` // as published: "Country or economy", "Country" or "Region"
	// Year is the year of the value: the reference year, or for a fallback
	// the area's latest earlier year with a usable value.
	Year int `json:"year"`
	// Fallback is true when Year is earlier than the reference year: the
	// area has no usable value for it. Readers show Year beside the value.
	Fallback bool `json:"fallback"`
	// GCO2ePerKWh is the published value: the nearest float64 to the
	// decimal in the CSV, printed as Float prints (shortest round-trip, ".0" when
	// integral): "572.86" prints 572.86, "670.80" 670.8, "30" 30.0.
	GCO2ePerKWh Float `json:"g_co2e_per_kwh"`
	// Line is the CSV line the value is on; it is not written.
	Line int `json:"-"`
}
