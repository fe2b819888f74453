package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/pricing"
	"github.com/leadgreen/greentokens/snapshots/build"
	"github.com/leadgreen/greentokens/snapshots/store"
)

// gridHint is msg, the resolver's words for the grid q that grid.json
// lacks, with the years the snapshot's archived Ember CSV has that area for
// and how to pin one; msg as it is when the CSV does not have it either, or
// has it for the reference year.
func gridHint(s *store.Release, q, msg string) string {
	area, years := gridYears(s, q)
	if len(years) == 0 || slices.Contains(years, s.Grid.Year) {
		return msg
	}
	latest := years[len(years)-1]
	return fmt.Sprintf("%s; Ember's archived data has %s for %s: build with --grid-year %d to pin that year",
		msg, area, yearRanges(years), latest)
}

// gridYears returns the area of the archived Ember CSV that q names, found
// as pricing.Lookup finds an area of grid.json, and the years it has a
// value for, ascending.
func gridYears(s *store.Release, q string) (string, []int) {
	areas, err := build.EmberYears(s)
	if err != nil {
		return "", nil
	}
	// Every area the CSV names, once, as a grid lists them.
	all := &format.Grid{Year: s.Grid.Year}
	for _, a := range areas {
		all.Areas = append(all.Areas, format.Area{Name: a.Area, ISO3: a.ISO3})
	}
	a, err := pricing.Lookup(all, q)
	if err != nil {
		return "", nil
	}
	for _, ay := range areas {
		if ay.Area == a.Name && ay.ISO3 == a.ISO3 {
			return a.Name, ay.Years
		}
	}
	return "", nil
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
