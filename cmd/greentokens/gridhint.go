package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/snapshots"
	"github.com/leadgreen/greentokens/transform/grid"
)

// gridHint adds to pricing.Lookup's error for a grid that grid.json lacks the
// years the snapshot's archived Ember CSV has it for, and how to pin one;
// err as it is when the CSV does not have it either.
func gridHint(s *snapshots.Snapshot, q string, err error) error {
	area, years := gridYears(s, q)
	if len(years) == 0 || slices.Contains(years, s.Grid.Year) {
		return err
	}
	latest := years[len(years)-1]
	return fmt.Errorf("no grid %q in the snapshot's grid.json (reference year %d); Ember's archived data has %s for %s: build with --grid-year %d to pin that year",
		q, s.Grid.Year, area, yearRanges(years), latest)
}

// gridYears returns the area of the archived Ember CSV that q names, and the
// years it has a value for, ascending.
func gridYears(s *snapshots.Snapshot, q string) (string, []int) {
	src := s.Source(fetch.EmberGlobal)
	if src == nil {
		src = s.Source(fetch.EmberYearly)
	}
	if src == nil {
		return "", nil
	}
	f, err := os.Open(filepath.Join(s.Dir, filepath.FromSlash(src.Path)))
	if err != nil {
		return "", nil
	}
	defer f.Close()
	t, err := grid.Parse(f)
	if err != nil {
		return "", nil
	}
	key := pricing.NameKey(q)
	var area string
	var years []int
	for v := range t.All() {
		if pricing.NameKey(v.Area) == key || (v.ISO3 != "" && strings.EqualFold(v.ISO3, q)) || knownAs(v.ISO3, key) {
			area = v.Area
			years = append(years, v.Year)
		}
	}
	slices.Sort(years)
	return area, slices.Compact(years)
}

// knownAs reports whether key is the pricing.NameKey of another name Ember has
// given the area of iso3 (pricing.KnownNames).
func knownAs(iso3, key string) bool {
	for _, n := range pricing.KnownNames(iso3) {
		if pricing.NameKey(n) == key {
			return true
		}
	}
	return false
}

// yearRanges writes ascending years as ranges: "2000-2019, 2021".
func yearRanges(years []int) string {
	var parts []string
	for i := 0; i < len(years); {
		j := i
		for j+1 < len(years) && years[j+1] == years[j]+1 {
			j++
		}
		p := strconv.Itoa(years[i])
		if j > i {
			p += "-" + strconv.Itoa(years[j])
		}
		parts = append(parts, p)
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
