package pricing

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// A place is what a grid name names, whether or not a grid has a value
// for it: a country or economy by its ISO 3166-1 alpha-3 code (as Ember
// keys it), or one of Ember's regions by its Ember name.
type place struct {
	iso3   string // a country or economy's code; "" for a region
	region string // a region's name in grid.json; "" for a country
	// name is how a message names the place: "France", "EU".
	name string
	// code is the code a message names it with beside its name: the ISO 3
	// code, or for a region known by a code of its own ("QO") that code.
	code string
}

// String is the place as a message names it: "France (FRA)", "EU".
func (p place) String() string {
	if p.code != "" {
		return p.name + " (" + p.code + ")"
	}
	return p.name
}

// emberRenames are the areas Ember has renamed, by ISO 3 code: the name
// before, then the name after (its July 2026 update, and the United States
// in August 2026). Areas are keyed by their ISO 3 code, which the renames
// left as it was, and found by either name.
var emberRenames = map[string][2]string{
	"BIH": {"Bosnia Herzegovina", "Bosnia and Herzegovina"},
	"CZE": {"Czech Republic", "Czechia"},
	"PHL": {"The Philippines", "Philippines"},
	"TUR": {"Turkey", "Türkiye"},
	"TWN": {"Taiwan (China)", "Taiwan"},
	"USA": {"United States of America", "United States"},
	"VNM": {"Vietnam", "Viet Nam"},
}

// countryNames are the names areas go by beside their English names in
// ISO 3166 (CLDR's, from golang.org/x/text/language/display) and Ember's
// (emberRenames), by ISO 3 code: Ember's name first where CLDR's English
// differs (a message names an area grid.json lacks by it), then the common
// and formal names people write. A name here never names two areas
// (TestPlacesUnique).
var countryNames = map[string][]string{
	"ARE": {"United Arab Emirates", "UAE"},
	"ATG": {"Antigua and Barbuda"},
	"BOL": {"Bolivia", "Plurinational State of Bolivia", "Bolivia, Plurinational State of"},
	"BRN": {"Brunei", "Brunei Darussalam"},
	"CIV": {"Cote d'Ivoire", "Ivory Coast"},
	"COD": {"Democratic Republic of Congo", "DR Congo", "DRC", "Congo, Democratic Republic of the", "Congo-Kinshasa"},
	"COG": {"Congo", "Republic of the Congo", "Republic of Congo", "Congo-Brazzaville"},
	"CPV": {"Cape Verde", "Cabo Verde"},
	"FLK": {"Falkland Islands", "Falkland Islands (Malvinas)"},
	"GBR": {"United Kingdom", "Great Britain", "Britain", "United Kingdom of Great Britain and Northern Ireland"},
	"HKG": {"Hong Kong", "Hong Kong SAR"},
	"IRN": {"Iran", "Islamic Republic of Iran", "Iran, Islamic Republic of"},
	"KNA": {"Saint Kitts and Nevis"},
	"KOR": {"South Korea", "Korea", "Republic of Korea", "Korea, Republic of"},
	"LAO": {"Laos", "Lao PDR", "Lao People's Democratic Republic"},
	"LCA": {"Saint Lucia"},
	"MAC": {"Macao", "Macau", "Macao SAR"},
	"MDA": {"Moldova", "Republic of Moldova", "Moldova, Republic of"},
	"MKD": {"North Macedonia", "Macedonia", "Republic of North Macedonia"},
	"MMR": {"Myanmar", "Burma"},
	"NLD": {"Netherlands", "Holland"},
	"PRK": {"North Korea", "Democratic People's Republic of Korea", "DPRK", "Korea, Democratic People's Republic of"},
	"PSE": {"Palestine", "State of Palestine", "Palestine, State of"},
	"REU": {"Reunion"},
	"RUS": {"Russia", "Russian Federation"},
	"SHN": {"Saint Helena"},
	"SPM": {"Saint Pierre and Miquelon"},
	"STP": {"Sao Tome and Principe"},
	"SWZ": {"Eswatini", "Swaziland"},
	"SYR": {"Syria", "Syrian Arab Republic"},
	"TCA": {"Turks and Caicos Islands"},
	"TLS": {"East Timor", "Timor-Leste"},
	"TTO": {"Trinidad and Tobago"},
	"TUR": {"Republic of Türkiye"},
	"TZA": {"Tanzania", "United Republic of Tanzania", "Tanzania, United Republic of"},
	"USA": {"U.S.", "U.S.A."},
	"VCT": {"Saint Vincent and the Grenadines"},
	"VEN": {"Venezuela", "Bolivarian Republic of Venezuela", "Venezuela, Bolivarian Republic of"},
	"VIR": {"United States Virgin Islands", "US Virgin Islands"},
}

// regionNames are Ember's regions, by their name in grid.json, with the
// other names they go by. Regions have no ISO 3166 code; a UN M.49 or
// CLDR code of a region ("150", "EU") names the region of its English
// name ("Europe", "European Union").
var regionNames = map[string][]string{
	"ASEAN":                       {"Association of Southeast Asian Nations"},
	"Africa":                      nil,
	"Asia":                        nil,
	"EU":                          {"European Union", "EU27", "EU-27"},
	"Europe":                      nil,
	"G20":                         {"Group of Twenty"},
	"G7":                          {"Group of Seven"},
	"Latin America and Caribbean": nil,
	"Middle East":                 nil,
	"North America":               nil,
	"OECD":                        {"Organisation for Economic Co-operation and Development", "Organization for Economic Cooperation and Development"},
	"Oceania":                     nil,
	"World":                       {"Global"},
}

// emberISO3 are Ember's codes for the areas ISO 3166 gives none: Kosovo,
// "XK" in CLDR (a code for private use), is XKX in Ember's files.
var emberISO3 = map[language.Region]string{language.MustParseRegion("XK"): "XKX"}

// reserved are the codes ISO 3166 reserves for an area whose code is
// another: "UK" for the United Kingdom (GB). Other codes that CLDR maps to
// a current one are withdrawn codes of former areas ("DD", East Germany,
// is not Germany), and name no place.
var reserved = map[language.Region]bool{language.MustParseRegion("UK"): true}

// places finds a place by its key (placeKey) among every name above, the
// English names of ISO 3166's countries and Ember's regions.
var places = sync.OnceValue(func() map[string]place {
	m, err := buildPlaces()
	if err != nil {
		panic(err) // the tables above are reviewed; TestPlacesUnique holds them
	}
	return m
})

// buildPlaces indexes every name of a place by its key, and fails on a key
// that two places share.
func buildPlaces() (map[string]place, error) {
	m := map[string]place{}
	var err error
	add := func(name string, p place) {
		k := placeKey(name)
		if k == "" {
			return
		}
		if q, ok := m[k]; ok && (q.iso3 != p.iso3 || q.region != p.region) && err == nil {
			err = fmt.Errorf("pricing: %q names both %v and %v", name, q, p)
		}
		m[k] = p
	}
	en := display.English.Regions()
	for _, r := range isoCountries() {
		p := countryPlace(r)
		add(en.Name(r), p)
	}
	for _, table := range []map[string][]string{renamed(), countryNames} {
		for iso3, names := range table {
			p := place{iso3: iso3, name: displayName(iso3, ""), code: iso3}
			if r, ok := regionOf(iso3); ok {
				p = countryPlace(r)
			}
			for _, n := range names {
				add(n, p)
			}
		}
	}
	for region, names := range regionNames {
		p := place{region: region, name: region}
		add(region, p)
		for _, n := range names {
			add(n, p)
		}
	}
	return m, err
}

// isoCountries are the current ISO 3166-1 codes of countries and
// economies (and Kosovo's), from CLDR's table in golang.org/x/text.
func isoCountries() []language.Region {
	var out []language.Region
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			r, err := language.ParseRegion(string([]rune{a, b}))
			if err == nil && isCountry(r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// isCountry reports whether r is the current code of a country or
// economy with an English name.
func isCountry(r language.Region) bool {
	if _, ok := emberISO3[r]; ok {
		return true
	}
	return r.Canonicalize() == r && r.IsCountry() && !r.IsPrivateUse() && r.ISO3() != "ZZZ" &&
		display.English.Regions().Name(r) != ""
}

// regionOf returns the ISO 3166 region of an ISO 3 code.
func regionOf(iso3 string) (language.Region, bool) {
	for r, code := range emberISO3 {
		if code == iso3 {
			return r, true
		}
	}
	r, err := language.ParseRegion(iso3)
	if err != nil || !isCountry(r) {
		return language.Region{}, false
	}
	return r, true
}

// countryPlace is the place of a country's code (displayName).
func countryPlace(r language.Region) place {
	iso3, ok := emberISO3[r]
	if !ok {
		iso3 = r.ISO3()
	}
	return place{iso3: iso3, name: displayName(iso3, display.English.Regions().Name(r)), code: iso3}
}

// displayName is how a message names the area of an ISO 3 code: by
// Ember's current name when Ember renamed it, or by its first name in
// countryNames, or else by english, its English name.
func displayName(iso3, english string) string {
	if r, ok := emberRenames[iso3]; ok {
		return r[1]
	}
	if names := countryNames[iso3]; len(names) > 0 {
		return names[0]
	}
	return english
}

// renamed is emberRenames as lists of names.
func renamed() map[string][]string {
	m := make(map[string][]string, len(emberRenames))
	for iso3, r := range emberRenames {
		m[iso3] = r[:]
	}
	return m
}

// codePlace returns the place a code names: an ISO 3166-1 alpha-2 or
// alpha-3 code, or a UN M.49 number, of a country or economy (or "UK",
// which ISO reserves for the United Kingdom, or a code of Ember's own,
// emberISO3), or the code of a group of countries, which names the region
// of its English name. code reports
// whether q has the shape of a code (two or three letters, or three
// digits), whether or not it is one.
func codePlace(q string) (p place, ok, code bool) {
	if !codeShaped(q) {
		return place{}, false, false
	}
	for r, iso3 := range emberISO3 {
		if strings.EqualFold(iso3, q) {
			return countryPlace(r), true, true
		}
	}
	r, err := language.ParseRegion(q)
	if err != nil {
		return place{}, false, true
	}
	if reserved[r] {
		r = r.Canonicalize()
	}
	if isCountry(r) {
		return countryPlace(r), true, true
	}
	if r.Canonicalize() != r || !r.IsGroup() {
		return place{}, false, true
	}
	name := display.English.Regions().Name(r)
	if name == "" {
		return place{}, false, true
	}
	if p, ok := places()[placeKey(name)]; ok && p.region != "" {
		return p, true, true
	}
	return place{name: name, code: strings.ToUpper(q)}, true, true
}

// codeShaped reports whether q looks like a code: two or three ASCII
// letters, or three ASCII digits.
func codeShaped(q string) bool {
	if len(q) < 2 || len(q) > 3 {
		return false
	}
	letters, digits := 0, 0
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			letters++
		case '0' <= c && c <= '9':
			digits++
		}
	}
	return letters == len(q) || digits == 3
}

// placeKey reduces a grid name for matching: accents, case, spaces and
// punctuation aside, "&" read as "and", "St." as "Saint", and the words
// "and" and "the" left out. "Côte d’Ivoire" and "Cote d'Ivoire" give
// "cotedivoire"; "St. Vincent & Grenadines" and "Saint Vincent and the
// Grenadines" give "saintvincentgrenadines"; "Türkiye" and "Turkiye" give
// "turkiye".
func placeKey(s string) string {
	if !isASCII(s) {
		if t, _, err := transform.String(unaccent, s); err == nil {
			s = t
		}
	}
	var b strings.Builder
	for _, w := range strings.FieldsFunc(strings.ReplaceAll(s, "&", " and "), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		w = strings.ToLower(w)
		switch w {
		case "and", "the":
			continue
		case "st":
			w = "saint"
		}
		b.WriteString(w)
	}
	return b.String()
}

// unaccent takes the accents off letters: "ü" is "u", "ô" is "o".
var unaccent = transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
