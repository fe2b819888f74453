package render

import (
	"strconv"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// What other renderers of a snapshot (the site's overview pages) print the
// way the model pages do, from the same code.

// Dec1 prints x rounded once to 1 decimal, with thousands separators (Wh/M).
func Dec1(x float64) string { return dec1(x) }

// Whole prints x rounded once to a whole number, with thousands separators.
func Whole(x float64) string { return whole(x) }

// Group puts thousands separators into a decimal integer string: -6,912.
func Group(s string) string { return group(s) }

// Times prints a ratio of index.json with its three significant figures and ×.
func Times(x format.Float) string { return times(x) }

// Short prints a published float without a trailing ".0" (parameters).
func Short(x format.Float) string { return short(x) }

// LongDate prints a YYYY-MM-DD date as 16 February 2026.
func LongDate(s string) string { return longDate(s) }

// On names a configuration's hardware as plain text, "1 × B200", for a
// renderer that escapes text itself (the pages' on escapes it for Markdown).
func On(n int, gpu string) string { return strconv.Itoa(n) + " × " + gpu }

// List joins names the English way: "a, b and c".
func List(items []string) string { return list(items) }

// CiteAs is the index's citation for a release (a model file's updated
// date), naming the index at indexURL: where a site of it is published
// (site.Options.BaseURL); "" names the index's own address (internal/
// sourcetext's index_url), which the snapshot's pages and manifest name.
func CiteAs(updated, indexURL string) (string, error) {
	t, err := loadText()
	if err != nil {
		return "", err
	}
	if indexURL == "" {
		indexURL = t.IndexURL
	}
	year := updated
	if len(year) >= 4 {
		year = year[:4]
	}
	return sourcetext.Fill(t.CiteAs, map[string]string{
		"publisher": t.Publisher, "title": t.Title, "index_url": indexURL, "release": updated, "year": year,
	})
}
